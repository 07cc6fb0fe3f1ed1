"""get_state / set_state replay gymnasium's MuJoCo tasks bit for bit (tests/state_check.py)."""

import pytest
import state_check


@pytest.mark.parametrize(("task_id", "other_pool"), state_check.every_id("mujoco"))
def test_every_id_restores(task_id, other_pool):
    state_check.check_roundtrip(task_id, other_pool=other_pool)


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
@pytest.mark.parametrize("saved_at_end", [False, True])
def test_through_episode_ends(mode, saved_at_end):
    # InvertedPendulum falls (terminates) within ~10 steps under random
    # actions; saved_at_end: the time limit ends the episode at the saved step.
    limit = 4 if saved_at_end else 1000
    seen = state_check.check_roundtrip("InvertedPendulum-v5", k=4, m=40, options={"max_episode_steps": limit}, autoreset_mode=mode, render=True)
    assert seen["dones"] >= 2
    assert seen["saved_at_end"] == saved_at_end


def test_async_pool():
    state_check.check_async("HalfCheetah-v5", recvs=40)
