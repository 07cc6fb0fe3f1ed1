"""Meta-World's button, coffee machine and handle tasks (cpp/envs/metaworld/
button_press.h, coffee.h, handle.h) step by step against metaworld 3.1.1 on
mujoco 3.3.0 (tests/metaworld/metaworld_alignment.py): every observation element, reward and
info field equal, through time-limit resets (each env's goal drawn again)."""

from __future__ import annotations

import pytest
from metaworld_alignment import run_aligned

TASKS = [
    "button-press-topdown-v3",
    "button-press-topdown-wall-v3",
    "button-press-v3",
    "button-press-wall-v3",
    "coffee-button-v3",
    "coffee-pull-v3",
    "coffee-push-v3",
    "handle-press-side-v3",
    "handle-press-v3",
    "handle-pull-side-v3",
    "handle-pull-v3",
]
STEPS = 24
LIMIT = 10


@pytest.mark.parametrize("task_id", TASKS)
def test_aligned(task_id):
    counts = run_aligned(task_id, STEPS, num_envs=1, max_episode_steps=LIMIT)
    assert counts["resets"] == 2 and counts["truncated"] == 2, counts


def test_aligned_v1_two_envs():
    # metaworld's original rewards (reward_function_version="v1"), two envs.
    counts = run_aligned("coffee-pull-v3", STEPS, num_envs=2, seed=3, max_episode_steps=LIMIT, reward_function_version="v1")
    assert counts["resets"] == 4 and counts["truncated"] == 4, counts
