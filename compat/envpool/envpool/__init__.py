"""envpool_lite under EnvPool's name: a module named `envpool`, for the
libraries and scripts that `import envpool` (TorchRL, Tianshou, rl_games,
Sample Factory, DI-engine, CleanRL, PureJaxQL, EnvPool's own tests).

Installed on its own, beside envpool_lite and instead of EnvPool:
``pip install ./compat/envpool`` (README.md, "Using envpool_lite from other
libraries"). It holds only what EnvPool's surface needs on top of
envpool_lite:

- EnvPool's gymnasium pool: ``observation_space`` and ``action_space`` are
  one env's (envpool_lite's gymnasium face follows gymnasium: batched);
- ``env_type="gym"`` as EnvPool 0.8 made it: with gym < 0.26 installed
  (CleanRL and PureJaxQL pin 0.23.1), gym's old API (``reset()`` -> obs,
  ``step()`` -> 4-tuple); otherwise the gymnasium API, as EnvPool 1.x; the
  spaces are gym's wherever gym is installed;
- ``gym_reset_return_info`` as EnvPool takes it;
- two of EnvPool's leniencies that envpool_lite itself does not have (its
  clear errors catch bugs): ``close()`` leaves the pool working (Stoix
  closes its pool and goes on stepping it; the threads stop when the pool
  is garbage-collected), and a partial ``step(action, env_id)`` with more
  actions than ids uses the first ``len(env_id)`` (Stoix passes
  ``np.zeros_like(action)`` for the envs it resets).
"""

from __future__ import annotations

import os
import re
from typing import Any

import numpy as np

import envpool_lite
from envpool_lite import EnvSpec, _core
from envpool_lite.gym_api import with_gym_spaces
from envpool_lite.multiagent import _player_space
from envpool_lite.pool import EnvPoolBase
from envpool_lite.spec import Config

# EnvPool's version whose API this module follows, with envpool_lite's own as
# the local part: version.parse() compares it as 1.2.5.
__version__ = f"1.2.5+lite{envpool_lite.__version__}"

__all__ = [
    "make",
    "make_dm",
    "make_gym",
    "make_gymnasium",
    "make_spec",
    "list_all_envs",
    "EnvSpec",
    "EnvPool",
    "DMEnvPool",
    "GymnasiumEnvPool",
]


def _installed_gym() -> tuple[int, int] | None:
    """(major, minor) of the gym package when it is installed and imports,
    else None."""
    try:
        import gym
    except Exception:
        return None
    major, minor = (int(x) for x in re.findall(r"\d+", gym.__version__)[:2])
    return major, minor


# EnvPool's _debug_states() fields that are numbers (the others are arrays
# and strings).
_DEBUG_SCALARS = frozenset(
    {
        "width",
        "height",
        "max_steps",
        "agent_dir",
        "has_carrying",
        "carrying_type",
        "carrying_color",
        "carrying_state",
        "carrying_has_contains",
        "carrying_contains_type",
        "carrying_contains_color",
        "carrying_contains_state",
        "target_type",
        "target_color",
        "move_type",
        "move_color",
    }
)


class _DebugState:
    """One env's state as EnvPool's _debug_states() gives it: its fields as
    attributes."""

    def __init__(self, fields: dict[str, Any]):
        for name, value in fields.items():
            setattr(self, name, int(value[0]) if name in _DEBUG_SCALARS else value)

    def __repr__(self) -> str:
        return f"_DebugState({', '.join(sorted(vars(self)))})"


# Ids envpool_lite has and EnvPool 1.2.x's registry lists under the same
# family without them: its tests count the family's ids (81 MiniGrid ids).
# They stay makeable here; only list_all_envs() leaves them out.
_NOT_IN_ENVPOOL_LIST = frozenset({"MiniGrid-MultiRoom-N4-S5-v1"})  # minigrid 3.2.0's, after EnvPool's port


