"""gymnasium's own envs, the reference implementations (task.peers
["gymnasium"]: gymnasium.make's id, "module:id" for an id that a module
registers on import): one env in a Python for-loop (system
"gymnasium_loop"), and gymnasium's SyncVectorEnv and AsyncVectorEnv
("gymnasium_sync", "gymnasium_async"). Atari's envs (task.peers["ale_py"])
are wrapped in AtariPreprocessing + FrameStackObservation with EnvPool's
settings."""

from __future__ import annotations

import importlib
import sys
import time
from typing import TYPE_CHECKING

import numpy as np

from peers.common import CORES, ROOT, Config, Skip, random_actions, time_vector_env

if TYPE_CHECKING:
    from envpool_lite.families import BenchmarkTask

#: Where scripts/setup_compat.sh installs the references that cannot live
#: beside envpool_lite, by module: build/compat/<group>. A module not here
#: is imported from this environment (its family's extra installs it).
COMPAT_GROUPS = {"minigrid": "minigrid_oracle", "highway_env": "highway_oracle"}


def _gymnasium_atari_wrappers() -> list:
    """gymnasium's Atari preprocessing with EnvPool's settings (frame_skip
    done by the wrapper on a frameskip=1 env, as gymnasium requires)."""
    try:
        import cv2  # noqa: F401  (AtariPreprocessing needs it)
    except ImportError:
        raise Skip("opencv not installed (gymnasium's AtariPreprocessing needs it)") from None
    import gymnasium

    return [
        lambda e: gymnasium.wrappers.AtariPreprocessing(e, noop_max=30, frame_skip=4, screen_size=84, terminal_on_life_loss=False, grayscale_obs=True),
        lambda e: gymnasium.wrappers.FrameStackObservation(e, 4),
    ]


def _gymnasium_id(task: BenchmarkTask) -> str | None:
    """The id to make (without the module of a "module:id")."""
    reference = task.peers.get("gymnasium")
    return None if reference is None else reference.rpartition(":")[2]


def _gymnasium_kwargs(task: BenchmarkTask) -> dict:
    """Registers the reference's ids (importing the module of a "module:id")
    and returns gymnasium.make's keyword arguments for the task."""
    module = task.peers["gymnasium"].rpartition(":")[0]
    if module and module not in COMPAT_GROUPS:
        # A reference installed beside envpool_lite (its family's extra),
        # registered with gymnasium (and runnable on this MuJoCo).
        import gymnasium

        try:
            gymnasium.register_envs(importlib.import_module(module))
        except ImportError:
            raise Skip(f"{module} not installed", missing=True) from None
        if module == "gymnasium_robotics":
            from envpool_lite.families.gymnasium_robotics import patch_reference

            patch_reference()
    elif module:
        root = ROOT / "build" / "compat" / COMPAT_GROUPS[module]
        if not root.is_dir():
            raise Skip(f"{module} not installed in {root} (bash scripts/setup_compat.sh)", missing=True)
        if str(root) not in sys.path:
            sys.path.append(str(root))
        importlib.import_module(module)
    if task.peers.get("ale_py") is None:
        return {}
    import ale_py
    import gymnasium

    gymnasium.register_envs(ale_py)
    return {"frameskip": 1, "repeat_action_probability": 0.0, "full_action_space": False}


def run_gymnasium_loop(task: BenchmarkTask, cfg: Config, steps: int) -> float:
    """One gymnasium env in a Python for-loop (only meaningful for one env)."""
    gymnasium_id = _gymnasium_id(task)
    if gymnasium_id is None:
        raise Skip("no gymnasium implementation")
    if cfg.num_envs != 1:
        raise Skip("a single env loop")
    import gymnasium

    env = gymnasium.make(gymnasium_id, **_gymnasium_kwargs(task))
    if task.peers.get("ale_py") is not None:
        for wrap in _gymnasium_atari_wrappers():
            env = wrap(env)
    rng = np.random.default_rng(0)
    single = random_actions(task, 1024, rng, count=1)[0]  # one env's 1024 actions
    actions = single.tolist() if single.ndim == 1 else list(single)  # ints, or float32 arrays
    env.reset(seed=0)
    start = time.perf_counter()
    for i in range(steps):
        _, _, term, trunc, _ = env.step(actions[i % 1024])
        if term or trunc:
            env.reset()
    rate = steps / (time.perf_counter() - start)
    env.close()
    return rate


def run_gymnasium_vector(mode: str, task: BenchmarkTask, cfg: Config, steps: int) -> float:
    """gymnasium's vector env of the task, "sync" (SyncVectorEnv) or "async"
    (AsyncVectorEnv: a subprocess per env); every call steps every env."""
    gymnasium_id = _gymnasium_id(task)
    if gymnasium_id is None:
        raise Skip("no gymnasium implementation")
    if cfg.batch_size != cfg.num_envs:
        raise Skip("sync only")
    if cfg.num_envs == 1:
        raise Skip("one env: see gymnasium_loop")
    if mode == "async" and cfg.num_envs > 4 * CORES:
        raise Skip(f"{cfg.num_envs} subprocesses on {CORES} cores")
    import gymnasium

    wrappers = _gymnasium_atari_wrappers() if task.peers.get("ale_py") is not None else None
    env = gymnasium.make_vec(gymnasium_id, num_envs=cfg.num_envs, vectorization_mode=mode, wrappers=wrappers, **_gymnasium_kwargs(task))
    rng = np.random.default_rng(0)
    actions = random_actions(task, cfg.num_envs, rng)
    rate = time_vector_env(env, actions, cfg.num_envs, steps)
    env.close()
    return rate
