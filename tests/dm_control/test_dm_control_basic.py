"""Alignment of the pendulum, acrobot, cartpole, point_mass and reacher
domains with dm_control 1.0.50 (tests/dm_control/dm_control_alignment.py): every
observation key, reward, discount and step type equal, through time limits
and auto-resets."""

from __future__ import annotations

import pytest
from dm_control_alignment import assert_aligned

# (task id, domain, task, time limit in seconds: about 50 control steps).
TASKS = [
    ("PendulumSwingup-v1", "pendulum", "swingup", 1.0),
    ("AcrobotSwingup-v1", "acrobot", "swingup", 0.5),
    ("AcrobotSwingupSparse-v1", "acrobot", "swingup_sparse", 0.5),
    ("CartpoleBalance-v1", "cartpole", "balance", 0.5),
    ("CartpoleBalanceSparse-v1", "cartpole", "balance_sparse", 0.5),
    ("CartpoleSwingup-v1", "cartpole", "swingup", 0.5),
    ("CartpoleSwingupSparse-v1", "cartpole", "swingup_sparse", 0.5),
    ("CartpoleTwoPoles-v1", "cartpole", "two_poles", 0.5),
    ("CartpoleThreePoles-v1", "cartpole", "three_poles", 0.5),
    ("PointMassEasy-v1", "point_mass", "easy", 1.0),
    ("PointMassHard-v1", "point_mass", "hard", 1.0),
    ("ReacherEasy-v1", "reacher", "easy", 1.0),
    ("ReacherHard-v1", "reacher", "hard", 1.0),
]


@pytest.mark.parametrize("task_id, domain, task, time_limit", TASKS)
def test_aligned_through_time_limits(task_id, domain, task, time_limit):
    counts = assert_aligned(task_id, domain, task, steps=120, num_envs=3, time_limit=time_limit)
    assert counts["truncated"] >= 6 and counts["terminated"] == 0


def test_cartpole_balance_small_actions():
    """Small actions keep the poles up for a while: the sparse reward's
    in-bounds branch (cart and pole both within their ranges) is taken."""
    assert_aligned("CartpoleBalanceSparse-v1", "cartpole", "balance_sparse", steps=100, time_limit=0.5, action_scale=0.05)


def test_pendulum_full_episode_and_auto_reset():
    """The task's own 1000-step limit (20 s), then the next episode."""
    counts = assert_aligned("PendulumSwingup-v1", "pendulum", "swingup", steps=1010, num_envs=1, seed=11)
    assert counts["truncated"] == 1
