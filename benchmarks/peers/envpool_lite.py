"""envpool_lite itself: its pool in the send/recv loop (system
"envpool_lite"), and the single-thread limit, one env of the task stepped in
a tight C++ loop on one thread."""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING

from peers.common import Config, run_pool_async

if TYPE_CHECKING:
    from envpool_lite.families import BenchmarkTask


def run_envpool_lite(task: BenchmarkTask, cfg: Config, steps: int, num_workers: int = 0) -> float:
    import envpool_lite

    env = envpool_lite.make(
        task.make_id, env_type="gymnasium", num_envs=cfg.num_envs, batch_size=cfg.batch_size, num_threads=cfg.num_threads, seed=0,
        num_workers=num_workers, **task.options, **task.lite_options,
    )  # fmt: skip
    try:
        return run_pool_async(env, task, cfg, steps)
    finally:
        env.close()


def single_thread_limit(task: BenchmarkTask, repeats: int, steps: int) -> float:
    """Steps/s of one env in a tight C++ loop on one thread (envpool_lite's
    own env, no engine): the per-core limit of any pool. Median of repeats
    runs of steps steps (fps_tasks.limit_steps)."""
    import envpool_lite
    from envpool_lite import _core

    options = envpool_lite.make_spec(task.make_id, num_envs=task.limit_envs, **task.options, **task.lite_options).env_options

    def once() -> float:
        # Envs that differ by index (MT10's tasks): the rate of stepping each
        # in turn, the steps split evenly among them.
        seconds = sum(1 / _core.single_thread_steps_per_second(task.make_id, options, max(1, steps // task.limit_envs), i, i) for i in range(task.limit_envs))
        return task.limit_envs / seconds

    return statistics.median(once() for _ in range(repeats))
