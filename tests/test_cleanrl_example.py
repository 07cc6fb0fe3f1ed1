"""A CleanRL-style PPO loop on the gym type runs and learns a little."""

import sys
from pathlib import Path

import numpy as np
import pytest
from libcompat import NO_TORCH

torch = pytest.importorskip("torch", reason=NO_TORCH)  # installed by scripts/setup.sh on Python 3.11
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "trainers"))

import cleanrl_ppo_gym  # noqa: E402


def test_cleanrl_ppo_on_gym_type_runs_and_improves():
    torch.set_num_threads(1)
    returns = cleanrl_ppo_gym.train(cleanrl_ppo_gym.Args(total_timesteps=40_960, num_envs=8, num_steps=128))
    assert len(returns) > 50
    # Random CartPole play averages ~22; PPO is clearly above that by now.
    assert np.mean(returns[-20:]) > 60
