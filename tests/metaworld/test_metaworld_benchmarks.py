"""Meta-World's benchmarks as pools (cpp/envs/metaworld/benchmark.h):
MT1, MT10, MT25, MT50, ML1, ML10, ML25, ML45 (train and test) and the
one-goal envs (goal_observable, goal_hidden), step by
step against metaworld 3.1.1's own vector envs on mujoco 3.3.0
(tests/metaworld/metaworld_alignment.py run_benchmark_aligned): env i of a pool is sub-env
i mod B of metaworld's vector env seeded seed + i - (i mod B), every
observation element (goals, hidden goals, one-hot task ids), reward, flag and
info field ==, through time-limit resets, successes and task sampling."""

from __future__ import annotations

import numpy as np
import pytest
import scope
from metaworld_alignment import require_task, run_benchmark_aligned

import envpool_lite

STEPS = scope.steps(26, full=130)
LIMIT = 12
BENCHMARKS = [
    "Meta-World/MT1",
    "Meta-World/MT10",
    "Meta-World/MT25",
    "Meta-World/MT50",
    "Meta-World/ML1-train",
    "Meta-World/ML1-test",
    "Meta-World/ML10-train",
    "Meta-World/ML10-test",
    "Meta-World/ML25-train",
    "Meta-World/ML25-test",
    "Meta-World/ML45-train",
    "Meta-World/ML45-test",
    "Meta-World/goal_observable",
    "Meta-World/goal_hidden",
]


def toward_goal(obs: np.ndarray) -> np.ndarray:
    """A reach policy: the hand towards the observed goal."""
    action = np.zeros((len(obs), 4))
    action[:, :3] = np.clip((obs[:, 36:39] - obs[:, :3]) * 10, -1, 1)
    return action


def _check(counts, num_envs, steps=STEPS):
    assert counts["steps"] + counts["resets"] == num_envs * steps, counts
    assert counts["resets"] >= num_envs, counts


def test_mt10_two_copies_aligned():
    # Envs 0-9: metaworld's MT10 seeded 7; envs 10-19: seeded 17.
    _check(run_benchmark_aligned("Meta-World/MT10", STEPS, num_envs=20, seed=7, max_episode_steps=LIMIT), 20)


def test_mt10_async_aligned():
    counts = run_benchmark_aligned("Meta-World/MT10", 60, num_envs=10, batch_size=4, seed=3, max_episode_steps=LIMIT, num_threads=2)
    assert counts["truncated"] > 0 and counts["resets"] > 0, counts


def test_mt10_one_hot_and_success_aligned():
    # A reach policy: reach-v3 (env 0) succeeds and terminates its episodes
    # (terminate_on_success), the others run to the time limit.
    counts = run_benchmark_aligned("Meta-World/MT10", 60, num_envs=10, seed=5, policy=toward_goal, use_one_hot=True, terminate_on_success=True, max_episode_steps=50)
    assert counts["terminated"] >= 2 and counts["truncated"] >= 8, counts


@pytest.mark.parametrize(
    ("task_id", "num_envs", "options"),
    [
        ("Meta-World/MT1", 3, {"env_name": "push-v3"}),
        ("Meta-World/MT25", 25, {}),
        ("Meta-World/MT50", 50, {"reward_function_version": "v1"}),
        ("Meta-World/ML1-train", 4, {"env_name": "pick-place-v3", "meta_batch_size": 2}),
        ("Meta-World/ML1-test", 4, {"env_name": "reach-v3", "meta_batch_size": 2, "sample_tasks_on_reset": True}),
        ("Meta-World/ML10-train", 20, {"sample_tasks_on_reset": True}),
        ("Meta-World/ML10-test", 20, {"total_tasks_per_cls": 40}),
        ("Meta-World/ML25-train", 25, {"meta_batch_size": 25}),
        ("Meta-World/ML25-test", 5, {"meta_batch_size": 5, "sample_tasks_on_reset": True}),
        ("Meta-World/ML45-train", 45, {"meta_batch_size": 45}),
        ("Meta-World/ML45-test", 10, {"meta_batch_size": 10, "total_tasks_per_cls": 10, "sample_tasks_on_reset": True}),
        ("Meta-World/goal_observable", 2, {"env_name": "door-open-v3"}),
        ("Meta-World/goal_hidden", 2, {"env_name": "basketball-v3"}),
    ],
)
def test_benchmark_aligned(task_id, num_envs, options):
    steps = 14 if num_envs > 20 else STEPS
    _check(run_benchmark_aligned(task_id, steps, num_envs=num_envs, seed=11, max_episode_steps=6 if num_envs > 20 else LIMIT, **options), num_envs, steps)


