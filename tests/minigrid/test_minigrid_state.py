"""get_state / set_state replay MiniGrid and BabyAI bit for bit (tests/state_check.py)."""

import pytest
import state_check


# max_steps (minigrid's own time limit) = k + 4: every id goes through a
# truncation and the reset after it within the replayed steps.
@pytest.mark.parametrize(("task_id", "other_pool"), state_check.every_id("minigrid"))
def test_every_id_restores(task_id, other_pool):
    state_check.check_roundtrip(task_id, options={"max_steps": 7}, other_pool=other_pool)


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_through_episode_ends(mode):
    # Dynamic obstacles: random actions bump into a ball or reach the time
    # limit; the render checks the picture after set_state.
    seen = state_check.check_roundtrip("MiniGrid-Dynamic-Obstacles-6x6-v0", k=4, m=60, options={"max_steps": 20}, autoreset_mode=mode, render=True)
    assert seen["dones"] >= 2


def test_babyai_through_episode_ends():
    # PutNext with the object carried from the start (its reset observation
    # still shows it on the floor), saved right after a reset.
    seen = state_check.check_roundtrip("BabyAI-PutNextS5N2Carrying-v0", k=0, m=40, options={"max_steps": 12}, render=True)
    assert seen["dones"] >= 2


@pytest.mark.parametrize("view", [{"rgb_img": True}, {"fully_obs": True, "agent_pov": True}])
def test_view_options(view):
    # The drawn and the fully observed images, and the agent's-view render.
    state_check.check_roundtrip("MiniGrid-DoorKey-8x8-v0", options={"max_steps": 7, **view}, render=True)


def test_async_pool():
    state_check.check_async("BabyAI-GoToSeq-v0", recvs=40, options={"max_steps": 15})
