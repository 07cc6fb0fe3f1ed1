"""EnvPool itself (the test extra's 1.2.5 or 1.2.7), in the same send/recv
loop as envpool_lite: system "envpool", the ratios' reference. It makes the
task under its own id where that differs (task.peers["envpool"]: pgx's
games), with the task's options (not envpool_lite's own)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from peers.common import Config, Skip, run_pool_async, scratch_cwd

if TYPE_CHECKING:
    from envpool_lite.families import BenchmarkTask


def run_envpool(task: BenchmarkTask, cfg: Config, steps: int) -> float:
    import warnings

    # Imported here, not where the pool lives: an exception envpool's import
    # keeps would keep that frame, its pool and its engines alive.
    with warnings.catch_warnings():  # EnvPool's own space warnings
        warnings.simplefilter("ignore")
        try:
            import envpool
        except Exception as e:  # not installed, or broken on this Python
            raise Skip(f"envpool not importable ({type(e).__name__})") from None
    if task.options.get("from_pixels"):
        # Measured here: its make() aborts the process ("an OpenGL platform
        # library has not been loaded") where it has no GL context of its own.
        raise Skip("EnvPool 1.2.5's from_pixels aborts without an OpenGL context")
    envpool_id = task.peers.get("envpool") or task.make_id
    if envpool_id not in envpool.list_all_envs():
        raise Skip(f"EnvPool {getattr(envpool, '__version__', '')} has no {envpool_id}")
    with scratch_cwd(task.peers.get("vizdoom") is not None):  # its ViZDoom engines write _vizdoom files there
        return _run_envpool(envpool, task, cfg, steps)


def _run_envpool(envpool, task: BenchmarkTask, cfg: Config, steps: int) -> float:
    import warnings

    with warnings.catch_warnings():  # EnvPool's own space warnings
        warnings.simplefilter("ignore")
        env = envpool.make(task.peers.get("envpool") or task.make_id, env_type="gymnasium", num_envs=cfg.num_envs, batch_size=cfg.batch_size, num_threads=cfg.num_threads, seed=0, **task.options)
    try:
        return run_pool_async(env, task, cfg, steps)
    finally:
        env.close()
