"""highway-env's parking and lane-keeping tasks: parking-v0,
parking-ActionRepeat-v0, parking-parked-v0, lane-keeping-v0 and EnvPool's
names for them (Parking-v0, ParkingActionRepeat-v0, ParkingParked-v0,
LaneKeeping-v0), bit-exact with highway-env 1.12.1 through crashes,
successes, time limits and auto-resets (tests/highway/highway_alignment.py says what is
compared), on the default config and on a sample of other config values,
observation types and action types; and parking's compute_reward, which the
pool offers in Python (HER relabelling), equal to highway-env's on a
rollout's observations, batched or not.

highway-env's parking-ActionRepeat-v0 and parking-parked-v0 take no config
(their __init__ has no argument): the reference is made without one and
configured with ``env.unwrapped.configure`` before its first seeded reset.
lane-keeping-v0's step returns an empty info (its own step()): its steps are
compared here without highway_alignment's info check (the pool's info still has
the vehicle's speed, checked against the reference's vehicle).
"""

from __future__ import annotations

import warnings

import highway_alignment
import numpy as np
import pytest
from highway_alignment import assert_info_equal, assert_obs_equal, load_reference, reference_action, run, sample_actions

import envpool_lite

# EnvPool's names, and highway-env's ids that take no config.
ALIASES = {"Parking-v0": "parking-v0", "ParkingActionRepeat-v0": "parking-ActionRepeat-v0", "ParkingParked-v0": "parking-parked-v0", "LaneKeeping-v0": "lane-keeping-v0"}
NO_CONFIG = ("parking-ActionRepeat-v0", "parking-parked-v0")


@pytest.fixture(autouse=True)
def reference_ids(monkeypatch):
    """highway_alignment's reference under highway-env's id for EnvPool's names,
    and configured after make for the ids whose __init__ takes no config."""
    make = highway_alignment.make_reference

    def make_reference(task, config=None, **kwargs):
        task = ALIASES.get(task, task)
        if task not in NO_CONFIG:
            return make(task, config, **kwargs)
        import gymnasium

        load_reference()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            env = gymnasium.make(task, **kwargs)
        if config:
            env.unwrapped.configure(config)
        return env

    monkeypatch.setattr(highway_alignment, "make_reference", make_reference)


# ------------------------------------------------------------------ parking ---


def test_parking_default_exact():
    stats = run("parking-v0", num_envs=2, steps=60)
    assert stats["crashed"] >= 1, stats


@pytest.mark.parametrize("task", ["parking-v0", "Parking-v0", "parking-parked-v0", "ParkingParked-v0"])
def test_parking_time_limit_exact(task):
    """duration ends episodes (truncated), then auto-resets; the parked
    vehicles get hit."""
    stats = run(task, {"duration": 4}, num_envs=2, steps=50)
    assert stats["truncated"] >= 2, stats
    if "arked" in task:
        assert stats["crashed"] >= 1, stats


@pytest.mark.parametrize("task", ["parking-ActionRepeat-v0", "ParkingActionRepeat-v0"])
def test_parking_action_repeat_exact(task):
    """1 Hz policy, 20 s: crashes at full speed, then auto-resets."""
    stats = run(task, num_envs=2, steps=25)
    assert stats["crashed"] >= 2, stats


def test_parking_success_exact():
    """A success ends the episode (terminated, not crashed)."""
    stats = run("parking-v0", {"success_goal_reward": 0.6, "duration": 4}, num_envs=2, steps=12)
    assert stats["terminated"] >= 10 and stats["crashed"] == 0, stats


# A sample of config values, observation types and action types.
PARKING_CONFIGS = [
    {"controlled_vehicles": 2, "vehicles_count": 5, "duration": 4},
    {"add_walls": False, "duration": 4, "collision_reward": -2, "reward_weights": [1, 1, 0.1, 0.1, 0.5, 0.5]},
    {"observation": {"type": "Kinematics", "vehicles_count": 3}, "vehicles_count": 4, "duration": 4, "policy_frequency": 3},
    {"observation": {"type": "KinematicsGoal", "features": ["x", "y", "vx", "vy", "cos_h", "sin_h"], "scales": [10, 10, 1, 1, 1, 1], "normalize": False}, "duration": 4},
    {"action": {"type": "DiscreteAction", "actions_per_axis": 5}, "duration": 4},
    {"action": {"type": "DiscreteMetaAction"}, "duration": 4},
    {"observation": {"type": "OccupancyGrid"}, "vehicles_count": 6, "duration": 4},
    {"observation": {"type": "LidarObservation"}, "vehicles_count": 6, "duration": 4, "action": {"type": "ContinuousAction", "acceleration_range": [-2, 8], "steering_range": [-1, 1]}},
]


@pytest.mark.parametrize("config", PARKING_CONFIGS, ids=range(len(PARKING_CONFIGS)))
def test_parking_configs_exact(config):
    stats = run("parking-v0", config, num_envs=2, steps=25)
    assert stats["steps"] >= 40, stats


