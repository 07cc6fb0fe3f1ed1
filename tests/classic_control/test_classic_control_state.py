"""get_state / set_state replay classic control bit for bit (tests/state_check.py)."""

import pytest
import state_check


@pytest.mark.parametrize(("task_id", "other_pool"), state_check.every_id("classic_control"))
def test_every_id_restores(task_id, other_pool):
    state_check.check_roundtrip(task_id, other_pool=other_pool)


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_through_episode_ends(mode):
    # CartPole ends by termination under random actions within ~60 steps.
    seen = state_check.check_roundtrip("CartPole-v1", k=10, m=120, options={"max_episode_steps": 500}, autoreset_mode=mode, render=True)
    assert seen["dones"] >= 2


def test_async_pool():
    state_check.check_async("CartPole-v1", recvs=60, options={"max_episode_steps": 500})


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_saved_at_an_episode_end(mode):
    # The 6th step truncates (max_episode_steps=6): the saved row ends an
    # episode, and in same_step its final observation and info come back.
    seen = state_check.check_roundtrip("CartPole-v1", k=6, m=10, options={"max_episode_steps": 6}, autoreset_mode=mode)
    assert seen["saved_at_end"]
