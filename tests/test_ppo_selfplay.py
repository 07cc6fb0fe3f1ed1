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


@pytest.mark.parametrize(("past_opponents", "opponent_random"), [(0.0, 0.0), (0.25, 0.0), (1.0, 0.5)])
def test_short_selfplay_beats_random(past_opponents, opponent_random):
    """Pure self-play, the default share of past opponents, and every game
    against a past snapshot that plays half its moves at random (then only
    one seat of each game trains: a reward given to the wrong row would not
    learn)."""
    args = ppo_selfplay.Args(
        env_id="connect_four", num_envs=32, num_steps=64, total_timesteps=40_000, channels=0, eval_games=200, threads=1,
        past_opponents=past_opponents, opponent_random=opponent_random,
    )  # fmt: skip
    result = ppo_selfplay.main(args)
    assert result["win_rate_vs_random"] >= 0.8, result
    first, second = (tuple(map(int, result[k].split("/"))) for k in ("wins_first", "wins_second"))
    assert first[1] + second[1] == 200 and first[1] > 50 and second[1] > 50, result  # pgx draws who starts
    assert first[0] + second[0] == round(result["win_rate_vs_random"] * 200), result


def test_connect_four_tactics_finds_wins_in_every_direction():
    import connect_four_tactics

    board = np.zeros((6, 7), int)
    board[5, 0:3] = 1  # bottom row: 3 in a row, col 3 wins
    board[3:6, 6] = 1  # col 6: 3 stacked, col 6 wins
    board[5, 4], board[4, 5] = -1, -1
    assert connect_four_tactics.wins_at(board, 3) and connect_four_tactics.wins_at(board, 6)
    assert not connect_four_tactics.wins_at(board, 1) and not connect_four_tactics.wins_at(-board, 3)
    diagonal = np.zeros((6, 7), int)
    diagonal[5, 0], diagonal[4, 1], diagonal[3, 2] = 1, 1, 1
    diagonal[5, 1:4], diagonal[4, 2:4], diagonal[3, 3] = -1, -1, -1
    assert connect_four_tactics.wins_at(diagonal, 3)  # lands on (2, 3)
    assert not connect_four_tactics.wins_at(diagonal, 4)
    full = np.ones((6, 7), int)
    assert not connect_four_tactics.wins_at(full, 0)
