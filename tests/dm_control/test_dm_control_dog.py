"""The dog domain (stand, walk, trot, run, fetch) aligned with dm_control
1.0.50, bit for bit, through time limits and auto-resets."""

from __future__ import annotations

import pytest
from dm_control_alignment import assert_aligned


@pytest.mark.parametrize(
    "task_id, task",
    [
        ("DogStand-v1", "stand"),
        ("DogWalk-v1", "walk"),
        ("DogTrot-v1", "trot"),
        ("DogRun-v1", "run"),
        ("DogFetch-v1", "fetch"),
    ],
)
def test_dog_aligned_through_time_limits(task_id, task):
    # 0.3 s episodes of 20 control steps: three episodes and their
    # auto-resets (new headings, root velocities, actuator states; fetch: a
    # new ball throw).
    counts = assert_aligned(task_id, "dog", task, steps=65, time_limit=0.3)
    assert counts["truncated"] >= 3


def test_dog_fetch_longer_episode():
    """A longer fetch episode (the ball lands and rolls) from another seed."""
    counts = assert_aligned("DogFetch-v1", "dog", "fetch", steps=205, num_envs=1, seed=11, time_limit=1.5)
    assert counts["truncated"] >= 2


def test_dog_walk_full_episode_and_auto_reset():
    """The task's own 15 s limit (1000 control steps), then the next episode."""
    counts = assert_aligned("DogWalk-v1", "dog", "walk", steps=1003, num_envs=1, seed=7)
    assert counts["truncated"] == 1
