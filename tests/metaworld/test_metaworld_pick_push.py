"""Meta-World's pick and push tasks (cpp/envs/metaworld/push.h,
pick_place.h, pick_out_of_hole.h, reach_wall.h, shelf_place.h,
bin_picking.h, hand_insert.h) step by step against metaworld 3.1.1 on mujoco
3.3.0 (tests/metaworld/metaworld_alignment.py): every observation element, reward and info
field ==, through time-limit resets (each env's goal drawn again), with both
reward_function_versions."""

from __future__ import annotations

import pytest
from metaworld_alignment import run_aligned

TASKS = [
    "push-v3",
    "push-wall-v3",
    "push-back-v3",
    "pick-place-v3",
    "pick-place-wall-v3",
    "pick-out-of-hole-v3",
    "reach-wall-v3",
    "shelf-place-v3",
    "bin-picking-v3",
    "hand-insert-v3",
]
STEPS = 24
LIMIT = 10


@pytest.mark.parametrize("task_id", TASKS)
def test_pick_push_aligned(task_id):
    counts = run_aligned(task_id, STEPS, num_envs=1, seed=7, max_episode_steps=LIMIT)
    assert counts["resets"] == 2 and counts["truncated"] == 2, counts
    assert counts["steps"] + counts["resets"] == STEPS, counts


@pytest.mark.parametrize("task_id", ["push-back-v3", "pick-out-of-hole-v3", "bin-picking-v3", "hand-insert-v3"])
def test_pick_push_aligned_v1(task_id):
    # metaworld's original rewards (reward_function_version="v1").
    counts = run_aligned(task_id, STEPS, num_envs=1, seed=3, max_episode_steps=LIMIT, reward_function_version="v1")
    assert counts["resets"] == 2, counts


def test_pick_push_aligned_two_envs_async():
    counts = run_aligned("shelf-place-v3", 24, num_envs=2, batch_size=1, seed=11, max_episode_steps=8)
    assert counts["resets"] >= 1, counts


def test_pick_push_ids():
    import envpool_lite

    ids = set(envpool_lite.list_all_envs())
    for task_id in TASKS:
        if task_id not in ids:
            pytest.skip("the metaworld family is not built in")
    for name in (
        "MetaWorld/Push-v3",
        "MetaWorld/PushWall-v3",
        "MetaWorld/PushBack-v3",
        "MetaWorld/PickPlace-v3",
        "MetaWorld/PickPlaceWall-v3",
        "MetaWorld/PickOutOfHole-v3",
        "MetaWorld/ReachWall-v3",
        "MetaWorld/ShelfPlace-v3",
        "MetaWorld/BinPicking-v3",
        "MetaWorld/HandInsert-v3",
    ):
        assert name in ids