@pytest.mark.parametrize("task", ["parking-v0", "parking-parked-v0"])
def test_parking_compute_reward(task):
    """The pool's compute_reward equals highway-env's compute_reward on the
    pool's observations (one goal and a batch), and the step's reward where
    no vehicle crashed."""
    config = {"reward_weights": [1, 0.5, 0.1, 0.2, 0.03, 0.04]} if task == "parking-v0" else None
    kwargs = {} if config is None else {"config": config}
    env = envpool_lite.make_gymnasium(task, num_envs=3, seed=5, **kwargs)
    ref = highway_alignment.make_reference(task, config).unwrapped
    rng = np.random.default_rng(1)
    try:
        env.reset()
        achieved, desired = [], []
        for _ in range(20):
            obs, rew, term, trunc, info = env.step(sample_actions(env.single_action_space, rng, 3))
            a, d = obs["achieved_goal"], obs["desired_goal"]
            batch = env.compute_reward(a, d, {})
            assert np.array_equal(batch, ref.compute_reward(a, d, {}))
            for i in range(3):
                one = env.compute_reward(a[i], d[i], {})
                assert one == ref.compute_reward(a[i], d[i], {}), (one, ref.compute_reward(a[i], d[i], {}))
                assert env.compute_reward(a[i], d[i], {}, p=0.3) == ref.compute_reward(a[i], d[i], {}, p=0.3)
                if not info["crashed"][i]:
                    assert rew[i] == one, (rew[i], one)
            achieved.append(a)
            desired.append(d)
        # HER's relabelling: a batch of any shape, the goal last.
        a, d = np.stack(achieved), np.stack(desired)[::-1]
        assert np.array_equal(env.compute_reward(a, d, {}), ref.compute_reward(a, d, {}))
    finally:
        env.close()
        ref.close()


def test_parking_spaces():
    env = envpool_lite.make_gymnasium("parking-v0", num_envs=1, seed=0)
    try:
        assert list(env.single_observation_space.spaces) == ["achieved_goal", "desired_goal", "observation"]
        assert env.single_observation_space["observation"].shape == (6,)
        assert env.single_action_space.shape == (2,)
    finally:
        env.close()


# ------------------------------------------------------------- lane keeping ---


def run_lane_keeping(task, config=None, *, num_envs=2, steps=40, seed=3, max_episode_steps=None):
    """highway_alignment.run's loop for lane-keeping-v0, whose step info is empty
    in highway-env; returns the number of truncations."""
    load_reference()
    kwargs = {} if config is None else {"config": config}
    ref_kwargs = {}
    if max_episode_steps is not None:
        kwargs["max_episode_steps"] = ref_kwargs["max_episode_steps"] = max_episode_steps
    env = envpool_lite.make_gymnasium(task, num_envs=num_envs, seed=seed, **kwargs)
    refs = [highway_alignment.make_reference(task, config, **ref_kwargs) for _ in range(num_envs)]
    rng = np.random.default_rng(0)
    truncated = 0
    try:
        obs, info = env.reset()
        for i, ref in enumerate(refs):
            ref_obs, ref_info = ref.reset(seed=seed + i)
            assert_obs_equal(obs, i, ref_obs, f"{task} env {i} reset obs")
            assert_info_equal(info, i, ref_info, f"{task} env {i} reset info", at_reset=True)
        needs_reset = np.zeros(num_envs, bool)
        for t in range(steps):
            act = sample_actions(env.single_action_space, rng, num_envs)
            obs, rew, term, trunc, info = env.step(act)
            for i, ref in enumerate(refs):
                what = f"{task} env {i} step {t}"
                if needs_reset[i]:
                    ref_obs, ref_info = ref.reset()
                    assert_obs_equal(obs, i, ref_obs, what + " (auto-reset) obs")
                    assert_info_equal(info, i, ref_info, what + " (auto-reset) info", at_reset=True)
                    continue
                ref_obs, ref_rew, ref_term, ref_trunc, ref_info = ref.step(reference_action(ref, act[i]))
                assert ref_info == {}
                assert_obs_equal(obs, i, ref_obs, what + " obs")
                assert rew[i] == ref_rew, f"{what}: reward {rew[i]!r} != {ref_rew!r}"
                assert (bool(term[i]), bool(trunc[i])) == (bool(ref_term), bool(ref_trunc)), what
                assert info["speed"][i] == ref.unwrapped.vehicle.speed, what
                truncated += bool(ref_trunc)
            needs_reset = term | trunc
    finally:
        env.close()
        for ref in refs:
            ref.close()
    return truncated


def test_lane_keeping_time_limit_exact():
    """highway-env's TimeLimit (200 steps) ends the episode; onto the sine
    lane, then an auto-reset."""
    assert run_lane_keeping("lane-keeping-v0", num_envs=1, steps=205) == 1


@pytest.mark.parametrize("task", ["lane-keeping-v0", "LaneKeeping-v0"])
def test_lane_keeping_auto_reset_exact(task):
    """Short episodes: the noise drawn by each reset's observations of the
    last episode's vehicle and lane."""
    assert run_lane_keeping(task, num_envs=2, steps=40, max_episode_steps=12) == 6


LANE_KEEPING_CONFIGS = [
    {"state_noise": 0.2, "derivative_noise": 0.0},
    {"observation": {"type": "AttributesObservation", "attributes": ["reference_state", "state"]}},
    {"observation": {"type": "Kinematics"}},
    {"action": {"type": "ContinuousAction", "steering_range": [-0.5, 0.5], "longitudinal": True, "lateral": True, "dynamical": True}, "simulation_frequency": 20},
]


@pytest.mark.parametrize("config", LANE_KEEPING_CONFIGS, ids=range(len(LANE_KEEPING_CONFIGS)))
def test_lane_keeping_configs_exact(config):
    assert run_lane_keeping("lane-keeping-v0", config, num_envs=2, steps=25, max_episode_steps=10) == 4


def test_lane_keeping_spaces():
    env = envpool_lite.make_gymnasium("lane-keeping-v0", num_envs=1, seed=0)
    try:
        assert list(env.single_observation_space.spaces) == ["derivative", "reference_state", "state"]
        assert env.single_observation_space["state"].shape == (4, 1)
        assert env.single_action_space.shape == (1,)
        assert env.spec.max_episode_steps == 200
    finally:
        env.close()
