"""Alignment of the humanoid, fish and humanoid_CMU domains with dm_control
1.0.50 (tests/dm_control/dm_control_alignment.py): every field equal, through time
limits and auto-resets."""

from __future__ import annotations

import pytest
from dm_control_alignment import assert_aligned

# (task id, domain, task, time limit: 40 control steps, or 25 for fish)
TASKS = [
    ("HumanoidStand-v1", "humanoid", "stand", 1.0),
    ("HumanoidWalk-v1", "humanoid", "walk", 1.0),
    ("HumanoidRun-v1", "humanoid", "run", 1.0),
    ("HumanoidRunPureState-v1", "humanoid", "run_pure_state", 1.0),
    ("FishUpright-v1", "fish", "upright", 1.0),
    ("FishSwim-v1", "fish", "swim", 1.0),
    ("HumanoidCMUStand-v1", "humanoid_CMU", "stand", 0.8),
    ("HumanoidCMUWalk-v1", "humanoid_CMU", "walk", 0.8),
    ("HumanoidCMURun-v1", "humanoid_CMU", "run", 0.8),
]


@pytest.mark.parametrize("task_id, domain, task, time_limit", TASKS)
def test_aligned_through_time_limits(task_id, domain, task, time_limit):
    counts = assert_aligned(task_id, domain, task, steps=85, time_limit=time_limit)
    assert counts["truncated"] >= 4


@pytest.mark.parametrize(
    "task_id, domain, task",
    [("HumanoidStand-v1", "humanoid", "stand"), ("HumanoidCMUWalk-v1", "humanoid_CMU", "walk")],
)
def test_zero_control(task_id, domain, task):
    """Zero actions: the control tolerance's in-bounds branch."""
    assert_aligned(task_id, domain, task, steps=30, time_limit=0.5, action_scale=0.0)


def test_fish_swim_full_episode_and_auto_reset():
    """fish's own 1000-step limit, then the next episode (the target moved
    by the reset's draw)."""
    counts = assert_aligned("FishSwim-v1", "fish", "swim", steps=1010, num_envs=1, seed=11)
    assert counts["truncated"] == 1
