"""highway-env's intersection tasks: intersection-v0, -v1 (continuous
actions), -v2 (connected lanes), intersection-multi-agent-v0, -v1 and -v2
(with highway-env's MultiAgentWrapper) and EnvPool's names for them,
bit-exact with highway-env 1.12.1 through crashes, arrivals, time limits and
auto-resets, on the default configs and a sample of other config values.

At every step of every env: the observation (a multi-agent one stacked over
the agents), the reward, terminated, truncated and the info (speed, crashed,
each of rewards, agents_rewards, agents_terminated). Where highway-env's
MultiAgentWrapper makes the reward and terminated tuples (the info's
agents_rewards and agents_terminated), the pool's reward and terminated are
the env's own: the mean of the agents' rewards and _is_terminated().

IntersectionEnv sets DISTANCE_WANTED, COMFORT_ACC_MAX and COMFORT_ACC_MIN on
the other vehicles' class at each reset, a change that outlives the env in
the Python process: a fixture restores the classes after this module, so
that the other highway test files' references are not changed by it.
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from highway_alignment import ORACLE, assert_frames_equal, assert_info_equal, assert_obs_equal, load_reference, make_reference, reference_action

import envpool_lite

BEHAVIOR = "highway_env.vehicle.behavior."
_MISSING = object()


@pytest.fixture(scope="module", autouse=True)
def restore_vehicle_classes():
    """Undo intersection_env.py's class attribute changes afterwards."""
    if not (ORACLE / "highway_env" / "__init__.py").is_file():
        yield  # no reference: the alignment tests skip
        return
    load_reference()
    from highway_env.vehicle import behavior

    classes = [behavior.IDMVehicle, behavior.LinearVehicle, behavior.AggressiveVehicle, behavior.DefensiveVehicle]
    names = ["DISTANCE_WANTED", "COMFORT_ACC_MAX", "COMFORT_ACC_MIN"]
    saved = {(cls, name): cls.__dict__.get(name, _MISSING) for cls in classes for name in names}
    yield
    for (cls, name), value in saved.items():
        if value is _MISSING:
            if name in cls.__dict__:
                delattr(cls, name)
        else:
            setattr(cls, name, value)


def _actions(space, rng, n):
    """n actions of the pool's action space; an integer Box (a multi-agent
    discrete action) is drawn over its whole range."""
    if isinstance(space, gymnasium.spaces.Discrete):
        return rng.integers(0, int(space.n), size=n).astype(space.dtype)
    if np.issubdtype(space.dtype, np.integer):
        return rng.integers(space.low, space.high + 1, size=(n, *space.shape)).astype(space.dtype)
    return rng.uniform(space.low, space.high, size=(n, *space.shape)).astype(space.dtype)


def _assert_agents_info(info, row, ref_info, what):
    ours_r, ours_t = info["agents_rewards"][row], info["agents_terminated"][row]
    ref_r = np.asarray(ref_info["agents_rewards"], np.float64)
    ref_t = np.asarray(ref_info["agents_terminated"], bool)
    assert ours_r.shape == ref_r.shape and np.array_equal(ours_r, ref_r), f"{what}: agents_rewards {ours_r} != {ref_r}"
    assert np.array_equal(ours_t, ref_t), f"{what}: agents_terminated {ours_t} != {ref_t}"