def list_all_envs() -> list[str]:
    """EnvPool's list_all_envs(): envpool_lite's ids, less the few that
    would change the count of a family EnvPool's tests check."""
    return [task_id for task_id in envpool_lite.list_all_envs() if task_id not in _NOT_IN_ENVPOOL_LIST]


# Families whose EnvPool info carries the state its tests rebuild the
# reference from (Box2D's bodies, terrain, clouds and track): the env's
# debug state (Env::Debug), read for the envs a reset or step returns, in
# this module's pools and only with the environment variable ENVPOOL_TEST=1
# (scripts/run_envpool_tests.sh sets it). EnvPool fills them only in its
# test build (ENVPOOL_TEST), and reading them costs Python time at every
# step (LunarLander-v3 16 envs: 52k steps/s with them, 85k without).
_STATE_IN_INFO = frozenset({"box2d"})


def _test_hooks() -> bool:
    return os.environ.get("ENVPOOL_TEST", "") == "1"


def _stack_states(states: list[dict[str, Any]]) -> dict[str, Any]:
    """The envs' debug states as info fields: one array per name, rows by
    env (an object array of per-env arrays where their shapes differ, as
    EnvPool's ragged fields: CarRacing's track, BipedalWalker's path4)."""
    fields: dict[str, Any] = {}
    for name in states[0] if states else ():
        values = [state[name] for state in states]
        if all(v.shape == values[0].shape for v in values):
            fields[name] = np.stack(values)
        else:
            fields[name] = np.empty(len(values), dtype=object)
            fields[name][:] = values
    return fields


class _EnvPoolLeniency:
    """EnvPool's close() and partial step(), its test hook _debug_states(),
    and the state its tests read from info, for every face of this module."""

    def __init__(self, spec: EnvSpec, *args: Any, **kwargs: Any):
        super().__init__(spec, *args, **kwargs)  # type: ignore[call-arg]
        family = envpool_lite.families.family_of(spec.task_id) if spec.task_id in envpool_lite.list_all_envs() else None
        self._state_in_info = family in _STATE_IN_INFO and _test_hooks() and hasattr(self._pool, "debug_states")  # type: ignore[attr-defined]

    def _info(self, raw) -> dict[str, Any]:
        info = super()._info(raw)  # type: ignore[misc]
        if self._state_in_info:
            info.update(_stack_states(self._pool.debug_states(np.asarray(info["env_id"], np.int32))))  # type: ignore[attr-defined]
        return info

    def _debug_states(self, env_ids: Any) -> list[_DebugState]:
        """EnvPool's test hook (its MiniGrid and BabyAI alignment tests
        rebuild their reference from it): the state of each env of env_ids,
        which must await an action. Made only when called."""
        debug_states = getattr(self._pool, "debug_states", None)  # type: ignore[attr-defined]
        if debug_states is None:
            raise NotImplementedError("_debug_states() needs the in-process pool (num_workers=0)")
        return [_DebugState(d) for d in debug_states(np.asarray(env_ids, dtype=np.int32).reshape(-1))]

    def close(self, **kwargs: Any) -> None:
        """EnvPool's close(): marks the pool closed and leaves it working;
        its threads stop when it is garbage-collected."""
        self.closed = True

    def __del__(self) -> None:
        try:
            EnvPoolBase.close(self)  # type: ignore[arg-type]  # envpool_lite's own: stops the threads
        except Exception:
            pass

    def render(self, env_ids: Any = None):
        """EnvPool's render(): with no env_ids, env 0's picture as
        (1, H, W, 3) (envpool_lite's gymnasium face draws every env)."""
        return super().render([0] if env_ids is None else env_ids)  # type: ignore[misc]

    def step(self, action: Any, env_id: Any = None):
        if env_id is not None and isinstance(action, np.ndarray) and action.ndim >= 1 and len(action) > np.size(env_id):
            action = action[: np.size(env_id)]
        return super().step(action, env_id)  # type: ignore[misc]


