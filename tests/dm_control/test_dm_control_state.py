"""get_state / set_state replay dm_control's tasks bit for bit (tests/state_check.py)."""

import pytest
import state_check


@pytest.mark.parametrize(("task_id", "other_pool"), state_check.every_id("dm_control"))
def test_every_id_restores(task_id, other_pool):
    state_check.check_roundtrip(task_id, other_pool=other_pool)


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_through_episode_ends(mode):
    # Escape draws a new terrain into the model at each reset (and uploads it
    # to the renderer): the picture after set_state must show the saved one.
    # The time limit ends the episodes, the saved step's too.
    seen = state_check.check_roundtrip("QuadrupedEscape-v1", k=4, m=10, options={"max_episode_steps": 4}, autoreset_mode=mode, render=True, other_pool=False)
    assert seen["dones"] >= 2 and seen["saved_at_end"]


@pytest.mark.parametrize(
    "options",
    [{"from_pixels": True, "frame_stack": 3, "img_height": 24, "img_width": 32}, {"frame_stack": 2}],
    ids=["pixel_frames", "state_frames"],
)
def test_stacked_frames(options):
    # The stacked frames (or states) are restored with the rest; one env
    # (drawing is slow), restored after it has stacked other frames.
    seen = state_check.check_roundtrip("CartpoleSwingup-v1", m=8, options={**options, "max_episode_steps": 5}, other_pool=False)
    assert seen["dones"] >= 2


def test_async_pool():
    state_check.check_async("CheetahRun-v1", recvs=30)
