"""envpool_lite with the dm_env API: batched TimeSteps."""

from __future__ import annotations

from typing import Any

import dm_env
import numpy as np

from envpool_lite.pool import EnvPoolBase
from envpool_lite.spec import EnvSpec, nest_keys, players_type, state_type

_FIRST, _MID, _LAST = (int(t) for t in (dm_env.StepType.FIRST, dm_env.StepType.MID, dm_env.StepType.LAST))


class DmEnvPool(EnvPoolBase, dm_env.Environment):
    """reset(), step() and recv() return one dm_env.TimeStep whose fields are
    arrays over the batch: step_type (FIRST/MID/LAST as int32), reward
    (float32, 0 at FIRST), discount (float32) and observation, a namedtuple of
    obs (or a dict observation's keys, as EnvPool's) and the
    info fields (env_id, elapsed_step, the env's own, players), with the
    structure of observation_spec(); ``observation["key"]`` works too.

    Discount is 0 when an episode terminates and 1 when it is truncated by the
    time limit (as dm_env.truncation defines it). EnvPool differs: its dm_env
    discount is 1 - done, 0 on truncation too.
    """

    def __init__(self, spec: EnvSpec, render_mode: str | None = None):
        EnvPoolBase.__init__(self, spec, render_mode)
        # A nested dict observation's top-level keys ("a/b" keys: spec.nest_keys).
        self._obs_names = tuple(nest_keys((k, None) for k in spec.obs_keys)) or (spec.obs_name,)
        # Info fields "a/b" are key b of a dict field a.
        info_fields = tuple(nest_keys((k, None) for k in self._info_names))
        self._observation_type = state_type((*self._obs_names, "env_id", "elapsed_step", *info_fields, "players"))
        self._players_type = players_type()
        self.num_envs = spec.config["num_envs"]

    def observation_spec(self):
        return self._spec.observation_spec()

    def action_spec(self):
        return self._spec.action_spec()

    def reward_spec(self):
        return self._spec.reward_spec()

    def discount_spec(self):
        return self._spec.discount_spec()

    def reset(self, env_id: Any = None) -> dm_env.TimeStep:
        return self._format(self._reset_raw(env_id, None))

    def _format(self, raw) -> dm_env.TimeStep:
        elapsed = raw[6]
        step_type = np.full(len(elapsed), _MID, dtype=np.int32)
        step_type[raw[2] | raw[3]] = _LAST
        step_type[elapsed == 0] = _FIRST
        obs = tuple(raw[0].values()) if isinstance(raw[0], dict) else (raw[0],)
        observation = self._observation_type(*obs, raw[5], elapsed, *self._info_fields(raw, 7).values(), self._players_type(raw[5]))
        return dm_env.TimeStep(step_type=step_type, reward=raw[1], discount=raw[4], observation=observation)

    def _format_traced(self, raw) -> dm_env.TimeStep:
        import jax.numpy as jnp

        elapsed = raw[6]
        step_type = jnp.where(elapsed == 0, _FIRST, jnp.where(raw[2] | raw[3], _LAST, _MID)).astype(jnp.int32)
        observation = self._observation_type(raw[0], raw[5], elapsed, *self._info_fields(raw, 7).values(), self._players_type(raw[5]))
        return dm_env.TimeStep(step_type=step_type, reward=raw[1], discount=raw[4], observation=observation)
