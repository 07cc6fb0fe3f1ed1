"""Alignment with dm_control 1.0.50 of hopper, finger, ball_in_cup and
swimmer: every field equal step by step, through time limits and
auto-resets (tests/dm_control/dm_control_alignment.py)."""

from __future__ import annotations

import numpy as np
import pytest
from dm_control_alignment import assert_aligned

import envpool_lite


@pytest.mark.parametrize(
    "task_id, domain, task, time_limit",
    [
        ("HopperStand-v1", "hopper", "stand", 1.0),
        ("HopperHop-v1", "hopper", "hop", 1.0),
        ("FingerSpin-v1", "finger", "spin", 1.0),
        ("FingerTurnEasy-v1", "finger", "turn_easy", 1.0),
        ("FingerTurnHard-v1", "finger", "turn_hard", 1.0),
        ("BallInCupCatch-v1", "ball_in_cup", "catch", 1.0),
        ("SwimmerSwimmer6-v1", "swimmer", "swimmer6", 1.2),
        ("SwimmerSwimmer15-v1", "swimmer", "swimmer15", 1.2),
    ],
)
def test_aligned_through_time_limits(task_id, domain, task, time_limit):
    # 50 (40 for swimmer) steps an episode: two time limits and auto-resets.
    counts = assert_aligned(task_id, domain, task, steps=110, time_limit=time_limit)
    assert counts["truncated"] >= 4  # 2 envs x 2 episodes


def test_hopper_touch_is_exercised():
    """The touch observations (np.log1p of the touch sensors, numpy's own
    loop) are nonzero in the aligned runs above, so they are compared."""
    env = envpool_lite.make_dm("HopperStand-v1", num_envs=2, seed=3, task_kwargs={"time_limit": 1.0})
    env.reset()
    rng = np.random.default_rng(3)
    touched = False
    for _ in range(110):
        ts = env.step(rng.uniform(-1, 1, (2, 4)))
        touched |= bool(np.any(ts.observation.touch > 0))
    assert touched


def test_finger_turn_full_episode_and_auto_reset():
    """The task's own 1000-step limit, then the next episode (its target and
    its collision-free joint draws again)."""
    counts = assert_aligned("FingerTurnHard-v1", "finger", "turn_hard", steps=1010, num_envs=1, seed=11)
    assert counts["truncated"] == 1