class DMEnvPool(_EnvPoolLeniency, envpool_lite.DmEnvPool):
    """EnvPool's dm_env pool (envpool_lite's dm face)."""


class GymEnvPool(_EnvPoolLeniency, envpool_lite.GymEnvPool):
    """EnvPool 0.x's gym pool with gym < 0.26 (envpool_lite's gym face)."""


class GymnasiumEnvPool(_EnvPoolLeniency, envpool_lite.GymnasiumEnvPool):  # type: ignore[misc]
    """EnvPool's gymnasium pool: envpool_lite's gymnasium face with
    ``observation_space`` and ``action_space`` of one env, as EnvPool has
    them (also in ``single_observation_space`` / ``single_action_space``)."""

    def __init__(self, spec: EnvSpec, autoreset_mode: Any = "NEXT_STEP", render_mode: str | None = None):
        super().__init__(spec, autoreset_mode, render_mode)
        self._num_players = spec.num_players
        if self._num_players > 1:
            # EnvPool's multi-player format: one observation (and reward)
            # row per (env, player), info["players"] saying whose.
            self.single_observation_space = _player_space(spec.observation_space, self._num_players)
            self._current_player = np.zeros(spec.config["num_envs"], np.int32)
        self.observation_space = self.single_observation_space
        self.action_space = self.single_action_space

    def reset(self, env_id: Any = None, **kwargs: Any):
        obs, info = super().reset(env_id, **kwargs)
        if self._num_players > 1:
            obs, _, info = self._players_format(obs, None, info)
        return obs, info

    def step(self, action: Any, env_id: Any = None):
        if self._num_players > 1 and isinstance(action, dict) and ("players.id" in action or "players.env_id" in action):
            action, env_id = self._player_action(action, env_id)
        return super().step(action, env_id)

    def _format(self, raw):
        obs, reward, terminated, truncated, info = super()._format(raw)
        if self._num_players > 1:
            obs, reward, info = self._players_format(obs, reward, info)
        return obs, reward, terminated, truncated, info

    def _players_format(self, obs: Any, reward: Any, info: dict):
        """(n, players, ...) -> (n * players, ...) rows, as EnvPool gives a
        multi-player batch; info["players"]: each row's env_id and player id."""
        p = self._num_players
        ids = np.asarray(info["env_id"])
        self._current_player[ids] = info["current_player"]
        obs = obs.reshape(-1, *obs.shape[2:])
        if reward is not None:
            reward = reward.reshape(-1)
        info["players"] = {"env_id": np.repeat(ids, p), "id": np.tile(np.arange(p, dtype=np.int32), len(ids))}
        return obs, reward, info

    def _player_action(self, action: dict, env_id: Any):
        """EnvPool's player-shaped action: rows of (action, players.env_id,
        players.id). A turn-based game takes one row per env, the acting
        player's; anything else is a clear error."""
        rows = np.asarray(action["action"]).reshape(-1)
        envs = np.asarray(action.get("players.env_id", action.get("env_id", env_id)), np.int64).reshape(-1)
        players = np.asarray(action["players.id"], np.int64).reshape(-1) if "players.id" in action else self._current_player[envs]
        if not len(rows) == len(envs) == len(players):
            raise ValueError(f"a player-shaped action needs as many players.env_id and players.id as actions, got {len(rows)} actions, {len(envs)} env ids, {len(players)} player ids")
        if len(set(envs.tolist())) != len(envs):
            raise ValueError(f"a turn-based game takes one action per env (the acting player's); players.env_id repeats an env: {envs.tolist()}")
        if np.any((envs < 0) | (envs >= len(self._current_player))):
            raise ValueError(f"players.env_id out of range [0, {len(self._current_player)}): {envs.tolist()}")
        wrong = players != self._current_player[envs]
        if np.any(wrong):
            i = int(np.flatnonzero(wrong)[0])
            raise ValueError(f"env {int(envs[i])}: it is player {int(self._current_player[envs[i]])}'s turn, got an action for player {int(players[i])}")
        return rows, envs.astype(np.int32)


