"""The quadruped domain (walk, run, escape, fetch) aligned with dm_control
1.0.50, bit for bit, through time limits and auto-resets."""

from __future__ import annotations

import pytest
from dm_control_alignment import assert_aligned


@pytest.fixture(autouse=True)
def _no_rendering_context(monkeypatch):
    """Escape's initialize_episode re-uploads its new heightfield to the
    physics' rendering context, which dm_control creates on first use (an
    OpenGL context: none on a headless machine). Rendering is no part of the
    comparison: the reference runs without one."""
    from dm_control.suite import quadruped

    monkeypatch.setattr(quadruped.Physics, "contexts", property(lambda self: None))


@pytest.mark.parametrize(
    "task_id, task",
    [("QuadrupedWalk-v1", "walk"), ("QuadrupedRun-v1", "run"), ("QuadrupedEscape-v1", "escape"), ("QuadrupedFetch-v1", "fetch")],
)
def test_quadruped_aligned_through_time_limits(task_id, task):
    # 0.6 s episodes of 30 control steps: four episodes (escape: four random
    # terrains per env) and their auto-resets.
    counts = assert_aligned(task_id, "quadruped", task, steps=125, time_limit=0.6)
    assert counts["truncated"] >= 4


def test_quadruped_escape_other_seed():
    """More terrains (scipy.ndimage.zoom of random bumps) from other seeds."""
    counts = assert_aligned("QuadrupedEscape-v1", "quadruped", "escape", steps=45, num_envs=3, seed=1234, time_limit=0.2)
    assert counts["truncated"] >= 4


def test_quadruped_walk_full_episode_and_auto_reset():
    """The task's own 20 s limit (1000 steps), then the next episode."""
    counts = assert_aligned("QuadrupedWalk-v1", "quadruped", "walk", steps=1005, num_envs=1, seed=7)
    assert counts["truncated"] == 1
