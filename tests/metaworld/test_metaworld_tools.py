"""Meta-World's tools tasks (assembly, disassemble, peg-insert-side,
peg-unplug-side, hammer, basketball, box-close) aligned step by step with
metaworld 3.1.1 on mujoco 3.3.0 (tests/metaworld/metaworld_alignment.py): every observation
element, reward and info field ==, through time-limit resets, with both
reward_function_versions."""

from __future__ import annotations

import pytest
from metaworld_alignment import run_aligned

TASKS = [
    "assembly-v3",
    "disassemble-v3",
    "peg-insert-side-v3",
    "peg-unplug-side-v3",
    "hammer-v3",
    "basketball-v3",
    "box-close-v3",
]
STEPS = 30
LIMIT = 12


@pytest.mark.parametrize("task_id", TASKS)
def test_tools_aligned_v2(task_id):
    counts = run_aligned(task_id, STEPS, num_envs=1, seed=7, max_episode_steps=LIMIT)
    assert counts["resets"] >= 2 and counts["truncated"] >= 2, counts
    assert counts["steps"] + counts["resets"] == STEPS, counts


@pytest.mark.parametrize("task_id", ["hammer-v3", "basketball-v3"])
def test_tools_aligned_v1(task_id):
    counts = run_aligned(task_id, STEPS, num_envs=1, seed=3, max_episode_steps=LIMIT, reward_function_version="v1")
    assert counts["resets"] >= 2, counts


def test_tools_aligned_async():
    counts = run_aligned("peg-insert-side-v3", 24, num_envs=2, batch_size=1, seed=11, max_episode_steps=8)
    assert counts["resets"] >= 1, counts


def test_tools_ids():
    import envpool_lite

    ids = set(envpool_lite.list_all_envs())
    for task_id in TASKS:
        if task_id not in ids:
            pytest.skip("the metaworld family is not built in")
    for name in ("MetaWorld/Assembly-v3", "MetaWorld/PegInsertSide-v3", "MetaWorld/BoxClose-v3"):
        assert name in ids
