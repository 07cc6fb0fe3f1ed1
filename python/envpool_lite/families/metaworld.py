"""The metaworld family (cpp/envs/metaworld/): metaworld 3.1.1's v3 tasks,
bit-exact with metaworld on the MuJoCo it pins (3.3.0), while the other
MuJoCo families run on the mujoco package's version in the same process.

The C++ envs are built against MuJoCo 3.3.0's headers into a library of
their own (libenvpool_lite_metaworld.so) and load MuJoCo 3.3.0's library,
which the build fetched from the mujoco==3.3.0 wheel by name and put into
this package (envpool_lite/_mujoco/). The models and meshes are read from
the installed metaworld package, which is installed without its
dependencies (``pip install --no-deps metaworld==3.1.1``): its own
requirement, mujoco==3.3.0, would replace the mujoco the other families need,
and none of its Python runs here."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from envpool_lite import _core
from envpool_lite.families import BenchmarkTask, Family

if TYPE_CHECKING:
    pass

# The MuJoCo metaworld 3.1.1 pins, which the build fetches
# (CMakeLists.txt: envpool_lite_mujoco_version(3.3.0 ...)).
MUJOCO_VERSION = "3.3.0"
METAWORLD_VERSION = "3.1.1"
INSTALL = f"pip install --no-deps metaworld=={METAWORLD_VERSION}"


def library_path(task_id: str) -> str:
    """MuJoCo 3.3.0's library, inside this package (beside _core)."""
    here = os.path.dirname(os.path.abspath(_core.__file__))
    path = os.path.join(here, "_mujoco", f"libmujoco.so.{MUJOCO_VERSION}")
    if not os.path.exists(path):
        raise ImportError(f"{task_id}: this build of envpool_lite has no MuJoCo {MUJOCO_VERSION} ({path} is missing: the build could not fetch the mujoco=={MUJOCO_VERSION} wheel)")
    return path


def assets_dir(task_id: str) -> str:
    """metaworld's models and meshes (metaworld/assets), found without
    importing metaworld."""
    spec = importlib.util.find_spec("metaworld")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(
            f"{task_id} needs metaworld's models, and metaworld is not installed: {INSTALL} (without its dependencies: it pins mujoco=={MUJOCO_VERSION}, and envpool_lite brings that MuJoCo itself)",
            name="metaworld",
        )
    return os.path.join(list(spec.submodule_search_locations)[0], "assets")


# The benchmark pools (cpp/envs/metaworld/benchmark.h): their task counts.
MT_TASKS = {"Meta-World/MT1": 1, "Meta-World/MT10": 10, "Meta-World/MT25": 25, "Meta-World/MT50": 50, "Meta-World/goal_observable": 1, "Meta-World/goal_hidden": 1}


def benchmark_block(task_id: str, config: Mapping[str, Any]) -> int:
    """The sub-envs of one of metaworld's vector envs of a benchmark id: its
    task count for MT, meta_batch_size for ML."""
    return MT_TASKS[task_id] if task_id in MT_TASKS else int(config["meta_batch_size"])


def _block_reason(task_id: str) -> str:
    return "one per task" if task_id in MT_TASKS else "meta_batch_size"


class Metaworld(Family):
    internal_options = frozenset({"mujoco_model", "mujoco_assets", "mujoco_lib"})  # its own MuJoCo (above)
    needs = frozenset({"numpy_blas", "numpy_loops"})
    extra = "metaworld"
    # metaworld itself is installed with --no-deps (see above), so the extra
    # cannot name it: make() checks for it (assets_dir) and says how.
    requires: Mapping[str, str] = {}
    # Meta-World on MuJoCo 3.3.0 (what metaworld 3.1.1 pins): the peers are
    # EnvPool's port (its MetaWorld/<Task>-v3 ids, the same ids here) and
    # metaworld's own MT1 env in a loop, in its own environment. MT10 as one
    # pool (EnvPool has none): 10 envs (one per task) on 1 thread, and two
    # copies, 20 envs, async on 2 threads; the peer is metaworld's own MT10
    # vector env (gymnasium's SyncVectorEnv). Only in --full (and --tasks).
    benchmark_tasks = (
        *(
            BenchmarkTask(name, full=((1, 1, 1), (16, 8, 2)), steps=steps, limit_steps=steps, peers={"metaworld": env_name})
            for name, env_name, steps in (("MetaWorld/Reach-v3", "reach-v3", 32000), ("MetaWorld/PickPlace-v3", "pick-place-v3", 16000))
        ),
        BenchmarkTask("Meta-World/MT10", full=((10, 10, 1), (20, 10, 2)), steps=16000, limit_steps=16000, limit_envs=10, peers={"metaworld": "MT10"}),
    )

    def fill_internal(self, task_id: str, config: Mapping[str, Any], internal: dict[str, Any]) -> dict[str, Any]:
        assets = assets_dir(task_id)
        paths: dict[str, Any] = {}
        if "mujoco_assets" in internal:  # a benchmark pool: each env's task's model
            block = benchmark_block(task_id, config)
            if config["num_envs"] % block:
                raise ValueError(
                    f"{task_id}: num_envs must be a multiple of {block}, the sub-envs of one of metaworld's {task_id} vector envs ({_block_reason(task_id)}); got num_envs={config['num_envs']}"
                )
            paths["mujoco_assets"] = assets
        else:
            paths["mujoco_model"] = model = os.path.join(assets, internal["mujoco_model"])
            if not os.path.exists(model):
                raise FileNotFoundError(f"{task_id}: model file {model} does not exist (metaworld=={METAWORLD_VERSION} has it)")
        return {**internal, **paths, "mujoco_lib": library_path(task_id)}


family = Metaworld()
