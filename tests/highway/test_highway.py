"""highway-env: highway-v0 and highway-fast-v0 (and EnvPool's names for
them) bit-exact with highway-env 1.12.1, through crashes, time limits and
auto-resets (tests/highway/highway_alignment.py says what is compared), on the default
config and on a sample of other observation types, action types and config
values; and the family's options: highway-env's nested config dict, and bad
input.

The other tasks are in tests/highway/test_highway_<group>.py.
"""

from __future__ import annotations

import numpy as np
import pytest
import scope
from highway_alignment import run

import envpool_lite


@pytest.mark.parametrize("task", ["highway-v0", "highway-fast-v0"])
def test_default_config_exact(task):
    # highway-env's highway-v0 steps about 6 times a second: 16 steps.
    stats = run(task, num_envs=2, steps=scope.steps(16, full=80) if task == "highway-v0" else scope.steps(30, full=150))
    assert stats["crashed"] >= 1, stats


@pytest.mark.parametrize("task", ["Highway-v0", "HighwayFast-v0"])
def test_envpool_names(task):
    """EnvPool's ids are the same tasks (envpool's own name for them)."""
    ours = envpool_lite.make_gymnasium(task, num_envs=2, seed=7)
    same = envpool_lite.make_gymnasium(task.replace("HighwayFast", "highway-fast").replace("Highway", "highway"), num_envs=2, seed=7)
    a, b = ours.reset()[0], same.reset()[0]
    assert np.array_equal(a, b)
    for _ in range(5):
        act = np.array([1, 3], np.int32)
        assert np.array_equal(ours.step(act)[0], same.step(act)[0])


def test_time_limit_exact():
    """duration ends episodes (truncated), then auto-resets."""
    stats = run("highway-fast-v0", {"duration": 4, "vehicles_count": 3, "lanes_count": 4}, num_envs=2, steps=14, actions=lambda t, n: np.ones(n, np.int32))
    assert stats["truncated"] >= 4, stats


# A sample of observation types, action types and config values.
CONFIGS = [
    {"lanes_count": 2, "vehicles_count": 5, "duration": 10, "observation": {"type": "OccupancyGrid"}, "action": {"type": "ContinuousAction"}},
    {"observation": {"type": "TimeToCollision", "horizon": 5}, "policy_frequency": 2, "other_vehicles_type": "highway_env.vehicle.behavior.AggressiveVehicle"},
    {
        "observation": {"type": "LidarObservation", "cells": 24, "maximum_range": 40},
        "action": {"type": "DiscreteAction", "actions_per_axis": 5},
        "other_vehicles_type": "highway_env.vehicle.behavior.DefensiveVehicle",
    },
    {
        "observation": {
            "type": "Kinematics",
            "order": "shuffled",
            "absolute": True,
            "vehicles_count": 7,
            "features": ["presence", "x", "y", "vx", "vy", "heading", "cos_h", "sin_h", "cos_d", "sin_d", "long_off", "lat_off", "ang_off"],
        },
        "neighbour_vehicles_connected_lanes": True,
        "other_vehicles_type": "highway_env.vehicle.behavior.LinearVehicle",
    },
    {
        "observation": {"type": "Kinematics", "normalize": False, "see_behind": True, "features_range": {"x": [-50, 50], "vx": [-10, 10]}},
        "action": {"type": "DiscreteMetaAction", "target_speeds": [10, 15, 20, 25, 30, 35], "lateral": False},
        "initial_lane_id": 1,
        "ego_spacing": 1.2,
        "vehicles_density": 1.5,
        "reward_speed_range": [15, 35],
        "collision_reward": -2.5,
        "normalize_reward": False,
        "offroad_terminal": True,
    },
    {
        "observation": {
            "type": "OccupancyGrid",
            "features": ["presence", "on_road", "x", "vy"],
            "grid_size": [[-20, 20], [-12, 12]],
            "grid_step": [4, 3],
            "align_to_vehicle_axes": True,
            "as_image": True,
        },
        "action": {"type": "ContinuousAction", "longitudinal": False, "speed_range": [10, 30]},
        "simulation_frequency": 10,
        "controlled_vehicles": 2,
        "vehicles_count": 10,
    },
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(sorted(k for k in c if k not in ("observation", "action"))) or "types")
def test_configs_exact(config):
    stats = run("highway-fast-v0", config, num_envs=2, steps=14)
    assert stats["steps"] >= 14, stats


