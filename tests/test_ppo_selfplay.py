"""trainers/ppo_selfplay.py: its per-player streams (GAE over a row's own
transitions) and a short self-play run on connect_four that already beats a
random player (the full run's figure is in trainers/README.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "trainers"))
import ppo_selfplay  # noqa: E402


def test_gae_skips_the_steps_a_row_did_not_act():
    """Row 0 acts at t = 0 and 2 (the game ends after 2); row 1 at t = 1 and
    3 (bootstrapped). A row's advantage chains only its own transitions."""
    valid = np.array([[1, 0], [0, 1], [1, 0], [0, 1]], bool)
    rewards = np.array([[0, 0], [0, 0], [1, 0], [0, 0]], np.float32)
    dones = np.array([[0, 0], [0, 0], [1, 0], [0, 0]], np.float32)
    values = np.array([[0.5, 0], [0, 0.2], [0.7, 0], [0, 0.4]], np.float32)
    adv = ppo_selfplay.gae(rewards, values, dones, valid, np.array([9.0, 0.6], np.float32), 0.9, 0.5)
    a2 = 1 - 0.7
    a0 = 0.9 * 0.7 - 0.5 + 0.9 * 0.5 * a2
    a3 = 0.9 * 0.6 - 0.4
    a1 = 0.9 * 0.4 - 0.2 + 0.9 * 0.5 * a3
    np.testing.assert_allclose(adv[valid], [a0, a1, a2, a3], rtol=1e-6)
    assert not adv[~valid].any()


def test_short_selfplay_beats_random():
    args = ppo_selfplay.Args(env_id="connect_four", num_envs=32, num_steps=64, total_timesteps=40_000, channels=0, eval_games=200, threads=1)
    result = ppo_selfplay.main(args)
    assert result["win_rate_vs_random"] >= 0.8, result
