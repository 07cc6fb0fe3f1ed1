"""The pgx family's adapter and the core's players, on tic_tac_toe (each
game's own alignment runs are in tests/pgx/test_pgx_<game>.py): pgx 2.6.0
beside our pool with == (tests/pgx/pgx_alignment.py), the seed convention,
pgx's rule for illegal moves, max_num_players, and the batch's shapes."""

from __future__ import annotations

import numpy as np
import pytest
from pgx_alignment import run

import envpool_lite


@pytest.mark.parametrize("task_id", ["tic_tac_toe", "TicTacToe-v1"])
@pytest.mark.parametrize("seed", [0, 123])
def test_tic_tac_toe_exact(task_id, seed):
    counts = run(task_id, "tic_tac_toe", num_envs=8, steps=150, seed=seed, illegal=0.05)
    assert counts["ended"] > 100 and counts["illegal"] > 10


def test_batch_shapes_and_spaces():
    env = envpool_lite.make_gymnasium("tic_tac_toe", num_envs=3)
    try:
        assert env.spec.num_players == 2 and env.spec.config["max_num_players"] == 2
        assert env.single_observation_space.shape == (2, 3, 3, 2)
        assert env.single_action_space.n == 9
        obs, info = env.reset()
        assert obs.shape == (3, 2, 3, 3, 2) and obs.dtype == np.bool_
        assert info["current_player"].shape == (3,) and info["legal_action_mask"].shape == (3, 9)
        _, reward, terminated, truncated, _ = env.step(np.zeros(3, np.int32))
        assert reward.shape == (3, 2) and reward.dtype == np.float32
        assert terminated.shape == truncated.shape == (3,)
    finally:
        env.close()


def test_illegal_move_is_a_loss_for_the_mover():
    """pgx's rule: an action outside legal_action_mask is played, then the
    game ends with -1 for the mover and +1 for the other."""
    env = envpool_lite.make_gymnasium("tic_tac_toe", num_envs=1, seed=5)
    try:
        _, info = env.reset()
        first = int(info["current_player"][0])
        env.step(np.array([4], np.int32))
        _, reward, terminated, _, info = env.step(np.array([4], np.int32))  # cell 4 again
        assert terminated[0]
        expected = np.full(2, 1.0, np.float32)
        expected[1 - first] = -1.0
        np.testing.assert_array_equal(reward[0], expected)
        assert info["legal_action_mask"].all()  # a finished game's mask, as pgx's
        # The next step starts a new game (its action is ignored).
        _, reward, terminated, _, info = env.step(np.array([0], np.int32))
        assert not terminated[0] and not reward.any() and info["elapsed_step"][0] == 0
    finally:
        env.close()


def test_seed_convention():
    """Env i of a pool seeded s is env 0 of a pool seeded s + i."""
    a = envpool_lite.make_gymnasium("tic_tac_toe", num_envs=4, seed=10)
    b = envpool_lite.make_gymnasium("tic_tac_toe", num_envs=1, seed=13)
    try:
        _, ia = a.reset()
        _, ib = b.reset()
        assert ia["current_player"][3] == ib["current_player"][0]
        # Different seeds start different players somewhere in 64 envs.
        c = envpool_lite.make_gymnasium("tic_tac_toe", num_envs=64, seed=0)
        _, ic = c.reset()
        assert 0 < ic["current_player"].sum() < 64
        c.close()
    finally:
        a.close()
        b.close()


def test_max_num_players():
    assert envpool_lite.make_spec("tic_tac_toe", max_num_players=2).config["max_num_players"] == 2
    for bad in (1, 3):
        with pytest.raises(ValueError, match="max_num_players must be 2 for tic_tac_toe"):
            envpool_lite.make_spec("tic_tac_toe", max_num_players=bad)
    with pytest.raises(ValueError, match="max_num_players must be 1 for CartPole-v1"):
        envpool_lite.make_spec("CartPole-v1", max_num_players=2)


def test_out_of_range_action_is_refused_and_pool_goes_on():
    env = envpool_lite.make_gymnasium("tic_tac_toe", num_envs=2)
    try:
        env.reset()
        with pytest.raises(ValueError):
            env.step(np.array([9, 0], np.int32))
        env.step(np.array([0, 0], np.int32))
    finally:
        env.close()


def test_dm_face_reward_has_the_player_axis():
    env = envpool_lite.make_dm("connect_four", num_envs=2)
    try:
        assert env.reward_spec().shape == (2,)
        ts = env.reset()
        assert ts.observation.obs.shape == (2, 2, 6, 7, 2)
        ts = env.step(np.array([3, 3], np.int32))
        assert ts.reward.shape == (2, 2) and ts.reward.dtype == env.reward_spec().dtype
        assert env.spec.state_array_spec["reward"].shape == [2]
    finally:
        env.close()