def test_config_forms():
    """config= (highway-env's dict) and the same keys as options are one
    thing; a key given both ways is an error."""
    a = envpool_lite.make_spec("highway-v0", config={"lanes_count": 3, "observation": {"type": "TimeToCollision"}})
    b = envpool_lite.make_spec("highway-v0", lanes_count=3, observation={"type": "TimeToCollision"})
    assert a.config == b.config
    assert a.config["observation.type"] == "TimeToCollision" and a.config["observation.horizon"] == 10
    assert a.observation_space.shape == (3, 3, 10)
    with pytest.raises(ValueError, match="lanes_count"):
        envpool_lite.make_spec("highway-v0", lanes_count=3, config={"lanes_count": 2})


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"config": {"lanes_cont": 3}}, TypeError, "lanes_cont"),
        ({"lanes_count": "3"}, TypeError, "lanes_count"),
        ({"lanes_count": 0}, ValueError, "lanes_count"),
        ({"vehicles_count": -1}, ValueError, "vehicles_count"),
        ({"policy_frequency": 0}, ValueError, "policy_frequency"),
        ({"initial_lane_id": 4}, ValueError, "initial_lane_id"),
        ({"other_vehicles_type": "highway_env.vehicle.kinematics.Vehicle"}, ValueError, "other_vehicles_type"),
        ({"observation": {"type": "Kinematics", "vehicle_count": 3}}, TypeError, "vehicle_count"),
        ({"observation": {"type": "Kinematic"}}, ValueError, "Kinematic"),
        ({"observation": "Kinematics"}, TypeError, "observation"),
        ({"observation": {"type": "Kinematics", "vehicles_count": 2.5}}, TypeError, "vehicles_count"),
        ({"action": {"type": "ContinuousAction", "lateral": False, "longitudinal": False}}, ValueError, "longitudinal"),
        ({"action": {"type": "DiscreteMetaAction", "actions_per_axis": 3}}, TypeError, "actions_per_axis"),
        ({"config": [("lanes_count", 3)]}, TypeError, "config"),
    ],
)
def test_bad_options(kwargs, error, match):
    with pytest.raises(error, match=match):
        envpool_lite.make_gymnasium("highway-v0", num_envs=1, **kwargs)


def test_bad_actions_leave_the_pool_usable():
    """A continuous action for a discrete task and the reverse: ValueError,
    and the pool steps on."""
    discrete = envpool_lite.make_gymnasium("highway-fast-v0", num_envs=2)
    continuous = envpool_lite.make_gymnasium("highway-fast-v0", num_envs=2, config={"action": {"type": "ContinuousAction"}})
    discrete.reset()
    continuous.reset()
    with pytest.raises(ValueError):
        discrete.step(np.zeros((2, 2), np.float32))
    with pytest.raises(ValueError):
        discrete.step(np.array([5, 0], np.int32))
    with pytest.raises(ValueError):
        continuous.step(np.array([1, 0], np.int32))
    discrete.step(np.array([1, 1], np.int32))
    continuous.step(np.zeros((2, 2), np.float32))


@pytest.mark.parametrize(
    ("task", "config"),
    [
        ("highway-v0", None),
        ("highway-fast-v0", {"observation": {"type": "LidarObservation"}, "screen_width": 333, "screen_height": 201, "scaling": 3.3, "centering_position": [0.5, 0.4]}),
        ("highway-fast-v0", {"show_trajectories": True, "other_vehicles_type": "highway_env.vehicle.behavior.LinearVehicle", "controlled_vehicles": 2}),
    ],
    ids=["default", "lidar-screen", "trajectories"],
)
def test_render_pixel_exact(task, config):
    """render() (rgb_array) equals highway-env's pygame-ce picture, pixel for
    pixel, through crashes and auto-resets."""
    stats = run(task, config, num_envs=2, steps=8, render=True)
    assert stats["steps"] >= 8, stats


def test_grayscale_observation_exact():
    """GrayscaleObservation: highway-env's own rendering of the scene, made
    gray and stacked, equal in every pixel."""
    config = {"observation": {"type": "GrayscaleObservation", "observation_shape": (128, 64), "stack_size": 4, "weights": [0.2989, 0.5870, 0.1140], "scaling": 1.75}}
    stats = run("highway-fast-v0", config, num_envs=2, steps=10)
    assert stats["steps"] >= 10, stats
