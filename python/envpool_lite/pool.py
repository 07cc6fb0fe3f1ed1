"""The behaviour shared by the gymnasium, gym and dm_env faces of a pool."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from envpool_lite import _core, families
from envpool_lite.options import seeds_for
from envpool_lite.spec import EnvSpec, nest_keys

RENDER_MODES = ("rgb_array",)


class RawPool(Protocol):
    """What the faces need of a pool: the interface of the C++ pool
    (``_core.EnvPool``), which the pool over a Ray cluster
    (``distributed.DistributedPool``) has too; mypy checks that both
    satisfy it (EnvPoolBase.__init__ assigns either to a RawPool)."""

    @property
    def field_names(self) -> list[str]: ...
    @property
    def field_specs(self) -> list[tuple[str, str, tuple[int, ...]]]: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def batch_size(self) -> int: ...
    @property
    def num_threads(self) -> int: ...
    @property
    def closed(self) -> bool: ...
    @property
    def in_flight(self) -> int: ...
    def send(self, action: Any, env_id: Any = None) -> None: ...
    def send_reset(self, env_id: Any = None, seeds: Any = None) -> None: ...
    def recv(self, timeout: Any = None) -> tuple[np.ndarray, ...]: ...
    def step(self, action: Any, env_id: Any = None, timeout: Any = None) -> tuple[np.ndarray, ...]: ...
    def render(self, env_id: Any) -> np.ndarray: ...
    def render_state(self, env_id: Any) -> np.ndarray: ...
    def get_state(self, env_id: Any) -> list[bytes]: ...
    def set_state(self, env_id: Any, states: Any) -> None: ...
    def close(self) -> None: ...


def _action_and_ids(action: Any, env_id: Any):
    """EnvPool's dict actions: the env ids travel with the action."""
    if isinstance(action, dict):
        if env_id is None:
            env_id = action.get("env_id")
        try:
            action = action["action"]
        except KeyError:
            raise ValueError(f"a dict action needs the key 'action' (and optionally 'env_id'), got keys {sorted(action)}") from None
    return action, env_id


