"""envpool_lite: a fast C++ batched environment-execution engine.

import envpool_lite
env = envpool_lite.make("CartPole-v1", env_type="gymnasium", num_envs=64, batch_size=16)
"""

from __future__ import annotations

from typing import Any, Callable

from envpool_lite import families
from envpool_lite._core import EnvStepError
from envpool_lite._version import __version__ as __version__
from envpool_lite.dm_api import DmEnvPool
from envpool_lite.gym_api import GymEnvPool
from envpool_lite.gymnasium_api import GymnasiumEnvPool
from envpool_lite.multiagent import FlatAgentsEnv, make_flat_agents, make_pettingzoo
from envpool_lite.pool import EnvPoolBase
from envpool_lite.spec import EnvSpec, list_all_envs, make_spec

__all__ = [
    "make",
    "make_gymnasium",
    "make_gym",
    "make_dm",
    "make_spec",
    "make_flat_agents",
    "make_pettingzoo",
    "FlatAgentsEnv",
    "list_all_envs",
    "EnvSpec",
    "EnvStepError",
    "GymnasiumEnvPool",
    "GymEnvPool",
    "DmEnvPool",
    "families",
]


def make_gymnasium(task_id: str, autoreset_mode: Any = "NEXT_STEP", render_mode: str | None = None, **kwargs: Any) -> GymnasiumEnvPool:
    """A pool with gymnasium's VectorEnv API. autoreset_mode: NEXT_STEP
    (default, EnvPool's behaviour) or SAME_STEP; render_mode: None or
    "rgb_array"."""
    return GymnasiumEnvPool(make_spec(task_id, **kwargs), autoreset_mode, render_mode)


def make_gym(task_id: str, gym_reset_return_info: bool = False, render_mode: str | None = None, **kwargs: Any) -> GymEnvPool:
    """A pool with the gym API that CleanRL-style EnvPool scripts expect."""
    return GymEnvPool(make_spec(task_id, **kwargs), gym_reset_return_info, render_mode)


def make_dm(task_id: str, render_mode: str | None = None, **kwargs: Any) -> DmEnvPool:
    """A pool with the dm_env API (batched TimeSteps)."""
    return DmEnvPool(make_spec(task_id, **kwargs), render_mode)


_MAKERS: dict[str, Callable[..., EnvPoolBase]] = {"gymnasium": make_gymnasium, "gym": make_gym, "dm": make_dm, "dm_env": make_dm}


def make(task_id: str, env_type: str = "gymnasium", **kwargs: Any):
    """Make a pool of `task_id` envs. env_type: "gymnasium" (default), "gym"
    or "dm". Options: num_envs, batch_size (0: num_envs), num_threads,
    thread_affinity_offset, seed, max_episode_steps and each env's own."""
    try:
        maker = _MAKERS[env_type]
    except KeyError:
        raise ValueError(f"env_type must be one of {sorted(_MAKERS)}, got {env_type!r}") from None
    return maker(task_id, **kwargs)
