"""envpool_lite with the (old) gym API that CleanRL-style EnvPool scripts use."""

from __future__ import annotations

import copy
from typing import Any

import gymnasium

from envpool_lite.pool import EnvPoolBase
from envpool_lite.spec import EnvSpec


def _to_gym_space(space: gymnasium.spaces.Space):
    """gym's own space class when gym is installed (and imports), else the
    gymnasium one: nothing here requires gym."""
    try:
        import gym  # noqa: F401
        import gym.spaces
    except Exception:
        return space
    if isinstance(space, gymnasium.spaces.Discrete):
        return gym.spaces.Discrete(int(space.n))
    if isinstance(space, gymnasium.spaces.Dict):
        return gym.spaces.Dict({k: _to_gym_space(v) for k, v in space.spaces.items()})
    assert isinstance(space, gymnasium.spaces.Box)
    return gym.spaces.Box(low=space.low, high=space.high, shape=space.shape, dtype=space.dtype)


def with_gym_spaces(spec: EnvSpec) -> EnvSpec:
    """The spec as a gym-API pool shows it: EnvPool 0.x's, whose
    spec.observation_space and spec.action_space are gym's (TorchRL converts
    them with its gym backend). A shallow copy: everything else is shared."""
    shown = copy.copy(spec)
    shown.observation_space = _to_gym_space(spec.observation_space)
    shown.action_space = _to_gym_space(spec.action_space)
    return shown


class GymEnvPool(EnvPoolBase):
    """reset() returns obs (or (obs, info) with gym_reset_return_info=True);
    step() and recv() return (obs, reward, done, info) with
    info["TimeLimit.truncated"] and info["terminated"] (the env's own field
    where it has one, e.g. a game over that differs from the end of an
    episode with episodic_life; else the step's termination).

    observation_space and action_space are those of one env, as in EnvPool,
    and gym's spaces when gym is installed (in spec too), as in EnvPool 0.x.
    """

    def __init__(self, spec: EnvSpec, gym_reset_return_info: bool = False, render_mode: str | None = None):
        EnvPoolBase.__init__(self, spec, render_mode)
        self._reset_return_info = bool(gym_reset_return_info)
        self._gym_spec = with_gym_spaces(spec)
        self.observation_space = self._gym_spec.observation_space
        self.action_space = self._gym_spec.action_space
        self.num_envs = spec.config["num_envs"]

    @property
    def spec(self) -> EnvSpec:
        return self._gym_spec

    def reset(self, env_id: Any = None):
        raw = self._reset_raw(env_id, None)
        if self._reset_return_info:
            return raw[0], self._info(raw)
        return raw[0]

    def _format(self, raw):
        obs, reward, terminated, truncated = raw[0], raw[1], raw[2], raw[3]
        info = self._info(raw)
        # An env's own "terminated" info field (a game over, which with
        # episodic_life is not every terminated episode) stays; others get
        # the step's.
        info.setdefault("terminated", terminated)
        # gym's TimeLimit: truncated only when the episode did not also end.
        info["TimeLimit.truncated"] = truncated & ~terminated
        return obs, reward, terminated | truncated, info

    _format_traced = _format  # pure: works on JAX arrays as it is
