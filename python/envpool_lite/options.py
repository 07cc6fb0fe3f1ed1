"""The options every task accepts, the pool's and render()'s, with their
defaults and limits, and the seed convention (env i of a pool seeded s is
seeded s + i). The lowest layer of options: make() (envpool_lite.spec)
checks them, and a family's hooks may read them."""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import numpy as np

from envpool_lite import _core

# Options every task accepts, with their defaults. The C++ pool's own
# (num_envs, batch_size, num_threads, thread_affinity_offset) are
# _core.PoolOptions', whose rules (ranges, batch_size 0 meaning num_envs)
# live in C++ only (cpp/core/pool_options.h); the rest are Python's.
POOL_DEFAULTS: Mapping[str, Any] = MappingProxyType(
    {
        **_core.POOL_OPTION_DEFAULTS,  # batch_size 0: num_envs (sync); num_threads 0: min(batch_size, cores); thread_affinity_offset -1: no pinning
        "seed": 42,  # int: env i gets seed + i; or one seed per env
        # > 0: the envs spread over this many Ray actors (envpool_lite/distributed/)
        "num_workers": 0,
        # distributed only: seconds a worker may go without answering
        "worker_timeout": 60.0,
        # distributed only: > 0: each env's state is checkpointed every this
        # many of its steps, and a lost worker's envs are restored and its
        # steps replayed (no episode lost); 0: a lost worker's envs reset
        "checkpoint_every": 0,
        # EnvPool's multi-player option: the task's number of players
        # (None: the task's own; any other value is refused)
        "max_num_players": None,
    }
)
# render()'s pictures, as EnvPool 1.x takes them at make(): their width and
# height (0: the env's own, per axis) and the camera of the families that
# draw with one (-1: the task's default view). A family whose env takes
# these options itself keeps its own defaults and draws at the asked size;
# other pictures are resized the way EnvPool resizes that family's
# (families.Family.render_resize).
RENDER_DEFAULTS: Mapping[str, Any] = MappingProxyType({"render_width": 0, "render_height": 0, "render_camera_id": -1})
MAX_RENDER_SIZE = 16384
MAX_SEED = 2**32 - 1


def as_int(name: str, value: Any) -> int:
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an int, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, got {type(value).__name__}") from None


def seeds_for(seed: Any, ids: Sequence[int] | np.ndarray, num_envs: int) -> list[int]:
    """gymnasium's convention: an int seeds env i with seed + i, a list gives one
    seed per env."""
    if isinstance(seed, (list, tuple, np.ndarray)):
        seeds = [as_int("seed", s) for s in seed]
        if len(seeds) != num_envs:
            raise ValueError(f"seed list has {len(seeds)} entries, expected one per env ({num_envs})")
        seeds = [seeds[i] for i in ids]
    else:
        base = as_int("seed", seed)
        seeds = [base + int(i) for i in ids]
    for s in seeds:
        if not 0 <= s <= MAX_SEED:
            raise ValueError(f"seed {s} out of range [0, 2**32 - 1] (env i gets seed + i)")
    return seeds
