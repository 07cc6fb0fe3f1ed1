"""Fetch (gymnasium-robotics 1.4.2): every id aligned step by step with
gymnasium-robotics' own env (tests/gymnasium_robotics/gymnasium_robotics_alignment.py), in sync and async
pools; the goal functions HER calls against the reference's; bad input."""

from __future__ import annotations

import numpy as np
import pytest
import scope

import envpool_lite
from envpool_lite.families import gymnasium_robotics as gr

pytest.importorskip("gymnasium_robotics")
from gymnasium_robotics_alignment import reference_env, run_aligned  # noqa: E402

pytestmark = [pytest.mark.skipif(not envpool_lite._core.MUJOCO_VERSION, reason="built without MuJoCo")]

FETCH_IDS = [t for t in envpool_lite.list_all_envs() if t.startswith("Fetch")]


def test_ids():
    tasks = ["Reach", "Push", "Slide", "PickAndPlace"]
    assert sorted(FETCH_IDS) == sorted(f"Fetch{t}{d}-{v}" for t in tasks for d in ("", "Dense") for v in ("v1", "v4"))
    assert gr.reference_id("FetchPushDense-v1") == "FetchPushDense-v4"


@pytest.mark.parametrize("task_id", FETCH_IDS)
def test_aligned(task_id):
    # A short time limit: several episodes (new goals, objects) per run.
    # Each env: 20 steps to the limit, then the reset step, over and over.
    batches, limit = scope.steps(45, full=300), 20
    counts = run_aligned(task_id, batches, num_envs=2, max_episode_steps=limit)
    episodes, rest = divmod(batches, limit + 1)
    assert counts["truncated"] == 2 * (episodes + (rest >= limit))
    assert counts["steps"] == 2 * (episodes * limit + min(rest, limit))


def test_aligned_default_limit_and_async():
    counts = run_aligned("FetchPickAndPlace-v4", 110, num_envs=3, batch_size=2, seed=3)
    assert counts["truncated"] >= 2
    counts = run_aligned("FetchReachDense-v4", 60, num_envs=1)
    assert counts["truncated"] == 1


def test_success_is_reported():
    """FetchReach with the action that moves the gripper towards the goal
    succeeds, and info["is_success"] and the sparse reward say so as the
    reference's do (the random runs above rarely reach a goal)."""

    def towards_goal(rng, space, n):
        return towards_goal.last

    pool = envpool_lite.make("FetchReach-v4", env_type="gymnasium", num_envs=1, seed=11)
    ref = reference_env("FetchReach-v4")
    obs, _ = pool.reset()
    ref_obs, _ = ref.reset(seed=11)
    successes = 0
    for _ in range(30):
        delta = (obs["desired_goal"][0] - obs["achieved_goal"][0]) * 10
        action = np.clip(np.append(delta, 0.0), -1, 1).astype(np.float32)
        obs, reward, _, _, info = pool.step(action[None])
        ref_obs, ref_reward, _, _, ref_info = ref.step(action)
        assert reward[0] == ref_reward and info["is_success"][0] == ref_info["is_success"]
        assert info["is_success"].dtype == np.float32
        for key in ref_obs:
            assert np.array_equal(obs[key][0], ref_obs[key])
        successes += int(info["is_success"][0])
    assert successes > 10


@pytest.mark.parametrize("task_id", ["FetchPush-v4", "FetchReachDense-v4"])
def test_compute_reward_matches_reference(task_id):
    pool = envpool_lite.make(task_id, env_type="gymnasium", num_envs=2)
    ref = reference_env(task_id)
    rng = np.random.default_rng(0)
    a = rng.normal(1.3, 0.05, (64, 3))
    b = a + rng.normal(0, 0.04, (64, 3))
    got = pool.compute_reward(a, b, {})
    want = ref.compute_reward(a, b, {})
    assert got.dtype == want.dtype and np.array_equal(got, want)
    assert pool.compute_reward(a[0], b[0], {}) == ref.compute_reward(a[0], b[0], {})
    # batched over several leading axes, as HER buffers hold them
    assert np.array_equal(pool.compute_reward(a.reshape(8, 8, 3), b.reshape(8, 8, 3), None), want.reshape(8, 8))
    assert np.array_equal(pool.compute_terminated(a, b, {}), np.zeros(64, bool))
    assert pool.compute_truncated(a[0], b[0], {}) is False
    # The reward of a step is compute_reward of its goals.
    pool.reset()
    obs, reward, *_ = pool.step(np.zeros((2, 4), np.float32))
    assert np.array_equal(pool.compute_reward(obs["achieved_goal"], obs["desired_goal"], {}), reward)
    with pytest.raises(ValueError, match="same shape"):
        pool.compute_reward(a, b[:3], {})
    with pytest.raises(ValueError, match="3 values"):
        pool.compute_reward(a[:, :2], b[:, :2], {})
    pool.close()


def test_spaces():
    pool = envpool_lite.make("FetchPush-v4", env_type="gymnasium", num_envs=2)
    ref = reference_env("FetchPush-v4")
    assert list(pool.single_observation_space.spaces) == ["achieved_goal", "desired_goal", "observation"]
    assert pool.single_observation_space == ref.observation_space
    assert pool.single_action_space == ref.action_space
    assert pool.spec.max_episode_steps == 50
    pool.close()


def test_bad_input():
    with pytest.raises(ValueError, match="reward_type"):
        envpool_lite.make("FetchReach-v4", reward_type="shaped")
    pool = envpool_lite.make("FetchReach-v4", env_type="gymnasium", num_envs=2)
    pool.reset()
    # Non-finite or misshapen actions raise, as in every family (finite
    # values beyond [-1, 1] are clipped, as the reference's step clips them:
    # test_aligned_beyond_bounds).
    with pytest.raises(ValueError, match="finite"):
        pool.step(np.array([[0, 0, np.nan, 0]] * 2, np.float32))
    with pytest.raises(ValueError):
        pool.step(np.zeros((2, 3), np.float32))
    obs, *_ = pool.step(np.zeros((2, 4), np.float32))  # still usable
    assert obs["observation"].shape == (2, 10)
    pool.close()


def test_aligned_beyond_bounds():
    counts = run_aligned("FetchPickAndPlace-v4", 30, num_envs=2, action_fn=lambda rng, space, n: rng.uniform(-3, 3, (n, 4)))
    assert counts["steps"] == 60
