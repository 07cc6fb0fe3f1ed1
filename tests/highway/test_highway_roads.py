"""highway-env's road tasks bit-exact with highway-env 1.12.1: merge-v0,
merge-v1, merge-generic-v0, merge-generic-v1, roundabout-v0, roundabout-v1,
roundabout-generic-v0, roundabout-generic-v1, two-way-v0 (with its 15-step
TimeLimit), u-turn-v0, u-turn-v1, exit-v0 and exit-v1, and EnvPool's names
Merge-v0, Roundabout-v0, TwoWay-v0, UTurn-v0 and Exit-v0.

Every id runs beside highway-env through crashes, arrivals (merge's end of
the ramp), time limits and auto-resets (tests/highway/highway_alignment.py says what is
compared: every observation, reward, terminated, truncated and info field,
with ==); exit's goal (the exit lane and ramp) on a scripted policy;
then a sample of non-default configs: other observation types
(OccupancyGrid, Kinematics, TimeToCollision), action types (DiscreteAction,
ContinuousAction), other_vehicles_type, and each task's own keys
(merge-generic's lanes and section lengths, roundabout's
incoming_vehicle_destination, roundabout-generic's radius and lane count,
exit's lanes_count, duration, normalize_reward, policy_frequency).
EnvPool's names are checked against the lowercase ids, step by step.
"""

from __future__ import annotations

import numpy as np
import pytest
from highway_alignment import run

import envpool_lite

B = "highway_env.vehicle.behavior."

# The default config of every id, long enough for episode ends and resets
# (roundabout: 11 s, u-turn: 10 s, exit: 18 s; merge ends past the ramp).
DEFAULT_STEPS = {
    "merge-v0": 25,
    "merge-v1": 25,
    "merge-generic-v0": 25,
    "merge-generic-v1": 25,
    "roundabout-v0": 25,
    "roundabout-v1": 25,
    "roundabout-generic-v0": 25,
    "roundabout-generic-v1": 25,
    "two-way-v0": 20,
    "u-turn-v0": 25,
    "u-turn-v1": 25,
    "exit-v0": 25,
    "exit-v1": 25,
}


@pytest.mark.parametrize("task", list(DEFAULT_STEPS))
def test_default_config_exact(task):
    stats = run(task, num_envs=2, steps=DEFAULT_STEPS[task])
    assert stats["terminated"] + stats["truncated"] >= 2, stats


def test_two_way_time_limit_exact():
    """two-way-v0's TimeLimit (15 steps) truncates, then auto-resets (at 5
    Hz the ego vehicle rarely crashes within 3 s)."""
    stats = run("two-way-v0", {"policy_frequency": 5}, num_envs=2, steps=34)
    assert stats["truncated"] >= 4, stats


def test_exit_goal_exact():
    """exit-v0's goal (the exit lane, then the ramp): keep the lane, then
    go right until the exit."""
    config = {"lanes_count": 2, "duration": 12, "vehicles_count": 5}

    def actions(t, n):
        return np.full(n, 1 if t < 8 else 2, np.int32)

    stats = run("exit-v0", config, num_envs=2, steps=26, actions=actions)
    assert stats["truncated"] >= 1, stats
    env = envpool_lite.make_gymnasium("exit-v0", num_envs=2, seed=3, config=config)
    env.reset()
    goals = sum(int((env.step(actions(t, 2))[4]["rewards.goal_reward"] != 0).sum()) for t in range(14))
    env.close()
    assert goals >= 4


@pytest.mark.parametrize(
    ("task", "lowercase"),
    [("Merge-v0", "merge-v0"), ("Roundabout-v0", "roundabout-v0"), ("TwoWay-v0", "two-way-v0"), ("UTurn-v0", "u-turn-v0"), ("Exit-v0", "exit-v0")],
)
def test_envpool_names(task, lowercase):
    """EnvPool's ids are the same tasks as highway-env's (same spec, same
    steps)."""
    ours = envpool_lite.make_gymnasium(task, num_envs=2, seed=5)
    same = envpool_lite.make_gymnasium(lowercase, num_envs=2, seed=5)
    assert ours.single_observation_space == same.single_observation_space
    assert ours.single_action_space == same.single_action_space
    assert envpool_lite.make_spec(task).max_episode_steps == envpool_lite.make_spec(lowercase).max_episode_steps
    a, b = ours.reset()[0], same.reset()[0]
    assert np.array_equal(a, b)
    rng = np.random.default_rng(0)
    for _ in range(12):
        act = rng.integers(0, 5, size=2).astype(np.int32)
        x, y = ours.step(act), same.step(act)
        for u, v in zip(x[:4], y[:4]):
            assert np.array_equal(u, v)
    ours.close()
    same.close()


# A sample of non-default configs, per task.
CONFIGS = [
    ("merge-v0", {"action": {"type": "DiscreteAction"}, "other_vehicles_type": B + "DefensiveVehicle"}),
    ("merge-v0", {"observation": {"type": "OccupancyGrid"}, "merging_speed_reward": -1.5, "reward_speed_range": [15, 35]}),
    (
        "merge-generic-v0",
        {"lanes_count": 3, "vehicles_count": 8, "before_merge_length": 100, "converge_merge_length": 60, "parallel_merge_length": 100, "after_merge_length": 120},
    ),
    ("roundabout-v0", {"incoming_vehicle_destination": 2, "normalize_reward": False, "other_vehicles_type": B + "AggressiveVehicle"}),
    ("roundabout-v0", {"action": {"type": "ContinuousAction", "lateral": False}, "duration": 6}),
    ("roundabout-generic-v0", {"roundabout_lanes": 3, "roundabout_radius": 30, "vehicles_count": 10, "incoming_vehicle_destination": 3}),
    ("roundabout-generic-v1", {"roundabout_lanes": 1, "roundabout_radius": 50.5, "vehicles_count": 8, "duration": 8}),
    ("two-way-v0", {"observation": {"type": "Kinematics"}, "other_vehicles_type": B + "LinearVehicle"}),
    ("u-turn-v0", {"action": {"type": "ContinuousAction"}, "observation": {"type": "Kinematics"}, "duration": 5}),
    ("u-turn-v1", {"observation": {"type": "Kinematics", "absolute": True}, "other_vehicles_type": B + "LinearVehicle", "normalize_reward": False}),
    ("exit-v0", {"lanes_count": 3, "vehicles_count": 10, "duration": 6, "observation": {"type": "Kinematics"}}),
    ("exit-v0", {"action": {"type": "ContinuousAction"}, "normalize_reward": False, "vehicles_density": 1.0}),
]


@pytest.mark.parametrize(("task", "config"), CONFIGS, ids=[f"{t}-{i}" for i, (t, _) in enumerate(CONFIGS)])
def test_configs_exact(task, config):
    stats = run(task, config, num_envs=2, steps=20)
    assert stats["steps"] >= 20, stats


@pytest.mark.parametrize(
    ("task", "kwargs", "match"),
    [
        ("roundabout-v0", {"incoming_vehicle_destination": 3}, "incoming_vehicle_destination"),
        ("merge-generic-v0", {"after_merge_length": 80}, "after merge"),
        ("merge-generic-v0", {"converge_merge_length": 0}, "positive length"),
        ("exit-v0", {"lanes_count": 1}, "lanes_count"),
    ],
)
def test_bad_options(task, kwargs, match):
    with pytest.raises(ValueError, match=match):
        envpool_lite.make_spec(task, **kwargs)
