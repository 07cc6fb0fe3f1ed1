"""Meta-World's articulated tasks (doors, locks, drawers, faucets, windows,
the lever and the dial) aligned step by step with metaworld 3.1.1 on mujoco
3.3.0 (tests/metaworld/metaworld_alignment.py): every observation element, reward and info
field ==, through time-limit resets, with both reward_function_versions."""

from __future__ import annotations

import pytest
from metaworld_alignment import run_aligned

TASKS = [
    "door-open-v3",
    "door-close-v3",
    "door-lock-v3",
    "door-unlock-v3",
    "drawer-open-v3",
    "drawer-close-v3",
    "faucet-open-v3",
    "faucet-close-v3",
    "window-open-v3",
    "window-close-v3",
    "lever-pull-v3",
    "dial-turn-v3",
]
STEPS = 24
LIMIT = 10


@pytest.mark.parametrize("task_id", TASKS)
def test_articulated_aligned_v2(task_id):
    counts = run_aligned(task_id, STEPS, num_envs=1, seed=7, max_episode_steps=LIMIT)
    assert counts["resets"] >= 2 and counts["truncated"] >= 2, counts
    assert counts["steps"] + counts["resets"] == STEPS, counts


# The v1 rewards (one reference run each: the test time is mostly the
# reference's start-up).
def test_articulated_aligned_v1():
    counts = run_aligned("door-lock-v3", STEPS, num_envs=1, seed=3, max_episode_steps=LIMIT, reward_function_version="v1")
    assert counts["resets"] >= 2, counts


def test_articulated_aligned_v1_async():
    counts = run_aligned("dial-turn-v3", 20, num_envs=2, batch_size=1, seed=11, max_episode_steps=8, reward_function_version="v1")
    assert counts["resets"] >= 1, counts


def test_articulated_ids():
    import envpool_lite

    ids = set(envpool_lite.list_all_envs())
    for task_id in TASKS:
        if task_id not in ids:
            pytest.skip("the metaworld family is not built in")
    for name in ("MetaWorld/DoorOpen-v3", "MetaWorld/DrawerClose-v3", "MetaWorld/LeverPull-v3", "MetaWorld/DialTurn-v3"):
        assert name in ids, name
