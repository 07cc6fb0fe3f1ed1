"""vizdoom's own gymnasium env (task.peers["vizdoom"]: its id): system
"vizdoom_gym"."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np

from peers.common import CORES, Config, Skip, scratch_cwd, time_vector_env

if TYPE_CHECKING:
    from envpool_lite.families import BenchmarkTask


def run_vizdoom_gym(task: BenchmarkTask, cfg: Config, steps: int) -> float:
    """vizdoom's own gymnasium env (full-resolution screens, its own
    discrete actions, frame_skip as ours): one env in a Python loop for one
    env, else one env per subprocess in gymnasium's AsyncVectorEnv (it has no
    batch smaller than num_envs: every step steps all envs)."""
    vizdoom_id = task.peers.get("vizdoom")
    if vizdoom_id is None:
        raise Skip("not a ViZDoom task")
    if cfg.num_envs > 4 * CORES:
        raise Skip(f"{cfg.num_envs} subprocesses on {CORES} cores")
    try:
        import gymnasium
        import vizdoom.gymnasium_wrapper  # noqa: F401  (registers its envs)
    except Exception as e:
        raise Skip(f"vizdoom's gymnasium env not importable ({type(e).__name__})") from None
    kwargs = {"frame_skip": task.frame_skip}
    rng = np.random.default_rng(0)
    with scratch_cwd():  # its engines write _vizdoom files into the working directory
        if cfg.num_envs == 1:
            env = gymnasium.make(vizdoom_id, **kwargs)
            actions = rng.integers(0, env.action_space.n, size=1024).tolist()
            env.reset(seed=0)
            for i in range(10):
                env.step(actions[i])
            start = time.perf_counter()
            for i in range(steps):
                _, _, term, trunc, _ = env.step(actions[i % 1024])
                if term or trunc:
                    env.reset()
            rate = steps / (time.perf_counter() - start)
        else:
            env = gymnasium.make_vec(vizdoom_id, num_envs=cfg.num_envs, vectorization_mode="async", **kwargs)
            actions = [rng.integers(0, env.single_action_space.n, size=cfg.num_envs) for _ in range(64)]
            rate = time_vector_env(env, actions, cfg.num_envs, steps)
        env.close()
    return rate