def test_split_defaults():
    # make_ml_envs_test turns terminate_on_success on, the train split and MT
    # leave it off (terminations themselves: test_mt10_one_hot_and_success).
    require_task("Meta-World/MT10")
    want = {
        "Meta-World/MT10": ({}, False),
        "Meta-World/ML10-train": ({}, False),
        "Meta-World/ML10-test": ({"total_tasks_per_cls": 40}, True),
        "Meta-World/ML1-test": ({"env_name": "reach-v3", "total_tasks_per_cls": 40}, True),
    }
    for task_id, (options, on) in want.items():
        spec = envpool_lite.make_spec(task_id, num_envs=20, **options)
        assert spec.config["terminate_on_success"] is on, task_id


def test_ids_and_spaces():
    require_task("Meta-World/MT10")
    ids = set(envpool_lite.list_all_envs())
    assert set(BENCHMARKS) <= ids
    env = envpool_lite.make("Meta-World/MT10", env_type="gymnasium", num_envs=10, use_one_hot=True)
    space = env.single_observation_space
    assert space.shape == (49,) and space.dtype == np.float64
    assert np.all(space.low[39:] == 0) and np.all(space.high[39:] == 1)
    # The goal's bounds span the ten tasks' goal spaces.
    assert np.all(space.low[36:39] < space.high[36:39])
    obs, _ = env.reset()
    assert np.array_equal(obs[:, 39:], np.eye(10))
    env.close()
    env = envpool_lite.make("Meta-World/ML10-train", env_type="gymnasium", num_envs=20)
    space = env.single_observation_space
    assert space.shape == (39,) and np.all(space.low[36:] == 0) and np.all(space.high[36:] == 0)
    obs, _ = env.reset()
    assert np.all(obs[:, 36:] == 0)  # the goal hidden
    env.close()


def test_bad_input():
    require_task("Meta-World/MT10")
    with pytest.raises(ValueError, match="multiple of 10"):
        envpool_lite.make("Meta-World/MT10", num_envs=12)
    with pytest.raises(ValueError, match="multiple of 20"):
        envpool_lite.make("Meta-World/ML10-train", num_envs=10)
    with pytest.raises(ValueError, match="env_name' is required"):
        envpool_lite.make("Meta-World/MT1", num_envs=1)
    with pytest.raises(ValueError, match="not one of metaworld's 50"):
        envpool_lite.make("Meta-World/ML1-train", num_envs=20, env_name="reach-v2")
    with pytest.raises(ValueError, match="use_one_hot"):
        envpool_lite.make("Meta-World/MT1", num_envs=1, env_name="reach-v3", use_one_hot=True)
    with pytest.raises(ValueError, match="meta_batch_size"):
        envpool_lite.make("Meta-World/ML10-train", num_envs=15, meta_batch_size=15)
    with pytest.raises(ValueError, match="divide evenly"):
        envpool_lite.make("Meta-World/ML10-test", num_envs=20)
    with pytest.raises(ValueError, match="total_tasks_per_cls"):
        envpool_lite.make("Meta-World/ML10-train", num_envs=20, total_tasks_per_cls=51)
    with pytest.raises(TypeError, match="use_one_hot"):
        envpool_lite.make("Meta-World/ML10-train", num_envs=20, use_one_hot=True)
    env = envpool_lite.make("Meta-World/MT10", env_type="gymnasium", num_envs=10)
    env.reset()
    with pytest.raises(ValueError):
        env.step(np.full((10, 4), np.nan, np.float32))
    with pytest.raises(ValueError):
        env.step(np.zeros((10, 3), np.float32))
    obs, *_ = env.step(np.zeros((10, 4), np.float32))  # still usable
    assert obs.shape == (10, 39)
    env.close()
