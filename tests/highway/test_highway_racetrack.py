"""highway-env 1.12.1's racetrack tasks (cpp/envs/highway/racetrack_env.h)
against highway-env itself, step by step with ``==`` (tests/highway/highway_alignment.py).

Covered: every id (racetrack-v0/v1, racetrack-large-v0/v1,
racetrack-oval-v0/v1) with its default config, driven by a noisy
lane-following steering policy (computed from the reference's state, so
both sides take the same actions) through the curved lanes, crashes into
the vehicle ahead, running off the road, auto-resets; a time limit with a
short ``duration``; EnvPool's names (Racetrack-v0, RacetrackLarge-v0,
RacetrackOval-v0) against the lowercase ids; non-default configs: more
traffic (where v1 differs from v0), ``terminate_off_road`` off, reward weights, the large track's
``speed_limit``, the oval's ``no_lanes``, ``length``, ``block_lane`` and
``force_decision`` obstacles, a longitudinal+lateral ContinuousAction, a
DiscreteAction, a Kinematics observation with two controlled vehicles and
an image-like occupancy grid with speed layers; render() (rgb_array) of the
oval with obstacles and of the large track, pixel for pixel.

The oval's ``length=0`` (a random track length) is drawn by highway-env from
``np.random.default_rng()``, a generator it never seeds, so no seed
reproduces it. Ours draws the same ``integers(100, 200)`` from the env's
np_random at the same point of the reset; with highway-env's default_rng()
patched to return the env's np_random, the two are ``==``. ``no_lanes=0``
and a DiscreteMetaAction fail at every reset in highway-env: ours refuses
them at construction.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from highway_alignment import load_reference, make_reference, run

import envpool_lite

IDS = ("racetrack-v0", "racetrack-v1", "racetrack-large-v0", "racetrack-large-v1", "racetrack-oval-v0", "racetrack-oval-v1")


class SteeringPolicy:
    """A lane-following steering action (ContinuousAction, lateral only)
    for each reference env, with uniform noise: the references are captured
    as highway_alignment.run makes them. ``noise``: its amplitude, env by env
    (a small one keeps to the track, a large one runs off it)."""

    def __init__(self, monkeypatch, noise: tuple[float, ...], seed: int = 0):
        import highway_alignment

        self.refs = []
        self.noise = noise
        self.rng = np.random.default_rng(seed)
        make = highway_alignment.make_reference

        def capture(task, config=None, **kwargs):
            ref = make(task, config, **kwargs)
            self.refs.append(ref)
            return ref

        monkeypatch.setattr(highway_alignment, "make_reference", capture)

    def steer(self, env) -> float:
        v = env.vehicle
        lon, lat = v.lane.local_coordinates(v.position)
        error = (v.lane.heading_at(lon + 6.0) - v.heading + math.pi) % (2 * math.pi) - math.pi
        return float(np.clip((error - 0.08 * lat) / (math.pi / 4), -1, 1))

    def __call__(self, t: int, n: int):
        actions = [self.steer(ref.unwrapped) + self.rng.uniform(-noise, noise) for ref, noise in zip(self.refs, self.noise)]
        return np.clip(np.array(actions, dtype=np.float32), -1, 1)[:, None]


@pytest.mark.parametrize("task", IDS)
def test_default_config_aligned(task, monkeypatch):
    # Env 0 keeps to the track (through its curves), env 1 runs off it.
    policy = SteeringPolicy(monkeypatch, noise=(0.05, 3.0), seed=0)
    stats = run(task, num_envs=2, steps=80, seed=5, actions=policy)
    assert stats["terminated"] >= 2, stats


@pytest.mark.parametrize(
    ("task", "config", "seed"),
    [
        # Traffic and a short episode: crashes, and a time limit.
        ("racetrack-v0", {"other_vehicles": 6, "duration": 6}, 11),
        # A fast lap of the large track, into the traffic ahead.
        ("racetrack-large-v1", {"speed_limit": 25.0, "other_vehicles": 4}, 3),
    ],
)
def test_crashes_and_time_limit(task, config, seed, monkeypatch):
    policy = SteeringPolicy(monkeypatch, noise=(0.1, 0.1), seed=1)
    stats = run(task, config, num_envs=2, steps=70, seed=seed, actions=policy)
    assert stats["crashed"] >= 1, stats
    if "duration" in config:
        assert stats["truncated"] >= 1, stats


CONFIGS = [
    ("racetrack-v0", {"terminate_off_road": False, "duration": 5, "collision_reward": -0.5, "action_reward": -0.7, "lane_centering_cost": 2.5, "lane_centering_reward": 0.5}),
    ("racetrack-large-v0", {"speed_limit": 15.0, "other_vehicles": 5}),
    ("racetrack-oval-v0", {"no_lanes": 2, "block_lane": True, "force_decision": True, "other_vehicles": 4}),
    ("racetrack-oval-v1", {"no_lanes": 5, "length": 150, "other_vehicles": 3}),
    ("racetrack-v0", {"action": {"type": "ContinuousAction", "longitudinal": True, "lateral": True}, "terminate_off_road": False, "duration": 5}),
    ("racetrack-v0", {"action": {"type": "DiscreteAction"}, "duration": 5}),
    ("racetrack-large-v1", {"observation": {"type": "Kinematics"}, "other_vehicles": 3, "controlled_vehicles": 2}),
    # Heavy traffic, where v1's connected-lane neighbours change the IDM
    # vehicles' motion (v0 differs from the first step).
    ("racetrack-v1", {"other_vehicles": 10, "terminate_off_road": False, "duration": 5, "observation": {"type": "Kinematics", "vehicles_count": 10, "absolute": True, "normalize": False}}),
    ("racetrack-oval-v0", {"observation": {"type": "OccupancyGrid", "features": ["presence", "vx", "vy", "on_road"], "as_image": True}, "other_vehicles": 3}),
]


@pytest.mark.parametrize(("task", "config"), CONFIGS, ids=[f"{t}-{i}" for i, (t, _) in enumerate(CONFIGS)])
def test_config_aligned(task, config):
    stats = run(task, config, num_envs=2, steps=35, seed=7)
    assert stats["terminated"] + stats["truncated"] >= 1, stats


@pytest.mark.parametrize(("task", "config"), [("racetrack-oval-v1", {"block_lane": True, "other_vehicles": 4}), ("racetrack-large-v0", None)])
def test_render_aligned(task, config):
    run(task, config, num_envs=1, steps=15, seed=3, render=True)


@pytest.mark.parametrize(("alias", "task"), [("Racetrack-v0", "racetrack-v0"), ("RacetrackLarge-v0", "racetrack-large-v0"), ("RacetrackOval-v0", "racetrack-oval-v0")])
def test_envpool_names(alias, task):
    pools = [envpool_lite.make_gymnasium(name, num_envs=2, seed=3) for name in (alias, task)]
    rng = np.random.default_rng(0)
    outs = [pool.reset()[0] for pool in pools]
    np.testing.assert_array_equal(outs[0], outs[1])
    for _ in range(30):
        act = rng.uniform(-1, 1, (2, 1)).astype(np.float32)
        a, b = (pool.step(act) for pool in pools)
        for x, y in zip(a[:4], b[:4]):
            np.testing.assert_array_equal(x, y)
    for pool in pools:
        pool.close()


@pytest.fixture
def seeded_oval_rng(monkeypatch):
    """highway-env's RacetrackEnvOval with its unseeded
    ``np.random.default_rng()`` returning the env's own np_random (ours)."""
    load_reference()
    from highway_env.envs import racetrack_env

    current = []

    class Random:
        def __getattr__(self, name):
            return getattr(np.random, name)

        @staticmethod
        def default_rng(*args, **kwargs):
            assert not args and not kwargs
            return current[-1]

    class Numpy:
        random = Random()

        def __getattr__(self, name):
            return getattr(np, name)

    make_road = racetrack_env.RacetrackEnvOval._make_road

    def patched(self):
        current.append(self.np_random)
        return make_road(self)

    monkeypatch.setattr(racetrack_env, "np", Numpy())
    monkeypatch.setattr(racetrack_env.RacetrackEnvOval, "_make_road", patched)


