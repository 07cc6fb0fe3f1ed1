"""The highway family (cpp/envs/highway/): highway-env 1.12.1's 31 driving
tasks, ported whole to C++ and bit-exact with highway-env under the seed
convention (env i of a pool seeded s is ``gymnasium.make(id)`` reset with
seed s + i).

highway-env configures a task with one nested dict (``config=``, or
``env.unwrapped.configure``): its top-level keys (``lanes_count``,
``duration``, ...) and two nested dicts, ``observation`` and ``action``,
each a ``type`` and that type's keyword arguments. The C++ envs take typed
options only, so this module turns the nested dicts into flat typed options
(``observation.type``, ``observation.vehicles_count``, ...; a multi-agent
type's inner dict under ``observation.observation_config.<key>``), filling
every key of the chosen type with highway-env's default for it, as its
constructors do. As in highway-env, a given ``observation`` or ``action``
dict replaces the task's default one whole (highway-env's ``configure`` is a
shallow ``dict.update``). Unlike highway-env, which ignores unknown keyword
arguments, an unknown key is a TypeError naming it.

None, where highway-env takes it, has a typed form: ``initial_lane_id`` and
``incoming_vehicle_destination`` None are -1, intersection's ``destination``
None is ``""`` (a random exit, as highway-env's ``or`` takes both),
``features_range`` None is
``{}`` (computed from the road, as highway-env does), ``speed_range`` None
is ``()``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from envpool_lite.families import BenchmarkTask, Family, Players

if TYPE_CHECKING:
    from envpool_lite.spec import EnvSpec

HIGHWAY_ENV_VERSION = "1.12.1"

# A key highway-env's constructor has no default for.
REQUIRED: Any = object()

# The typed form of None where highway-env takes None (its constructors
# then use the class's default, or compute one, as ours do for these
# forms): an empty list, an empty dict, or a scaling of 0.
NONE_FORMS: dict[str, Any] = {
    "features": (),
    "features_range": {},
    "grid_size": (),
    "grid_step": (),
    "acceleration_range": (),
    "steering_range": (),
    "speed_range": (),
    "target_speeds": (),
    "scaling": 0.0,
    "centering_position": (),
}

# The keys each observation type takes, with highway-env's default where a
# dict leaves one out (its constructors' defaults, with None resolved as the
# constructors resolve it at construction). Keys that highway-env's own
# task configs pass but its constructors ignore (``flatten``) are accepted
# and ignored, as there.
_KINEMATICS: dict[str, Any] = {
    "features": ("presence", "x", "y", "vx", "vy"),
    "vehicles_count": 5,
    "features_range": {},
    "absolute": False,
    "order": "sorted",
    "normalize": True,
    "clip": True,
    "see_behind": False,
    "observe_intentions": False,
    "include_obstacles": True,
}
OBSERVATION_KEYS: dict[str, dict[str, Any]] = {
    "Kinematics": _KINEMATICS,
    "ExitObservation": _KINEMATICS,
    "KinematicsGoal": {**_KINEMATICS, "scales": REQUIRED},
    "OccupancyGrid": {
        "features": ("presence", "vx", "vy", "on_road"),
        "grid_size": (-5.5 * 5, 5.5 * 5, -5.5 * 5, 5.5 * 5),
        "grid_step": (5.0, 5.0),
        "features_range": {},
        "absolute": False,
        "align_to_vehicle_axes": False,
        "clip": True,
        "as_image": False,
    },
    "TimeToCollision": {"horizon": 10},
    "LidarObservation": {"cells": 16, "maximum_range": 60.0, "normalize": True},
    "AttributesObservation": {"attributes": REQUIRED},
    "GrayscaleObservation": {"observation_shape": REQUIRED, "stack_size": REQUIRED, "weights": REQUIRED, "scaling": None, "centering_position": None},
}
# Aliases highway-env's observation_factory accepts.
_OBSERVATION_ALIASES = {
    "TimeToCollision": "TimeToCollision",
    "Kinematics": "Kinematics",
    "OccupancyGrid": "OccupancyGrid",
    "KinematicsGoal": "KinematicsGoal",
    "GrayscaleObservation": "GrayscaleObservation",
    "AttributesObservation": "AttributesObservation",
    "MultiAgentObservation": "MultiAgentObservation",
    "TupleObservation": "TupleObservation",
    "LidarObservation": "LidarObservation",
    "ExitObservation": "ExitObservation",
}
_IGNORED_KEYS = frozenset({"flatten"})

ACTION_KEYS: dict[str, dict[str, Any]] = {
    "ContinuousAction": {
        "acceleration_range": (-5.0, 5.0),
        "steering_range": (-math.pi / 4, math.pi / 4),
        "speed_range": (),
        "longitudinal": True,
        "lateral": True,
        "dynamical": False,
        "clip": True,
    },
    "DiscreteAction": {
        "acceleration_range": (-5.0, 5.0),
        "steering_range": (-math.pi / 4, math.pi / 4),
        "longitudinal": True,
        "lateral": True,
        "dynamical": False,
        "clip": True,
        "actions_per_axis": 3,
    },
    "DiscreteMetaAction": {"longitudinal": True, "lateral": True, "target_speeds": (20.0, 25.0, 30.0)},
}
# Keys highway-env's task configs pass to an action type that ignores them
# (racetrack's ContinuousAction gets target_speeds).
_IGNORED_ACTION_KEYS = frozenset({"target_speeds"})


def _flatten(kind: str, prefix: str, value: Any, tables: dict[str, dict[str, Any]], multi: str, inner: str, ignored: frozenset[str]) -> dict[str, Any]:
    """``value`` (one of highway-env's observation or action dicts) as flat
    options under ``prefix``: its type and every key of that type."""
    if not isinstance(value, Mapping) or "type" not in value:
        raise TypeError(f"option {prefix!r} must be a dict with a 'type' key (highway-env's {kind} config), got {value!r}")
    type_ = value["type"]
    if type_ == multi:
        unknown = sorted(set(value) - {"type", inner})
        if unknown:
            raise TypeError(f"option {prefix!r}: unknown key(s) {', '.join(map(repr, unknown))} for {multi} (it takes {inner!r})")
        if inner not in value:
            raise TypeError(f"option {prefix!r}: {multi} needs {inner!r}")
        inner_options = _flatten(kind, f"{prefix}.{inner}", value[inner], tables, multi, inner, ignored)
        return {f"{prefix}.type": multi, **inner_options}
    if type_ not in tables:
        raise ValueError(f"option {prefix!r}: unknown {kind} type {type_!r}; highway-env's are {', '.join(sorted([*tables, multi]))}")
    keys = tables[type_]
    unknown = sorted(set(value) - {"type"} - set(keys) - ignored)
    if unknown:
        raise TypeError(f"option {prefix!r}: unknown key(s) {', '.join(map(repr, unknown))} for {type_}; it takes {', '.join(sorted(keys))}")
    out: dict[str, Any] = {f"{prefix}.type": type_}
    for key, default in keys.items():
        given = value.get(key, default)
        if given is REQUIRED:
            raise TypeError(f"option {prefix!r}: {type_} needs {key!r}")
        if given is None and key not in NONE_FORMS:
            raise TypeError(f"option {prefix!r}: {type_}'s {key!r} cannot be None")
        out[f"{prefix}.{key}"] = _typed(key, given)
    return out


def _typed(key: str, value: Any) -> Any:
    """A highway-env value in the typed form of our options: a grid size's
    two (min, max) pairs flattened, None as its typed form (NONE_FORMS)."""
    if key == "grid_size" and isinstance(value, (list, tuple)) and value and isinstance(value[0], (list, tuple)):
        return tuple(float(x) for pair in value for x in pair)
    if value is None and key in NONE_FORMS:
        return NONE_FORMS[key]
    return value


# The goal-conditioned tasks (parking_env.py's ParkingEnv and its variants),
# whose compute_reward the pool offers (HER relabelling calls it).
_PARKING_IDS = frozenset({"parking-v0", "parking-ActionRepeat-v0", "parking-parked-v0", "Parking-v0", "ParkingActionRepeat-v0", "ParkingParked-v0"})


def parking_compute_reward(reward_weights: Any) -> Callable[..., Any]:
    """ParkingEnv.compute_reward(achieved_goal, desired_goal, info, p=0.5)
    with the config's reward_weights: the same numpy expression, over one
    goal or a batch of goals (the last axis is the goal)."""
    weights = np.array(reward_weights, dtype=np.float64)

    def compute_reward(achieved_goal: Any, desired_goal: Any, info: Any = None, p: float = 0.5) -> Any:
        return -np.power(np.dot(np.abs(np.asarray(achieved_goal) - np.asarray(desired_goal)), weights), p)

    return compute_reward


class Highway(Family):
    needs = frozenset({"numpy_blas", "numpy_loops"})
    # The lists whose length is the user's: not held to their default's.
    free_length_options = frozenset({"observation.scales", "observation.observation_config.scales", "action.target_speeds", "action.action_config.target_speeds", "reward_weights"})
    # highway-env ported whole: the peers are EnvPool's port (1.2.5 has these
    # ids) and highway-env 1.12.1's own env (pure Python) in a loop and in
    # gymnasium's vector envs. Only in --full (and --tasks).
    benchmark_tasks = tuple(
        BenchmarkTask(name, full=((1, 1, 1), (16, 8, 2)), steps=steps, limit_steps=steps, peers={"gymnasium": f"highway_env:{name}"})
        for name, steps in (("highway-v0", 4000), ("intersection-v1", 4000), ("parking-v0", 8000))
    )

    def resolve_options(self, task_id: str, defaults: Mapping[str, Any], kwargs: dict[str, Any]) -> dict[str, Any]:
        config = kwargs.pop("config", None)
        if config is not None:
            if not isinstance(config, Mapping):
                raise TypeError(f"option 'config' must be a dict (highway-env's config), got {config!r}")
            both = sorted(set(config) & set(kwargs))
            if both:
                raise ValueError(f"{task_id}: {', '.join(map(repr, both))} given both in config= and as an option")
            kwargs = {**config, **kwargs}
        out: dict[str, Any] = {}
        for name, value in kwargs.items():
            if name == "observation":
                out.update(_flatten("observation", "observation", value, OBSERVATION_KEYS, "MultiAgentObservation", "observation_config", _IGNORED_KEYS))
            elif name == "action":
                out.update(_flatten("action", "action", value, ACTION_KEYS, "MultiAgentAction", "action_config", _IGNORED_ACTION_KEYS))
            elif name in ("initial_lane_id", "incoming_vehicle_destination") and value is None:
                out[name] = -1
            elif name == "destination" and value is None:
                out[name] = ""
            else:
                out[name] = _typed(name, value)
        return out

    def players(self, spec: EnvSpec) -> Players | None:
        """The multi-agent tasks (a MultiAgentObservation and a
        MultiAgentAction, with highway-env's per-agent rewards): every agent
        acts at every step; its reward and terminated are
        info["agents_rewards"] and info["agents_terminated"] (the batch's
        are the env's own)."""
        config = spec.config
        multi = config.get("observation.type") == "MultiAgentObservation" and config.get("action.type") == "MultiAgentAction"
        if not multi or "agents_rewards" not in {i["name"] for i in spec.info_specs}:
            return None
        agents = next(i["shape"][0] for i in spec.info_specs if i["name"] == "agents_rewards")
        return Players(agents, turn_based=False, reward_info="agents_rewards", terminated_info="agents_terminated")

    def methods(self, spec: EnvSpec) -> dict[str, Callable[..., Any]]:
        """The parking tasks' compute_reward (goal-conditioned, as
        gymnasium-robotics' tasks)."""
        if spec.task_id not in _PARKING_IDS:
            return {}
        return {"compute_reward": parking_compute_reward(spec.config["reward_weights"])}


family = Highway()