def run(task, config=None, *, num_envs=2, steps=30, seed=3, policy_seed=0, actions=None, render=False):
    """highway_alignment.run for these tasks: also the per-agent info, and the
    MultiAgentWrapper's tuples (see the module docstring). With ``render``,
    the pictures of every env after every step too."""
    kwargs = {} if config is None else {"config": config}
    render_kwargs = {"render_mode": "rgb_array"} if render else {}
    env = envpool_lite.make_gymnasium(task, num_envs=num_envs, seed=seed, **kwargs, **render_kwargs)
    refs = [make_reference(task, config, **render_kwargs) for _ in range(num_envs)]
    rng = np.random.default_rng(policy_seed)
    stats = {"crashed": 0, "arrived": 0, "terminated": 0, "truncated": 0, "steps": 0}
    try:
        obs, info = env.reset()
        for i, ref in enumerate(refs):
            ref_obs, ref_info = ref.reset(seed=seed + i)
            what = f"{task} env {i} reset"
            assert_obs_equal(obs, i, ref_obs, what + " obs")
            # The reset's info: its rewards do not depend on the action here.
            assert_info_equal(info, i, ref_info, what + " info")
            _assert_agents_info(info, i, ref_info, what)
        if render:
            assert_frames_equal(env, refs, f"{task} reset")
        needs_reset = np.zeros(num_envs, bool)
        for t in range(steps):
            act = _actions(env.single_action_space, rng, num_envs) if actions is None else actions(t, num_envs)
            obs, rew, term, trunc, info = env.step(act)
            for i, ref in enumerate(refs):
                what = f"{task} env {i} step {t}"
                if needs_reset[i]:
                    ref_obs, ref_info = ref.reset()
                    assert_obs_equal(obs, i, ref_obs, what + " (auto-reset) obs")
                    assert_info_equal(info, i, ref_info, what + " (auto-reset) info")
                    _assert_agents_info(info, i, ref_info, what + " (auto-reset)")
                    continue
                ref_obs, ref_rew, ref_term, ref_trunc, ref_info = ref.step(reference_action(ref, act[i]))
                if isinstance(ref_rew, tuple):  # MultiAgentWrapper
                    assert ref_rew == ref_info["agents_rewards"] and ref_term == ref_info["agents_terminated"]
                    ref_rew = sum(ref_rew) / len(ref_rew)  # _reward
                    ref_term = ref.unwrapped._is_terminated()
                assert_obs_equal(obs, i, ref_obs, what + " obs")
                assert rew[i] == ref_rew, f"{what}: reward {rew[i]!r} != {ref_rew!r}"
                assert bool(term[i]) == bool(ref_term) and bool(trunc[i]) == bool(ref_trunc), f"{what}: terminated/truncated {term[i]}/{trunc[i]} != {ref_term}/{ref_trunc}"
                assert_info_equal(info, i, ref_info, what + " info")
                _assert_agents_info(info, i, ref_info, what)
                stats["steps"] += 1
                stats["crashed"] += bool(ref_info["crashed"])
                stats["arrived"] += bool(ref_info["rewards"]["arrived_reward"])
                stats["terminated"] += bool(ref_term)
                stats["truncated"] += bool(ref_trunc) and not bool(ref_term)
            if render:
                assert_frames_equal(env, refs, f"{task} step {t}")
            needs_reset = term | trunc
    finally:
        env.close()
        for ref in refs:
            ref.close()
    return stats


@pytest.mark.parametrize("task", ["intersection-v0", "intersection-v1", "intersection-v2"])
def test_default_config_exact(task):
    stats = run(task, num_envs=2, steps=30)
    assert stats["crashed"] >= 1 and stats["truncated"] >= 1, stats


@pytest.mark.parametrize("task", ["intersection-multi-agent-v0", "intersection-multi-agent-v1", "intersection-multi-agent-v2"])
def test_multi_agent_exact(task):
    stats = run(task, num_envs=2, steps=25)
    assert stats["crashed"] >= 1 and stats["truncated"] >= 1, stats


def test_arrivals_exact():
    """The ego vehicle always faster: it arrives (terminated, rewarded)."""
    stats = run("intersection-v0", {"spawn_probability": 0.2, "initial_vehicle_count": 3}, num_envs=2, steps=16, seed=11, actions=lambda t, n: np.full(n, 2, np.int32))
    assert stats["arrived"] >= 1, stats


@pytest.mark.parametrize(
    ("task", "same"),
    [
        ("Intersection-v0", "intersection-v0"),
        ("Intersection-v1", "intersection-v1"),
        ("IntersectionMultiAgent-v0", "intersection-multi-agent-v0"),
        ("IntersectionMultiAgent-v1", "intersection-multi-agent-v1"),
    ],
)
def test_envpool_names(task, same):
    """EnvPool's ids are the same tasks."""
    ours = envpool_lite.make_gymnasium(task, num_envs=2, seed=7)
    theirs = envpool_lite.make_gymnasium(same, num_envs=2, seed=7)
    assert ours.single_action_space == theirs.single_action_space
    assert np.array_equal(ours.reset()[0], theirs.reset()[0])
    rng = np.random.default_rng(0)
    for _ in range(5):
        act = _actions(ours.single_action_space, rng, 2)
        a, b = ours.step(act), theirs.step(act)
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    ours.close()
    theirs.close()


