"""procgen's own gym3 vector env (task.peers["procgen"]: (game,
distribution mode)): system "procgen_gym3"."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

import numpy as np

from peers.common import ROOT, Config, Skip

if TYPE_CHECKING:
    from envpool_lite.families import BenchmarkTask


def run_procgen_gym3(task: BenchmarkTask, cfg: Config, steps: int) -> float:
    """procgen's own vector env, ProcgenGym3Env(num=num_envs) (its Python
    over its libenv.so, which steps every env in one C call on num_threads
    threads of its own; one env: no threads), from the official 0.10.7
    wheel that scripts/setup_compat.sh installs into build/compat. Sync only:
    every act() steps every env."""
    if not task.peers.get("procgen"):
        raise Skip("not a Procgen task")
    if cfg.batch_size != cfg.num_envs:
        raise Skip("sync only")
    root = ROOT / "build" / "compat" / "procgen_oracle"
    if not (root / "procgen" / "env.py").is_file():
        raise Skip(f"procgen 0.10.7 not installed in {root} (bash scripts/setup_compat.sh)", missing=True)
    if "procgen" not in sys.modules:  # procgen/env.py without procgen/__init__.py's gym registration
        import types

        sys.path.append(str(root))
        package = types.ModuleType("procgen")
        package.__path__ = [str(root / "procgen")]
        sys.modules["procgen"] = package
    from procgen.env import ProcgenGym3Env

    game, mode = task.peers["procgen"]
    threads = 0 if cfg.num_envs == 1 else cfg.num_threads
    env = ProcgenGym3Env(num=cfg.num_envs, env_name=game, distribution_mode=mode, rand_seed=0, num_threads=threads)
    rng = np.random.default_rng(0)
    actions = [rng.integers(0, 15, cfg.num_envs).astype(np.int32) for _ in range(64)]
    for i in range(10):
        env.act(actions[i])
        env.observe()
    batches = max(1, steps // cfg.num_envs)
    start = time.perf_counter()
    for i in range(batches):
        env.act(actions[i % 64])
        env.observe()
    rate = batches * cfg.num_envs / (time.perf_counter() - start)
    env.close()
    return rate
