"""trainers/her_ddpg.py: HER's relabelling goes through the pool's
compute_reward, and a short run learns FetchReach (CPU)."""

import sys
from pathlib import Path

import numpy as np
import pytest
from libcompat import NO_TORCH

torch = pytest.importorskip("torch", reason=NO_TORCH)
pytest.importorskip("gymnasium_robotics")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "trainers"))

import her_ddpg  # noqa: E402

import envpool_lite  # noqa: E402


def test_relabelled_rewards_are_the_pools():
    args = her_ddpg.Args(num_envs=2, buffer_episodes=4)
    pool = envpool_lite.make("FetchReach-v4", env_type="gymnasium", num_envs=2, seed=0)
    calls = []

    def compute_reward(achieved, goal, info):
        calls.append(len(goal))
        return pool.compute_reward(achieved, goal, info)

    buffer = her_ddpg.EpisodeBuffer(args, 50, 10, 3, 4, compute_reward)
    agent = her_ddpg.Agent(args, 10, 3, 4)
    rng = np.random.default_rng(0)
    obs, ag, goal, action, _ = her_ddpg.run_episodes(pool, agent, 50, True, rng)
    buffer.add(obs, ag, goal, action)
    batch = buffer.sample(64, rng)
    assert calls == [64]
    assert batch["reward"].dtype == np.float32 and set(np.unique(batch["reward"])) <= {-1.0, 0.0}
    # some goals are relabelled to achieved ones: those have reward 0
    assert (batch["reward"] == 0).any()
    pool.close()


def test_learns_fetch_reach():
    torch.set_num_threads(1)
    result = her_ddpg.main(her_ddpg.Args(env_id="FetchReach-v4", cycles=15, threads=1))
    assert result["success"] >= 0.9, result
