"""get_state / set_state replay gymnasium-robotics' tasks bit for bit (tests/state_check.py)."""

import pytest
import state_check


@pytest.mark.parametrize(("task_id", "other_pool"), state_check.every_id("gymnasium_robotics"))
def test_every_id_restores(task_id, other_pool):
    state_check.check_roundtrip(task_id, other_pool=other_pool)


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_through_episode_ends(mode):
    # The time limit ends the episodes, the saved step's too; the picture
    # shows the goal.
    seen = state_check.check_roundtrip("FetchPickAndPlace-v4", k=4, m=10, options={"max_episode_steps": 4}, autoreset_mode=mode, render=True, other_pool=False)
    assert seen["dones"] >= 2 and seen["saved_at_end"]


def test_async_pool():
    # The maze's goal moves its target site in the model.
    state_check.check_async("PointMaze_UMaze-v3", recvs=30)