def test_spaces():
    """The multi-agent observation and action have an agent axis."""
    env = envpool_lite.make_gymnasium("intersection-multi-agent-v0", num_envs=2, seed=0, config={"controlled_vehicles": 3})
    assert env.single_observation_space.shape == (3, 15, 7)
    assert env.single_action_space == gymnasium.spaces.Box(0, 2, (3,), np.int32)
    obs, info = env.reset()
    assert obs.shape == (2, 3, 15, 7)
    assert info["agents_rewards"].shape == (2, 3) and info["agents_terminated"].dtype == bool
    env.close()


# A sample of other config values.
CONFIGS = [
    (
        "intersection-v0",
        {
            "other_vehicles_type": BEHAVIOR + "LinearVehicle",
            "destination": "",  # highway-env's None: a random exit
            "normalize_reward": True,
            "reward_speed_range": [5.0, 8.0],
            "collision_reward": -2.0,
            "arrived_reward": 2.0,
            "duration": 8,
        },
    ),
    (
        "intersection-v0",
        {
            "observation": {"type": "OccupancyGrid", "features": ["presence", "vx", "vy", "on_road"], "grid_size": [[-30, 30], [-30, 30]], "grid_step": [5, 5]},
            "action": {"type": "DiscreteMetaAction", "lateral": True, "longitudinal": True, "target_speeds": [0, 3, 6, 9]},
            "destination": "o3",
            "offroad_terminal": True,
            "simulation_frequency": 10,
            "policy_frequency": 2,
            "duration": 5,
        },
    ),
    (
        "intersection-v2",
        {
            "other_vehicles_type": BEHAVIOR + "AggressiveVehicle",
            "observation": {"type": "TimeToCollision", "horizon": 6},
            "initial_vehicle_count": 14,
            "spawn_probability": 1.0,
            "destination": "o2",
        },
    ),
    (
        "intersection-v1",
        {
            "observation": {"type": "LidarObservation", "cells": 12},
            "action": {"type": "ContinuousAction", "dynamical": False, "lateral": False},
            "other_vehicles_type": BEHAVIOR + "DefensiveVehicle",
            "duration": 8,
        },
    ),
    (
        "intersection-multi-agent-v1",
        {
            "controlled_vehicles": 4,
            "destination": "",
            "action": {"type": "MultiAgentAction", "action_config": {"type": "ContinuousAction"}},
            "observation": {"type": "MultiAgentObservation", "observation_config": {"type": "Kinematics", "vehicles_count": 6, "absolute": False, "order": "shuffled"}},
            "duration": 8,
        },
    ),
]


@pytest.mark.parametrize(("task", "config"), CONFIGS)
def test_configs_exact(task, config):
    stats = run(task, config, num_envs=2, steps=14)
    assert stats["terminated"] + stats["truncated"] >= 1, stats


@pytest.mark.parametrize(
    ("task", "config"),
    [
        ("intersection-v0", None),
        ("intersection-multi-agent-v0", None),
        (
            "intersection-multi-agent-v0",
            {
                "observation": {
                    "type": "MultiAgentObservation",
                    "observation_config": {"type": "GrayscaleObservation", "observation_shape": (64, 48), "stack_size": 2, "weights": [0.2989, 0.587, 0.114], "scaling": 2.0},
                },
                "duration": 5,
            },
        ),
    ],
)
def test_render_pixel_exact(task, config):
    """render() (rgb_array), and each agent's GrayscaleObservation, equal
    highway-env's pygame-ce pictures."""
    stats = run(task, config, num_envs=2, steps=8, render=True)
    assert stats["steps"] >= 8, stats