def test_oval_random_length(seeded_oval_rng, monkeypatch):
    policy = SteeringPolicy(monkeypatch, noise=(0.2, 3.0, 3.0), seed=2)
    stats = run("racetrack-oval-v1", {"length": 0, "no_lanes": 4, "block_lane": True}, num_envs=3, steps=50, seed=1, actions=policy)
    assert stats["terminated"] >= 1, stats
    # Each reference drew its own track (a length in [100, 200)).
    lengths = {ref.unwrapped.road.network.get_lane(("a", "b", 0)).length for ref in policy.refs}
    assert len(lengths) > 1 and all(101 <= x <= 200 for x in lengths), lengths


def test_unresettable_configs_refused():
    load_reference()
    with pytest.raises(ValueError, match="high <= 0"):
        make_reference("racetrack-oval-v0", {"no_lanes": 0})
    with pytest.raises(Exception, match="no_lanes=0"):
        envpool_lite.make_gymnasium("racetrack-oval-v0", num_envs=1, config={"no_lanes": 0})
    with pytest.raises(AttributeError, match="make_on_lane"):
        make_reference("racetrack-v0", {"action": {"type": "DiscreteMetaAction"}})
    with pytest.raises(Exception, match="DiscreteMetaAction"):
        envpool_lite.make_gymnasium("racetrack-v0", num_envs=1, config={"action": {"type": "DiscreteMetaAction"}})
