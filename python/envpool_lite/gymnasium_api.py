"""envpool_lite as a gymnasium.vector.VectorEnv."""

from __future__ import annotations

import collections.abc
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from envpool_lite.pool import EnvPoolBase
from envpool_lite.spec import EnvSpec, nest_keys


def _with_masks(fields: collections.abc.Mapping, mask: np.ndarray) -> dict:
    """Each key with gymnasium's "_<key>" mask beside it, in nested dicts
    too."""
    out: dict[str, Any] = {}
    for key, value in fields.items():
        out[key] = _with_masks(value, mask) if isinstance(value, collections.abc.Mapping) else value
        out[f"_{key}"] = mask
    return out


class Frames(np.ndarray):
    """Every env's picture: one (num_envs, H, W, 3) uint8 array, as EnvPool's
    render() returns, that is also the Sequence of num_envs frames gymnasium's
    VectorEnv.render() returns (gymnasium.wrappers.vector.RecordVideo checks
    for one)."""


collections.abc.Sequence.register(Frames)


def parse_autoreset_mode(mode: Any) -> AutoresetMode:
    if isinstance(mode, str):
        try:
            mode = AutoresetMode[mode.upper()]
        except KeyError:
            mode = None
    if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
        raise ValueError(f"autoreset_mode must be AutoresetMode.NEXT_STEP or AutoresetMode.SAME_STEP, got {mode!r}")
    return mode


# gymnasium's VectorEnv and Env disagree on np_random_seed, and on spec and
# __exit__ with EnvPoolBase (whose spec is always an EnvSpec): one object is
# both, as EnvPool's pool is.
class GymnasiumEnvPool(EnvPoolBase, gymnasium.vector.VectorEnv, gymnasium.Env):  # type: ignore[misc]
    """A pool with gymnasium's vector API (a gymnasium.vector.VectorEnv, and
    a gymnasium.Env as EnvPool's pool is).

    step() returns (obs, reward, terminated, truncated, info) with reward as
    float32 and info a dict of arrays (env_id, elapsed_step and the env's own
    fields). In async mode (batch_size < num_envs) each call returns the
    batch_size envs that finished first: info["env_id"] says which.
    """

    def __init__(self, spec: EnvSpec, autoreset_mode: Any = AutoresetMode.NEXT_STEP, render_mode: str | None = None):
        mode = parse_autoreset_mode(autoreset_mode)
        self._same_step_autoreset = mode == AutoresetMode.SAME_STEP
        EnvPoolBase.__init__(self, spec, render_mode)
        self.num_envs = spec.config["num_envs"]
        self.single_observation_space = spec.observation_space
        self.single_action_space = spec.action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.metadata = {"autoreset_mode": mode, "render_modes": ["rgb_array"]}
        self.closed = False
        self._final_field = 7 + self._num_info
        self._last_obs: Any = None  # sync mode: for reset_mask (an array, or a dict of them)

    def reset(self, env_id: Any = None, *, seed: Any = None, options: dict | None = None):
        """Reset every env (default), the envs in env_id, or those in
        options["reset_mask"] (gymnasium's convention: then the returned obs
        covers every env, with unchanged rows for the others in sync mode)."""
        if options is not None and not isinstance(options, collections.abc.Mapping):
            raise TypeError(f"options must be a dict or None, got {type(options).__name__}")
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        if options:
            raise ValueError(f"unsupported reset options: {sorted(options)}")
        if mask is not None:
            mask = np.asarray(mask)
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
                raise ValueError(f"options['reset_mask'] must be a bool array of shape ({self.num_envs},)")
            if not mask.any():
                raise ValueError("options['reset_mask'] must contain at least one True value")
            if env_id is not None:
                raise ValueError("pass either env_id or options['reset_mask'], not both")
            env_id = np.flatnonzero(mask)
        raw = self._reset_raw(env_id, seed)
        obs, info = raw[0], self._info(raw)
        if mask is not None:
            obs, info = self._expand(raw, obs, info, mask)
        elif not self.is_async and len(raw[5]) == self.num_envs:
            self._last_obs = obs
        return obs, info

    def step(self, actions: Any, env_id: Any = None):
        return EnvPoolBase.step(self, actions, env_id)

    @property
    def is_vector_env(self) -> bool:
        """For wrappers of gymnasium < 1.0 that ask (EnvPool has it)."""
        return True

    def render(self, env_ids: Any = None):
        """The pictures of the given envs as one (n, H, W, 3) uint8 array;
        with no env_ids, every env's (gymnasium's VectorEnv convention: a
        Sequence of num_envs frames, see Frames)."""
        if env_ids is None:
            return self._render_frames(self._all_ids).view(Frames)
        return self._render_frames(env_ids)

    def close(self, **kwargs: Any) -> None:
        EnvPoolBase.close(self)
        self.closed = True

    def _expand(self, raw, obs, info, mask):
        """A reset_mask reset: rows for every env, masks for the reset ones."""
        ids = raw[5]
        last = self._last_obs if not self.is_async else None

        def expand(value, previous):
            full = previous.copy() if previous is not None else np.zeros((self.num_envs, *value.shape[1:]), value.dtype)
            full[ids] = value
            return full

        if isinstance(obs, dict):
            full = {k: expand(v, None if last is None else last[k]) for k, v in obs.items()}
        else:
            full = expand(obs, last)
        self._last_obs = full
        return full, self._expand_info(info, ids, mask)

    def _expand_info(self, info: dict, ids: np.ndarray, mask: np.ndarray) -> dict:
        """Rows for every env, and gymnasium's "_<key>" masks (nested dicts,
        like players, get their own)."""
        expanded: dict[str, Any] = {}
        for key, value in info.items():
            if isinstance(value, dict):
                expanded[key] = self._expand_info(value, ids, mask)
            else:
                array = np.zeros((self.num_envs, *value.shape[1:]), value.dtype)
                array[ids] = value
                expanded[key] = array
            expanded[f"_{key}"] = mask.copy()
        return expanded

    def _format(self, raw):
        obs, reward, terminated, truncated = raw[0], raw[1], raw[2], raw[3]
        info = self._info(raw)
        if not self._is_async and len(raw[5]) == self.num_envs:
            self._last_obs = obs
        if self._same_step_autoreset:
            done = terminated | truncated
            if done.any():
                self._add_final(raw, info, done)
        return obs, reward, terminated, truncated, info

    def _format_traced(self, raw):
        return raw[0], raw[1], raw[2], raw[3], self._info(raw)

    def _add_final(self, raw, info, done):
        """gymnasium's SAME_STEP format: info["final_obs"] is an object array
        holding the last observation of each env that ended (None elsewhere),
        info["final_info"] its info; "_final_obs"/"_final_info" are the mask."""
        f = self._final_field
        final_obs = np.full(len(done), None, dtype=object)
        last = raw[f]
        for i in np.flatnonzero(done):
            final_obs[i] = {k: v[i] for k, v in last.items()} if isinstance(last, dict) else last[i]
        final_info = {"env_id": np.where(done, raw[5], 0), "_env_id": done}
        final_info["elapsed_step"] = np.where(done, raw[f + 1], 0)
        final_info["_elapsed_step"] = done
        fields = {}
        for i, name in enumerate(self._info_names):
            value = raw[f + 2 + i]
            fields[name] = np.where(done.reshape(-1, *([1] * (value.ndim - 1))), value, 0)
        final_info.update(_with_masks(nest_keys(fields.items()) if self._nested_info else fields, done))
        info["final_obs"] = final_obs
        info["_final_obs"] = done
        info["final_info"] = final_info
        info["_final_info"] = done