class EnvPoolBase:
    """Owns the C++ pool. Subclasses turn raw batches into their API's shape.

    A raw batch is a tuple of numpy arrays that view the pool's memory, in the
    order of ``self._fields``: obs, reward, terminated, truncated, discount,
    env_id, elapsed_step, the env's info fields, then (SAME_STEP only)
    final_obs, final_elapsed_step and final_<info> fields. For a dict
    observation the faces see obs and final_obs as dicts of arrays
    (_dict_obs).
    """

    _same_step_autoreset = False

    def __init__(self, spec: EnvSpec, render_mode: str | None = None):
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode must be None or 'rgb_array', got {render_mode!r}" + (" (for a window, wrap the pool in gymnasium.wrappers.vector.HumanRendering)" if render_mode == "human" else "")
            )
        if render_mode is not None and spec.render_shape == (0, 0):
            # Drawn in Python by the task's family: a clear error now if it
            # cannot be drawn here.
            families.plugin_of(spec.task_id).check_render(spec)
        self._spec = spec
        self.render_mode = render_mode
        self._renderer: families.Renderer | None = None  # the family's, made on first use
        # The pool's typed options, made once by make_spec (checked in C++),
        # with what this face decides: its autoreset and whether it draws.
        options = spec.pool_options.replace(same_step_autoreset=self._same_step_autoreset, render=render_mode is not None)
        if spec.config["num_workers"] > 0:
            # Spread over Ray actors; Ray is imported only here.
            from envpool_lite.distributed import DistributedPool

            self._pool: RawPool = DistributedPool(spec, options)
        else:
            self._pool = _core.EnvPool(spec.task, options)
        num_envs = options.num_envs
        self._fields = self._pool.field_names
        self._info_names = [s["name"] for s in spec.info_specs]
        self._num_info = len(self._info_names)
        # Info fields "a/b": key b of a dict at info key a (an env's
        # obs_dict and rwd_dict), as dict observations nest.
        self._nested_info = any("/" in n for n in self._info_names)
        # A dict observation: raw[0] (and raw[final]) become {key: array},
        # from the key's own fields (see _dict_obs).
        self._obs_keys = spec.obs_keys
        self._obs_extra = 7 + self._num_info
        # (key, field) of the obs keys after the first: the step's and, in
        # SAME_STEP, the final obs's (precomputed: this runs every step)
        extra = self._obs_extra
        self._raw_final = extra + max(len(self._obs_keys) - 1, 0)  # where SAME_STEP's final fields start
        self._obs_fields = [(k, extra + i) for i, k in enumerate(self._obs_keys[1:])]
        self._final_obs_fields = [(k, self._raw_final + 2 + self._num_info + i) for i, k in enumerate(self._obs_keys[1:])]
        # Keys "a/b": a nested dict observation (spec.nest_keys).
        self._nested_obs = any("/" in k for k in self._obs_keys)
        self._all_ids = np.arange(num_envs, dtype=np.int32)
        self._is_async = self._pool.batch_size < self._pool.num_envs
        # The task's own methods (goal-conditioned tasks' compute_reward).
        for name, method in families.plugin_of(spec.task_id).methods(spec).items():
            setattr(self, name, method)

    # --- what every face shares -------------------------------------------
    @property
    def spec(self) -> EnvSpec:
        return self._spec

    @property
    def config(self) -> dict[str, Any]:
        return dict(self._spec.config)

    @property
    def is_async(self) -> bool:
        return self._is_async

    def __len__(self) -> int:
        return self._pool.num_envs

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def workers(self) -> list[dict]:
        """make(..., num_workers=K): one dict per Ray worker (pid, node_id,
        env_ids, steps, failures, busy_s); the in-process pool: []."""
        workers = getattr(self._pool, "workers", None)
        return workers() if workers is not None else []

    @property
    def all_env_ids(self) -> np.ndarray:
        """Every env id, int32 (EnvPool's name)."""
        return self._all_ids

    def seed(self, seed: Any = None) -> None:
        """Does nothing, as in EnvPool: seeds are set by make(seed=...) and,
        on the gymnasium face, by reset(seed=...)."""
        warnings.warn(
            "seed() does nothing: pass seed to envpool_lite.make(..., seed=...) (env i gets seed + i), or reset(seed=...) on the gymnasium face",
            UserWarning,
            stacklevel=2,
        )

    def close(self) -> None:
        pool = getattr(self, "_pool", None)
        if pool is not None:
            pool.close()
        renderer = getattr(self, "_renderer", None)
        if renderer is not None:
            self._renderer = None
            renderer.close()

    def render(self, env_ids: Any = None) -> np.ndarray:
        """Pictures of the given envs as one (n, H, W, 3) uint8 array, as
        EnvPool's render(): env 0 when env_ids is None. Needs
        make(..., render_mode="rgb_array"); an env can be drawn while it
        awaits an action (in async mode: after recv() returned it)."""
        return self._render_frames(0 if env_ids is None else env_ids)

    def _render_frames(self, env_ids: Any) -> np.ndarray:
        if self.render_mode is None:
            raise RuntimeError(f"render() needs render_mode='rgb_array': envpool_lite.make({self._spec.task_id!r}, ..., render_mode='rgb_array')")
        ids = np.asarray(env_ids)
        if ids.ndim == 0:
            ids = ids.reshape(1)
        if self._spec.render_shape != (0, 0):
            frames = self._pool.render(ids)
        else:
            states = self._pool.render_state(ids)  # validates ids before drawing
            if self._renderer is None:
                self._renderer = families.plugin_of(self._spec.task_id).make_renderer(self._spec)
            frames = self._renderer.draw(states, ids)
        return self._sized(frames)

    def _sized(self, frames: np.ndarray) -> np.ndarray:
        """The pictures at make(render_height=, render_width=) (0: the
        env's own size), resized as EnvPool resizes the family's pictures
        when the env drew them at another size."""
        config = self._spec.config
        height = config["render_height"] or frames.shape[1]
        width = config["render_width"] or frames.shape[2]
        if (height, width) == frames.shape[1:3]:
            return frames
        method = families.plugin_of(self._spec.task_id).render_resize(self._spec)
        return _core.resize_images(frames, height, width, area=method == "area")

    # A pool owns threads and envs: a copy would share them (and closing one
    # would close both), and they cannot be pickled.
    def _no_copy(self, what: str):
        raise TypeError(f"cannot {what} {self!r}: an envpool_lite pool owns its envs and worker threads; make another with envpool_lite.make({self._spec.task_id!r}, ...)")

    def __copy__(self):
        self._no_copy("copy")

    def __deepcopy__(self, memo):
        self._no_copy("deepcopy")

    def __reduce_ex__(self, protocol):
        self._no_copy("pickle")

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def send(self, action: Any, env_id: Any = None) -> None:
        """Queue one action per env id (default: every env in sync mode, the
        envs of the last batch received in async mode). EnvPool's dict form,
        {"action": a, "env_id": ids, "players.env_id": ids}, works too."""
        self._pool.send(*_action_and_ids(action, env_id))

    def async_reset(self) -> None:
        """Queue a reset of every env; collect the results with recv()."""
        self._drain()
        self._pool.send_reset(None, None)

    def recv(self, timeout: float | None = None):
        """The next batch: min(batch_size, envs in flight) results."""
        return self._format(self._dict_obs(self._pool.recv(timeout)))

    def step(self, action: Any, env_id: Any = None):
        action, env_id = _action_and_ids(action, env_id)
        if env_id is not None and np.size(env_id) == 0:
            if np.shape(action)[:1] != (0,):
                raise ValueError(f"step() with no env ids takes no actions, got an action of shape {np.shape(action)}")
            return self._format(self._dict_obs(self._empty_batch()))
        return self._format(self._dict_obs(self._pool.step(action, env_id)))

    def reset(self, env_id: Any = None):
        return self._format(self._reset_raw(env_id, None))

    def get_state(self, env_ids: Any = None) -> list[bytes]:
        """One opaque ``bytes`` per env of env_ids (default: every env in
        sync mode, the envs of the last batch received in async mode),
        holding everything that decides the env's future and the row it
        produced last. The envs must await an action (received, not sent).
        A state loads into any pool of the same task, options and version
        (any num_envs, threads, process or machine): see set_state."""
        return self._pool.get_state(env_ids)

    def set_state(self, env_ids: Any, states: Sequence[bytes]) -> None:
        """Put the envs of env_ids back where ``states`` (from get_state,
        one per id) were taken. Like async_reset, the restored envs are then
        in flight: the next recv() returns, for each, the row it had
        produced then (observation, reward, terminated, truncated and info,
        all equal), and stepping goes on bit for bit. Every state is checked
        (task, options, version, digest) before any env changes: a bad one is
        a ValueError and leaves the pool as it was."""
        self._pool.set_state(env_ids, states)

    # --- helpers ----------------------------------------------------------
    def _drain(self) -> None:
        # A full reset starts from a clean slate: results still in flight
        # are collected and dropped.
        while self._pool.in_flight:
            self._pool.recv(None)

    def _reset_raw(self, env_id: Any, seed: Any):
        if env_id is None:
            self._drain()
            ids = self._all_ids
        else:
            ids = np.asarray(env_id)
            if ids.ndim == 0:
                ids = ids.reshape(1)
            if ids.size == 0:
                return self._dict_obs(self._empty_batch())
        seeds = None if seed is None else seeds_for(seed, ids.tolist(), self._pool.num_envs)
        self._pool.send_reset(ids, seeds)
        return self._dict_obs(self._pool.recv(None))

    def _empty_batch(self) -> tuple[np.ndarray, ...]:
        """A batch of no env, what EnvPool returns for an empty env_id
        (Sample Factory resets np.nonzero(done)[0] after every step)."""
        return tuple(np.empty((0, *shape), dtype=dtype) for _, dtype, shape in self._pool.field_specs)

    def _dict_obs(self, raw):
        """A dict observation's raw batch in the layout of an array one:
        raw[0] (and SAME_STEP's final obs) become {key: array} of the keys'
        own fields (views, no copy), which the C++ batch keeps after the
        info fields."""
        keys = self._obs_keys
        if not keys:
            return raw
        extra, final = self._obs_extra, self._raw_final
        obs = {keys[0]: raw[0]}
        for k, i in self._obs_fields:
            obs[k] = raw[i]
        if self._nested_obs:
            obs = nest_keys(obs.items())
        if len(raw) == final:
            return (obs, *raw[1:extra])
        # SAME_STEP: final_obs, final_elapsed_step, the final info fields
        final_obs = {keys[0]: raw[final]}
        for k, i in self._final_obs_fields:
            final_obs[k] = raw[i]
        if self._nested_obs:
            final_obs = nest_keys(final_obs.items())
        return (obs, *raw[1:extra], final_obs, *raw[final + 1 : final + 2 + self._num_info])

    def _info(self, raw) -> dict[str, Any]:
        info = {"env_id": raw[5], "elapsed_step": raw[6]}
        info.update(self._info_fields(raw, 7))
        info["players"] = {"env_id": raw[5]}  # EnvPool's per-player ids: one player per env
        return info

    def _info_fields(self, raw, start: int) -> dict[str, Any]:
        """The env's info fields from raw[start:], keys "a/b" nested."""
        fields = zip(self._info_names, raw[start : start + self._num_info])
        return nest_keys(fields) if self._nested_info else dict(fields)

    def _format(self, raw):
        raise NotImplementedError

    def _format_traced(self, raw):
        """_format for xla(): raw is a tuple of JAX arrays (traced inside
        jit), so no numpy and no state kept on self."""
        raise NotImplementedError

    def xla(self):
        """EnvPool's xla(): (handle, recv, send, step), JAX functions that run
        inside jax.jit, lax.scan and lax.fori_loop, with this face's outputs:
        ``handle, batch = step(handle, action, env_id=None)``;
        ``handle = send(handle, action, env_id=None)``;
        ``handle, batch = recv(handle)``. Thread the handle through the loop.
        Needs JAX (the jax extra) when envpool_lite is built; see
        envpool_lite/xla.py."""
        from envpool_lite.xla import make_xla

        return make_xla(self)

    def __repr__(self) -> str:
        c = self._spec.config
        return f"{type(self).__name__}({self._spec.task_id!r}, num_envs={c['num_envs']}, batch_size={c['batch_size']})"
