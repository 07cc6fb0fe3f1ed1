"""Meta-World's sliding tasks (plate-slide and its side, back and back-side
variants, sweep-into, sweep, soccer, stick-push, stick-pull) aligned step by
step with metaworld 3.1.1 on mujoco 3.3.0 (tests/metaworld/metaworld_alignment.py): every
observation element, reward and info field ==, through time-limit resets,
with both reward_function_versions."""

from __future__ import annotations

import pytest
from metaworld_alignment import run_aligned

TASKS = [
    "plate-slide-v3",
    "plate-slide-side-v3",
    "plate-slide-back-v3",
    "plate-slide-back-side-v3",
    "sweep-into-v3",
    "sweep-v3",
    "soccer-v3",
    "stick-push-v3",
    "stick-pull-v3",
]
STEPS = 30
LIMIT = 12


@pytest.mark.parametrize("task_id", TASKS)
def test_sliding_aligned_v2(task_id):
    counts = run_aligned(task_id, STEPS, num_envs=1, seed=7, max_episode_steps=LIMIT)
    assert counts["resets"] >= 2 and counts["truncated"] >= 2, counts
    assert counts["steps"] + counts["resets"] == STEPS, counts


@pytest.mark.parametrize("task_id", ["plate-slide-back-side-v3", "sweep-into-v3", "soccer-v3", "stick-push-v3", "stick-pull-v3"])
def test_sliding_aligned_v1(task_id):
    counts = run_aligned(task_id, STEPS, num_envs=1, seed=3, max_episode_steps=LIMIT, reward_function_version="v1")
    assert counts["resets"] >= 2, counts


def test_sliding_aligned_async():
    counts = run_aligned("sweep-v3", 24, num_envs=2, batch_size=1, seed=11, max_episode_steps=8)
    assert counts["resets"] >= 1, counts


def test_sliding_ids():
    import envpool_lite

    ids = set(envpool_lite.list_all_envs())
    for task_id in TASKS:
        if task_id not in ids:
            pytest.skip("the metaworld family is not built in")
    for name in (
        "MetaWorld/PlateSlide-v3",
        "MetaWorld/PlateSlideBackSide-v3",
        "MetaWorld/SweepInto-v3",
        "MetaWorld/Soccer-v3",
        "MetaWorld/StickPull-v3",
    ):
        assert name in ids
