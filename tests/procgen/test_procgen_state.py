"""get_state / set_state replay Procgen bit for bit (tests/state_check.py),
through procgen's own state serialization (its libenv's get_state and
set_state, as ProcgenGym3Env's)."""

import pytest
import state_check


@pytest.mark.parametrize(("task_id", "other_pool"), state_check.every_id("procgen"))
def test_every_id_restores(task_id, other_pool):
    state_check.check_roundtrip(task_id, other_pool=other_pool)


@pytest.mark.parametrize(("mode", "k"), [("next_step", 7), ("same_step", 5)])
def test_through_episode_ends(mode, k):
    # Dodgeball's random player is hit within a few dozen steps (env 0 at
    # step 7: under NEXT_STEP the state is saved on that terminal step, which
    # shows the frame before it again). render=True restores the 512x512
    # picture too, the terminal step's held one included.
    seen = state_check.check_roundtrip("DodgeballEasy-v0", k=k, m=100, options={"max_episode_steps": 1000}, autoreset_mode=mode, render=True)
    assert seen["dones"] >= 4
    if mode == "next_step":  # the held 64x64 and 512x512 frames were saved
        assert seen["bytes"] > 512 * 512 * 3


def test_level_timeout():
    # A level that runs out of time (Maze's 500 steps) is truncated, not
    # terminated: the env's count of the level's steps is restored too.
    seen = state_check.check_roundtrip("MazeEasy-v0", k=496, m=8, options={"max_episode_steps": 1000})
    assert seen["dones"] >= 1


def test_async_pool():
    state_check.check_async("CoinrunEasy-v0", recvs=30, options={"max_episode_steps": 12})