class GymNewApiEnvPool(GymnasiumEnvPool):
    """EnvPool 0.8's gym pool with gym >= 0.26 installed: the gymnasium API
    (gym 0.26's), with gym's spaces, in spec too."""

    def __init__(self, spec: EnvSpec, autoreset_mode: Any = "NEXT_STEP", render_mode: str | None = None):
        super().__init__(spec, autoreset_mode, render_mode)
        self._gym_spec = with_gym_spaces(spec)
        self.observation_space = self.single_observation_space = self._gym_spec.observation_space
        self.action_space = self.single_action_space = self._gym_spec.action_space

    @property
    def spec(self) -> EnvSpec:  # type: ignore[override]
        return self._gym_spec


EnvPool = GymnasiumEnvPool

# Options whose default differs between EnvPool and envpool_lite (the README's
# Differences table): this module takes EnvPool's.
_ENVPOOL_DEFAULTS: dict[str, dict[str, Any]] = {"procgen": {"channel_first": True}, "vizdoom": {"reward_mode": "envpool"}, "minigrid": {"highlight": False}}
# EnvPool's behaviour that an env gives only on request (internal options,
# which make() does not take): Acrobot's info["state"] (its two angles);
# Procgen's render() is its 64x64 observation;
# gymnasium's MuJoCo tasks report the state of their last reset as
# info["qpos0"] and info["qvel0"], dm_control's tasks theirs as EnvPool's
# per-domain fields (qpos0, targets, drawn model parameters: in the dm
# face's observation), which EnvPool's alignment tests copy into their
# reference.
# BipedalWalker's render() draws no lidar ray (gymnasium's draws the next one
# at each call, EnvPool's none).
_ENVPOOL_HOOKS: dict[str, dict[str, Any]] = {
    "classic_control": {"report_state": True},  # Acrobot's info["state"]
    "procgen": {"render_observation": True},
    "mujoco": {"report_reset_state": True},
    "dm_control": {"report_reset_state": True},
    "box2d": {"render_lidar": False},
}


def make_spec(task_id: str, **kwargs: Any) -> EnvSpec:
    """EnvPool's make_spec: envpool_lite's, with EnvPool's defaults where
    they differ."""
    if task_id in envpool_lite.list_all_envs():
        family = envpool_lite.families.family_of(task_id)
        kwargs = {**_ENVPOOL_DEFAULTS.get(family, {}), **kwargs}
        if family == "minigrid" and "max_episode_steps" in kwargs:
            # EnvPool's MiniGrid: max_episode_steps is minigrid's max_steps
            # (the episode's end and the reward's 1 - 0.9 * steps / max_steps).
            if "max_steps" in kwargs:
                raise ValueError(f"{task_id}: give one of max_episode_steps (EnvPool's name) and max_steps (minigrid's)")
            kwargs["max_steps"] = kwargs.pop("max_episode_steps")
        spec = envpool_lite.make_spec(task_id, **kwargs)
        # The family's hooks this task has (BipedalWalker's render_lidar is
        # not LunarLander's).
        hooks = {k: v for k, v in _ENVPOOL_HOOKS.get(family, {}).items() if k in spec._internal}
        if hooks:
            spec = spec.with_internal(**hooks)
        if family == "minigrid":
            spec = _MiniGridSpec(spec)
        return spec
    return envpool_lite.make_spec(task_id, **kwargs)


