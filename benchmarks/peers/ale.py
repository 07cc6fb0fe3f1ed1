"""ale-py's AtariVectorEnv (task.peers["ale_py"]: the ROM's id): system
"ale_vector"."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np

from peers.common import Config, Skip, random_actions

if TYPE_CHECKING:
    from envpool_lite.families import BenchmarkTask


def run_ale_vector(task: BenchmarkTask, cfg: Config, steps: int) -> float:
    """ale-py's AtariVectorEnv (ALE's own C++ thread pool, same batching and
    preprocessing settings), driven by the same send/recv loop."""
    game = task.peers.get("ale_py")
    if game is None:
        raise Skip("not an Atari task")
    try:
        from ale_py.vector_env import AtariVectorEnv
    except Exception as e:
        raise Skip(f"ale_py.vector_env not importable ({type(e).__name__})") from None
    env = AtariVectorEnv(
        game,
        cfg.num_envs,
        batch_size=cfg.batch_size,
        num_threads=cfg.num_threads,
        frameskip=task.frame_skip,
        stack_num=4,
        img_height=84,
        img_width=84,
        grayscale=True,
        maxpool=True,
        noop_max=30,
        use_fire_reset=True,
        episodic_life=False,
        reward_clipping=False,
        repeat_action_probability=0.0,
        max_num_frames_per_episode=27000 * task.frame_skip,
    )
    rng = np.random.default_rng(0)
    actions = random_actions(task, cfg.batch_size, rng)
    try:
        env.reset(seed=0)
        for i in range(max(20, steps // cfg.batch_size // 10)):  # warm-up
            env.send(actions[i % 64])
            env.recv()
        batches = max(1, steps // cfg.batch_size)
        start = time.perf_counter()
        for i in range(batches):
            env.send(actions[i % 64])
            env.recv()
        return batches * cfg.batch_size / (time.perf_counter() - start)
    finally:
        env.close()
