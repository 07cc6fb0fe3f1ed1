"""trainers/dqn.py (highway-env's own DQN example on the pool): a short run
trains, and its pieces do what the script says. The learning result (the
example's 20,000 steps) is measured in trainers/README.md, not here."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from libcompat import NO_TORCH

torch = pytest.importorskip("torch", reason=NO_TORCH)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "trainers"))

import dqn  # noqa: E402


def test_epsilon_schedule():
    args = dqn.Args(total_timesteps=1000, exploration_fraction=0.1, exploration_final_eps=0.05)
    assert dqn.epsilon(args, 0) == 1.0
    assert dqn.epsilon(args, 50) == pytest.approx(0.525)
    assert dqn.epsilon(args, 100) == pytest.approx(0.05)
    assert dqn.epsilon(args, 900) == 0.05


def test_replay_buffer_wraps():
    buffer = dqn.ReplayBuffer(4, (2,))
    for k in range(6):
        buffer.add(np.full((1, 2), k, np.float32), np.array([k]), np.array([k], np.float32), np.full((1, 2), k + 1, np.float32), np.array([False]))
    assert buffer.full and sorted(buffer.actions.tolist()) == [2, 3, 4, 5]
    obs, act, rew, nxt, term = buffer.sample(64, np.random.default_rng(0))
    assert torch.equal(obs[:, 0], act.float()) and torch.equal(nxt[:, 0], act.float() + 1)


def test_short_run_trains_and_evaluates():
    result = dqn.train(dqn.Args(total_timesteps=300, learning_starts=100, num_envs=2, eval_episodes=2, threads=1))
    assert result["env_steps"] == 300 and result["eval_episodes"] == 2
    assert np.isfinite(result["eval_mean_return"])
