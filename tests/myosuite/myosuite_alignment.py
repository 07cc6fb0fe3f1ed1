"""Step-by-step alignment of a MyoSuite pool with myosuite 2.12.2's own envs.

The reference runs on the mujoco myosuite pins (3.6.0) and a gymnasium below
1.3, which cannot share the venv with what the other families need:
scripts/setup_compat.sh installs them into build/compat/myosuite_oracle
(tests/compat/myosuite_oracle.txt), and tests/myosuite/myosuite_reference.py
steps the reference envs in a subprocess with that folder first on its path
(with numpy 2.3: tests/compat/myosuite_oracle.txt says why; the family's own
numpy loops are the venv's numpy 2.4).

The reference of env i of a pool seeded s is `gym.make(task_id, seed=s + i,
**options)` (myosuite seeds its generator at construction; reset(seed=...)
does not reseed it), with the pool's max_episode_steps, reset once and then
after each episode end. The pool (NEXT_STEP auto-reset) and the reference
take the same float32 actions; the action after an episode end is spent on
the reset on both sides. Compared with ==, every step: the observation
vector (float32), the reward, terminated, truncated, and the info fields
time, rwd_dense, rwd_sparse, solved, done, every obs_dict entry and every
rwd_dict term; at a reset the observation and the obs dict (myosuite's
reset computes no rewards: its rwd_dict is the last step's).
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from libcompat import COMPAT

import envpool_lite

ORACLE = COMPAT / "myosuite_oracle"
SCRIPT = Path(__file__).resolve().with_name("myosuite_reference.py")


def require_oracle() -> None:
    """Skips the calling test (fails it under CI) when the reference is not
    installed."""
    if not (ORACLE / "myosuite" / "__init__.py").is_file() or not (ORACLE / "mujoco" / "__init__.py").is_file():
        message = f"myosuite's reference (myosuite 2.12.2 on mujoco 3.6.0) is not installed in {ORACLE} (run: bash scripts/setup_compat.sh)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def reference(command: str, request: Any, timeout: float = 1500) -> Any:
    """Runs myosuite_reference.py `command` with `request` on its stdin."""
    # GIT_PYTHON_REFRESH=quiet: myosuite imports GitPython, which fails at
    # import where no git program is installed (the clean room).
    env = {**os.environ, "PYTHONPATH": str(ORACLE), "GIT_PYTHON_REFRESH": "quiet"}
    out = subprocess.run([sys.executable, str(SCRIPT), command], input=json.dumps(request), capture_output=True, text=True, timeout=timeout, env=env)
    if out.returncode != 0:
        raise AssertionError(f"the reference failed:\n{out.stderr[-4000:]}")
    return json.loads(out.stdout)


def actions_for(spec, num_envs: int, steps: int, seed: int, scale: float = 1.2) -> list[np.ndarray]:
    """Per env, `steps` float32 actions uniform over the action space
    widened by `scale` about its middle (out-of-bounds actions included:
    myosuite does not clip them)."""
    rng = np.random.default_rng(seed)
    low = spec.action_space.low.astype(np.float64)
    high = spec.action_space.high.astype(np.float64)
    mid, half = (low + high) / 2, (high - low) / 2 * scale
    return [(mid + half * rng.uniform(-1, 1, size=(steps, *low.shape))).astype(np.float32) for _ in range(num_envs)]


def _b64(a: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(a).tobytes()).decode()


def _array(text: str, dtype) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), dtype)


def run_pool(task_id: str, seed: int, actions: Sequence[np.ndarray], max_episode_steps: int | None, kwargs: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The pool's rows, per env, in the reference's format."""
    options = dict(kwargs)
    if max_episode_steps:
        options["max_episode_steps"] = max_episode_steps
    n = len(actions)
    env = envpool_lite.make_gymnasium(task_id, num_envs=n, seed=seed, **options)
    out: list[list[dict[str, Any]]] = [[] for _ in range(n)]

    def record(obs, info, reward=None, terminated=None, truncated=None):
        for i in range(n):
            row: dict[str, Any] = {
                "obs": obs[i],
                "elapsed_step": int(info["elapsed_step"][i]),
                "time": float(info["time"][i]),
                "rwd_dense": float(info["rwd_dense"][i]),
                "rwd_sparse": float(info["rwd_sparse"][i]),
                "solved": float(info["solved"][i]),
                "done": float(info["done"][i]),
                "obs_dict": {k: np.asarray(v[i], np.float64).reshape(-1) for k, v in info["obs_dict"].items()},
                "rwd_dict": {k: float(v[i]) for k, v in info["rwd_dict"].items()},
            }
            if reward is not None:
                row.update(reward=float(reward[i]), terminated=bool(terminated[i]), truncated=bool(truncated[i]))
            out[i].append(row)

    obs, info = env.reset()
    record(obs, info)
    for t in range(len(actions[0])):
        batch = np.stack([a[t] for a in actions])
        obs, reward, terminated, truncated, info = env.step(batch)
        record(obs, info, reward, terminated, truncated)
    env.close()
    return out


