"""metaworld's own envs (task.peers["metaworld"]: its env name, or a
benchmark: "MT10"), in their own environment: system "metaworld_loop"."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from peers.common import ROOT, Config, Skip

if TYPE_CHECKING:
    from envpool_lite.families import BenchmarkTask

_METAWORLD_LOOP = """
import sys, time, warnings
import numpy as np
warnings.simplefilter("ignore")
import metaworld
name, steps = sys.argv[1], int(sys.argv[2])
actions = np.random.default_rng(0).uniform(-1, 1, (1024, 4)).astype(np.float32)
if name.startswith("MT"):  # a benchmark: its vector env (auto-resets its envs)
    import gymnasium
    env = gymnasium.make_vec(f"Meta-World/{name}", vector_strategy="sync", seed=0)
    n = env.num_envs
    env.reset()
    start = time.perf_counter()
    for i in range(steps // n):
        env.step(np.resize(actions, (n, 4)))
    print((steps // n) * n / (time.perf_counter() - start))
    sys.exit(0)
env = metaworld.make_mt_envs(name, seed=0)
env.reset()
start = time.perf_counter()
for i in range(steps):
    _, _, term, trunc, _ = env.step(actions[i % 1024])
    if term or trunc:
        env.reset()
print(steps / (time.perf_counter() - start))
"""


def run_metaworld_loop(task: BenchmarkTask, cfg: Config, steps: int) -> float:
    """metaworld's own MT1 env in a Python for-loop (one env; MT10: its vector
    env of 10, gymnasium's SyncVectorEnv), on mujoco
    3.3.0 from build/compat/metaworld_oracle (scripts/setup_compat.sh), in
    a subprocess: that MuJoCo cannot be imported beside the venv's. The rate
    is measured inside the subprocess, without its start."""
    name = task.peers.get("metaworld", "")
    if not name:
        raise Skip("not a Meta-World task")
    if cfg.num_envs != (10 if name == "MT10" else 1):
        raise Skip("one vector env of the benchmark" if name == "MT10" else "a single env loop")
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"  # scripts/setup_compat.sh's folder for this Python
    root = ROOT / "build" / ("compat" if version == "3.11" else f"compat-{version}") / "metaworld_oracle"
    if not (root / "metaworld").is_dir():
        raise Skip(f"metaworld 3.1.1 not installed in {root} (bash scripts/setup_compat.sh)", missing=True)
    import subprocess

    env = dict(os.environ, PYTHONPATH=str(root))
    out = subprocess.run([sys.executable, "-c", _METAWORLD_LOOP, name, str(steps)], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])
