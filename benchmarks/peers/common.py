"""What the peers' runners share: a runner's signature (a task, a setting
and a number of steps in, steps/s out), the Skip it raises when it cannot
run here, the random actions every system steps with, the send/recv loop of
the EnvPool-style pools, and the helpers of the peers that start engine
processes or step gymnasium's vector envs."""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import os
import tempfile
import time
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import numpy as np

if TYPE_CHECKING:
    from envpool_lite.families import BenchmarkTask

# EnvPool's and gymnasium's Box constructors warn about float32 bounds.
warnings.filterwarnings("ignore", message=".*precision lowered.*")

CORES = os.cpu_count() or 1
ROOT = Path(__file__).resolve().parents[2]  # the repository: build/compat/ holds the peers scripts/setup_compat.sh installs


# --- configurations ---------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Config:
    num_envs: int
    batch_size: int
    num_threads: int
    sweep: str = "point"  # which plot it belongs to: "threads", "envs" or "point"

    @property
    def mode(self) -> str:
        return "sync" if self.batch_size == self.num_envs else "async"

    def label(self) -> str:
        return f"envs={self.num_envs} batch={self.batch_size} threads={self.num_threads} ({self.mode})"


# --- systems: a runner takes (task, config, steps) and returns steps/s --------
Runner = Callable[["BenchmarkTask", Config, int], float]


class Skip(Exception):
    """A system that cannot run here (not installed, not applicable).
    missing: a dependency of a peer is not installed (always noted)."""

    def __init__(self, message: str, missing: bool = False):
        super().__init__(message)
        self.missing = missing


def action_space(task: BenchmarkTask):
    """The task's action space (one env), as envpool_lite's spec gives it
    (the same as EnvPool's and gymnasium's for the tasks here)."""
    import envpool_lite

    return envpool_lite.make_spec(task.make_id, num_envs=task.limit_envs, **task.options, **task.lite_options).action_space


def random_actions(task: BenchmarkTask, batch: int, rng: np.random.Generator, count: int = 64) -> list[np.ndarray]:
    """count batches of uniform random actions: int32 indices for a
    Discrete space, within the bounds for a Box, in its dtype (float32 for gymnasium's MuJoCo tasks, float64 for dm_control's, as both pools take them)."""
    space = action_space(task)
    if hasattr(space, "n"):
        return [rng.integers(0, space.n, size=batch).astype(np.int32) for _ in range(count)]
    return [rng.uniform(space.low, space.high, size=(batch, *space.shape)).astype(space.dtype) for _ in range(count)]


def run_pool_async(env, task: BenchmarkTask, cfg: Config, steps: int) -> float:
    """The EnvPool-style loop shared by envpool_lite and EnvPool: send the
    batch's actions, receive the next batch."""
    if task.peers.get("pgx"):
        return _run_pool_legal(env, task, cfg, steps)
    rng = np.random.default_rng(0)
    actions = random_actions(task, cfg.batch_size, rng)
    env.async_reset()
    env_id = env.recv()[-1]["env_id"]
    for i in range(max(20, steps // cfg.batch_size // 10)):  # warm-up
        env.send(actions[i % 64], env_id)
        env_id = env.recv()[-1]["env_id"]
    batches = max(1, steps // cfg.batch_size)
    start = time.perf_counter()
    for i in range(batches):
        env.send(actions[i % 64], env_id)
        env_id = env.recv()[-1]["env_id"]
    return batches * cfg.batch_size / (time.perf_counter() - start)


def _legal_actions(mask: np.ndarray, noise: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row of the mask (env, action):
    the legal action with the most uniform noise."""
    return np.argmax(mask * noise, axis=1).astype(np.int32)


def _run_pool_legal(env, task: BenchmarkTask, cfg: Config, steps: int) -> float:
    """run_pool_async for pgx's games: each batch's actions are drawn among
    the legal ones of the batch just received (info["legal_action_mask"],
    one row per env, the envs of info["env_id"])."""
    rng = np.random.default_rng(0)
    noise = [rng.random((cfg.batch_size, action_space(task).n), dtype=np.float32) for _ in range(16)]
    env.async_reset()
    info = env.recv()[-1]
    for i in range(max(20, steps // cfg.batch_size // 10)):  # warm-up
        env.send(_legal_actions(info["legal_action_mask"], noise[i % 16]), info["env_id"])
        info = env.recv()[-1]
    batches = max(1, steps // cfg.batch_size)
    start = time.perf_counter()
    for i in range(batches):
        env.send(_legal_actions(info["legal_action_mask"], noise[i % 16]), info["env_id"])
        info = env.recv()[-1]
    return batches * cfg.batch_size / (time.perf_counter() - start)


def time_vector_env(env, actions: list, num_envs: int, steps: int) -> float:
    """Steps/s of a gymnasium VectorEnv stepping every env each call, after a
    short warm-up."""
    env.reset(seed=0)
    for i in range(10):
        env.step(actions[i % len(actions)])
    batches = max(1, steps // num_envs)
    start = time.perf_counter()
    for i in range(batches):
        env.step(actions[i % len(actions)])
    return batches * num_envs / (time.perf_counter() - start)


@contextlib.contextmanager
def scratch_cwd(enabled: bool = True):
    """Run in a temporary working directory (ViZDoom peers' engines write
    _vizdoom/ and _vizdoom.ini into theirs)."""
    if not enabled:
        yield
        return
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        # EnvPool's engines, started at once in a fresh directory, race to
        # create it and die ("Failed to create ./_vizdoom/ directory: File
        # exists"), taking the process down.
        os.mkdir("_vizdoom")
        try:
            yield
        finally:
            os.chdir(cwd)
            gc.collect()  # EnvPool closes its engines when its pool is collected
            _wait_for_children_leaving(tmp)


def _wait_for_children_leaving(path: str, timeout: float = 5.0) -> None:
    """Engines closed by a peer may still be exiting (writing their ini)."""
    try:
        import psutil
    except ImportError:
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        busy = False
        for p in psutil.Process().children(recursive=True):
            try:
                busy = busy or p.cwd().startswith(path)
            except psutil.Error:
                pass
        if not busy:
            return
        time.sleep(0.05)