class _MiniGridSpec(EnvSpec):
    """EnvPool's MiniGrid spec: ``config.max_episode_steps`` is minigrid's
    ``max_steps`` (the task's own default when not given: EnvPool's tests
    read it to know how long an episode runs)."""

    def __init__(self, spec: EnvSpec):
        super().__init__(spec.task_id, spec.config, spec._internal)
        max_steps = int(spec.config["max_steps"])
        if max_steps < 0:  # the task's default: its env knows it after a reset
            pool = _core.EnvPool(spec.task, _core.PoolOptions(num_envs=1, num_threads=1, seeds=[0]))
            try:
                pool.send_reset(None, None)
                pool.recv(None)
                max_steps = int(pool.debug_states([0])[0]["max_steps"][0])
            finally:
                pool.close()
        self.config = Config({**self.config, "max_episode_steps": max_steps})

    @property
    def env_options(self) -> dict[str, Any]:
        options = super().env_options
        options.pop("max_episode_steps", None)  # EnvPool's name, shown only
        return options


def _check_reset_return_info(gym_reset_return_info: bool) -> None:
    if not gym_reset_return_info:
        raise ValueError("gym_reset_return_info=False needs gym < 0.26 installed (gym's old API); the gymnasium API's reset() always returns (obs, info), as in EnvPool 1.x")


def make_gymnasium(task_id: str, gym_reset_return_info: bool = True, autoreset_mode: Any = "NEXT_STEP", render_mode: str | None = None, **kwargs: Any) -> GymnasiumEnvPool:
    """EnvPool's make_gymnasium: a gymnasium-API pool (reset() -> (obs, info),
    step() -> 5-tuple) whose observation_space and action_space are one
    env's."""
    _check_reset_return_info(gym_reset_return_info)
    return GymnasiumEnvPool(make_spec(task_id, **kwargs), autoreset_mode, render_mode)


def make_gym(task_id: str, gym_reset_return_info: bool | None = None, render_mode: str | None = None, **kwargs: Any) -> GymnasiumEnvPool | GymEnvPool:
    """EnvPool's make_gym, by the gym installed (as EnvPool 0.8): with
    gym < 0.26, gym's old API (reset() -> obs, or (obs, info) with
    gym_reset_return_info=True; step() -> (obs, reward, done, info) with
    info["TimeLimit.truncated"]); otherwise the gymnasium API, as EnvPool
    1.x, with gym's spaces when gym is installed."""
    gym = _installed_gym()
    if gym is not None and gym < (0, 26):
        return GymEnvPool(make_spec(task_id, **kwargs), bool(gym_reset_return_info), render_mode)
    _check_reset_return_info(True if gym_reset_return_info is None else gym_reset_return_info)
    autoreset_mode = kwargs.pop("autoreset_mode", "NEXT_STEP")
    face = GymnasiumEnvPool if gym is None else GymNewApiEnvPool
    return face(make_spec(task_id, **kwargs), autoreset_mode, render_mode)


def make_dm(task_id: str, render_mode: str | None = None, **kwargs: Any) -> DMEnvPool:
    """EnvPool's make_dm: a dm_env-API pool (batched TimeSteps)."""
    kwargs.pop("gym_reset_return_info", None)  # EnvPool takes it for every env_type
    return DMEnvPool(make_spec(task_id, **kwargs), render_mode)


def make(task_id: str, env_type: str, **kwargs: Any) -> DMEnvPool | GymnasiumEnvPool | GymEnvPool:
    """EnvPool's make: env_type "gym", "gymnasium" or "dm"."""
    if env_type == "dm":
        return make_dm(task_id, **kwargs)
    if env_type == "gym":
        return make_gym(task_id, **kwargs)
    if env_type == "gymnasium":
        return make_gymnasium(task_id, **kwargs)
    raise ValueError(f"env_type must be one of 'dm', 'gym' or 'gymnasium', got {env_type!r}")


# As EnvPool's own __init__ does, load the submodules that code reaches by
# attribute (TorchRL: `envpool.python.envpool.EnvPoolMixin` after a bare
# `import envpool`).
import envpool.python.envpool  # noqa: E402
import envpool.python.protocol  # noqa: E402, F401
import envpool.registration  # noqa: E402, F401
