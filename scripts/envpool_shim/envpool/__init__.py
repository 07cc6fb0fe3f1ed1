"""A module named `envpool` that re-exports envpool_lite's names under
EnvPool 1.x's, to run code written for EnvPool (its own test suite, its
examples) on envpool_lite unmodified: PYTHONPATH=scripts/envpool_shim.

No logic lives here. EnvPool 1.x's make_gym returns its gymnasium-API pool,
so make_gym is our make_gymnasium; envpool_lite.make_gym (the 4-tuple gym
API of EnvPool 0.6, which CleanRL's scripts use) is what `make(...,
env_type="gym")` gives. See README.md, "Differences from EnvPool".
"""

from envpool_lite import (  # noqa: F401
    DmEnvPool as DMEnvPool,
)
from envpool_lite import (
    EnvSpec,
    GymnasiumEnvPool,
    __version__,  # noqa: F401
    list_all_envs,
    make,
    make_dm,
    make_gymnasium,
    make_spec,
)
from envpool_lite import GymnasiumEnvPool as EnvPool  # noqa: F401
from envpool_lite import (
    make_gymnasium as make_gym,
)

# EnvPool's public names, in EnvPool's order, less `register` (envpool_lite
# has no registry to add tasks to).
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
