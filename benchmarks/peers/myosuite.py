"""myosuite's own envs (task.peers["myosuite"]: its id), in their own
environment: system "myosuite_loop"."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from peers.common import ROOT, Config, Skip

if TYPE_CHECKING:
    from envpool_lite.families import BenchmarkTask

_MYOSUITE_LOOP = """
import contextlib, io, sys, time, warnings
import numpy as np
warnings.simplefilter("ignore")
with contextlib.redirect_stdout(io.StringIO()):
    import myosuite
    import gymnasium
name, steps = sys.argv[1], int(sys.argv[2])
with contextlib.redirect_stdout(io.StringIO()):
    env = gymnasium.make(name, seed=0)
    env.reset()
n = env.action_space.shape[0]
actions = np.random.default_rng(0).uniform(-1, 1, (1024, n)).astype(np.float32)
start = time.perf_counter()
with contextlib.redirect_stdout(io.StringIO()):
    for i in range(steps):
        _, _, term, trunc, _ = env.step(actions[i % 1024])
        if term or trunc:
            env.reset()
print(steps / (time.perf_counter() - start))
"""


def run_myosuite_loop(task: BenchmarkTask, cfg: Config, steps: int) -> float:
    """myosuite's own env (gymnasium.make(id), with its TimeLimit) in a
    Python for-loop, one env, on mujoco 3.6.0 from
    build/compat/myosuite_oracle (scripts/setup_compat.sh), in a subprocess:
    that MuJoCo and myosuite's gymnasium cannot be imported beside the
    venv's. The rate is measured inside the subprocess, without its start."""
    name = task.peers.get("myosuite", "")
    if not name:
        raise Skip("not a MyoSuite task")
    if cfg.num_envs != 1:
        raise Skip("a single env loop")
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"  # scripts/setup_compat.sh's folder for this Python
    root = ROOT / "build" / ("compat" if version == "3.11" else f"compat-{version}") / "myosuite_oracle"
    if not (root / "myosuite").is_dir():
        raise Skip(f"myosuite 2.12.2 not installed in {root} (bash scripts/setup_compat.sh)", missing=True)
    import subprocess

    env = dict(os.environ, PYTHONPATH=str(root), GIT_PYTHON_REFRESH="quiet")  # myosuite's GitPython, without git
    out = subprocess.run([sys.executable, "-c", _MYOSUITE_LOOP, name, str(steps)], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])
