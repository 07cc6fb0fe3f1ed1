"""The metaworld family itself: reach-v3 aligned with metaworld 3.1.1 on
mujoco 3.3.0 (tests/metaworld/metaworld_alignment.py), sync and async; two MuJoCo versions
in one process; the ids; options and errors. Each task's alignment is in
tests/test_metaworld_<part>.py."""

from __future__ import annotations

import numpy as np
import pytest
from metaworld_alignment import require_task, run_aligned

import envpool_lite
from envpool_lite import families
from envpool_lite.families import metaworld as mw

pytestmark = pytest.mark.skipif("metaworld" not in families.names(), reason="built without the metaworld family")


def test_reach_aligned_through_resets():
    counts = run_aligned("reach-v3", 95, num_envs=2, seed=7, max_episode_steps=30)
    assert counts["resets"] >= 4 and counts["truncated"] >= 4, counts


def test_reach_aligned_async_and_v1():
    counts = run_aligned("reach-v3", 60, num_envs=3, batch_size=2, seed=3, max_episode_steps=20)
    assert counts["resets"] >= 2, counts
    run_aligned("reach-v3", 30, num_envs=1, seed=11, reward_function_version="v1")


def test_envpool_ids_are_aliases():
    require_task("reach-v3")
    ids = [t for t in families.task_ids("metaworld") if not t.startswith("Meta-World/")]  # less the benchmark pools
    names = [t for t in ids if not t.startswith("MetaWorld/")]
    assert all(t.endswith("-v3") for t in ids)
    assert len(names) == 50 and len(ids) == 2 * len(names)
    assert len(families.task_ids("metaworld")) == 114
    assert "MetaWorld/Reach-v3" in ids
    a = envpool_lite.make("MetaWorld/Reach-v3", num_envs=1, seed=5)
    b = envpool_lite.make("reach-v3", num_envs=1, seed=5)
    assert np.array_equal(a.reset()[0], b.reset()[0])


def test_two_mujoco_versions_in_one_process():
    """reach-v3 on MuJoCo 3.3.0 (the package's own copy) and HalfCheetah-v5
    on the mujoco package's 3.17.0, made and stepped together."""
    if "mujoco" not in families.names():
        pytest.skip("built without the mujoco family")
    meta = envpool_lite.make("reach-v3", num_envs=2, seed=1)
    cheetah = envpool_lite.make("HalfCheetah-v5", num_envs=2, seed=1)
    meta.reset()
    cheetah.reset()
    for _ in range(5):
        meta.step(np.zeros((2, 4), np.float32))
        cheetah.step(np.zeros((2, 6), np.float32))
    with open("/proc/self/maps") as f:
        maps = f.read()
    assert f"libmujoco.so.{mw.MUJOCO_VERSION}" in maps
    assert "libmujoco.so.3.17.0" in maps
    meta.close()
    cheetah.close()


def test_spaces_and_spec():
    env = envpool_lite.make("reach-v3", env_type="gymnasium", num_envs=2)
    assert env.single_observation_space.shape == (39,) and env.single_observation_space.dtype == np.float64
    assert env.single_action_space.shape == (4,) and env.single_action_space.dtype == np.float32
    assert env.spec.max_episode_steps == 500
    assert env.spec.config["reward_function_version"] == "v2"
    obs, info = env.reset()
    assert set(info) >= {"success", "near_object", "grasp_success", "grasp_reward", "in_place_reward", "obj_to_target", "unscaled_reward"}
    env.close()


def test_bad_input():
    with pytest.raises(ValueError, match="reward_function_version"):
        envpool_lite.make("reach-v3", reward_function_version="v3")
    with pytest.raises(ValueError, match="max_episode_steps"):
        envpool_lite.make("reach-v3", max_episode_steps=501)
    env = envpool_lite.make("reach-v3", num_envs=2)
    env.reset()
    with pytest.raises(ValueError, match="finite"):
        env.step(np.array([[0, 0, np.nan, 0]] * 2, np.float32))
    with pytest.raises(ValueError):
        env.step(np.zeros((2, 3), np.float32))
    obs, *_ = env.step(np.zeros((2, 4), np.float32))  # still usable
    assert obs.shape == (2, 39)
    env.close()


def test_missing_metaworld_says_how_to_install(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "metaworld" else real(name, *a))
    with pytest.raises(ImportError, match="pip install --no-deps metaworld==3.1.1"):
        envpool_lite.make("reach-v3")