def compare(task_id: str, ours: list[list[dict[str, Any]]], theirs: list[list[dict[str, Any]]]) -> int:
    """Asserts every compared field equal; returns the rows compared."""
    rows = 0
    for i, (mine, ref) in enumerate(zip(ours, theirs)):
        assert len(mine) == len(ref), f"{task_id} env {i}: {len(mine)} rows, the reference {len(ref)}"
        for t, (a, b) in enumerate(zip(mine, ref)):
            where = f"{task_id} env {i} row {t}"
            reset = b.get("reset", False)
            assert (a["elapsed_step"] == 0) == reset, f"{where}: reset {a['elapsed_step'] == 0}, the reference {reset}"
            ref_obs = _array(b["obs"], np.float32)
            np.testing.assert_array_equal(a["obs"], ref_obs, err_msg=f"{where}: obs")
            assert set(a["obs_dict"]) >= {k for k in b["obs_dict"] if k != "time"}, f"{where}: obs_dict keys {sorted(a['obs_dict'])} vs {sorted(b['obs_dict'])}"
            for k, v in b["obs_dict"].items():
                ref_v = _array(v, np.float64)
                mine_v = np.asarray([a["time"]]) if k == "time" else a["obs_dict"][k]
                np.testing.assert_array_equal(mine_v, ref_v, err_msg=f"{where}: obs_dict[{k!r}]")
            if reset:
                rows += 1
                continue
            for key in ("reward", "terminated", "truncated", "time", "rwd_dense", "rwd_sparse", "solved", "done"):
                assert a[key] == b[key], f"{where}: {key} {a[key]!r}, the reference {b[key]!r}"
            assert set(a["rwd_dict"]) == set(b["rwd_dict"]), f"{where}: rwd_dict keys {sorted(a['rwd_dict'])} vs {sorted(b['rwd_dict'])}"
            for k, v in b["rwd_dict"].items():
                assert a["rwd_dict"][k] == v, f"{where}: rwd_dict[{k!r}] {a['rwd_dict'][k]!r}, the reference {v!r}"
            rows += 1
    return rows


def align(tasks: Sequence[dict[str, Any]]) -> int:
    """Runs each task ({"task_id", "seed", "num_envs", "steps",
    "max_episode_steps", "kwargs"}) on the pool and on the reference (all in
    one reference process) and compares them; returns the rows compared."""
    require_oracle()
    requests, ours = [], []
    for task in tasks:
        task_id = task["task_id"]
        kwargs = task.get("kwargs", {})
        spec = envpool_lite.make_spec(task_id, num_envs=1, **kwargs)
        actions = actions_for(spec, task.get("num_envs", 2), task["steps"], task.get("seed", 0) + 17)
        seed = task.get("seed", 0)
        ours.append(run_pool(task_id, seed, actions, task.get("max_episode_steps"), kwargs))
        requests.append(
            {
                "task_id": task_id.removeprefix("MyoSuite/"),
                "seeds": [seed + i for i in range(len(actions))],
                "actions": [[_b64(a) for a in env_actions] for env_actions in actions],
                "kwargs": task.get("reference_kwargs", kwargs),
                "max_episode_steps": task.get("max_episode_steps"),
                "numpy_global_seed": task.get("numpy_global_seed", False),
            }
        )
    results = reference("rollout", requests)
    rows = 0
    for task, mine, theirs in zip(tasks, ours, results):
        if isinstance(theirs, dict):
            raise AssertionError(f"{task['task_id']}: the reference failed: {theirs['error']}")
        rows += compare(task["task_id"], mine, theirs)
    return rows
