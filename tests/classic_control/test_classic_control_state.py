"""get_state / set_state replay classic control bit for bit (tests/state_check.py)."""

import pytest
import state_check

import envpool_lite

IDS = envpool_lite.families.task_ids("classic_control")


@pytest.mark.parametrize("task_id", IDS)
def test_every_id_restores(task_id):
    state_check.check_roundtrip(task_id)


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_through_episode_ends(mode):
    # CartPole ends by termination under random actions within ~60 steps.
    seen = state_check.check_roundtrip("CartPole-v1", k=10, m=120, options={"max_episode_steps": 500}, autoreset_mode=mode, render=True)
    assert seen["dones"] >= 2


def test_async_pool():
    state_check.check_async("CartPole-v1", recvs=60, options={"max_episode_steps": 500})
