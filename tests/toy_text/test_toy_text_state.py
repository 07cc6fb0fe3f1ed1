"""get_state / set_state replay toy text bit for bit (tests/state_check.py)."""

import pytest
import state_check


@pytest.mark.parametrize(("task_id", "other_pool"), state_check.every_id("toy_text"))
def test_every_id_restores(task_id, other_pool):
    state_check.check_roundtrip(task_id, other_pool=other_pool)


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_through_episode_ends(mode):
    # FrozenLake ends by termination (a hole or the goal) within a few dozen random steps.
    seen = state_check.check_roundtrip("FrozenLake-v1", k=10, m=120, options={"max_episode_steps": 500}, autoreset_mode=mode)
    assert seen["dones"] >= 2


def test_async_pool():
    state_check.check_async("Blackjack-v1", recvs=40)
