"""The myosuite family (cpp/envs/myosuite/): myosuite 2.12.2's
musculoskeletal tasks, bit-exact with myosuite on the MuJoCo it pins
(3.6.0), while the other MuJoCo families run on the mujoco package's version
in the same process.

The C++ envs are built against MuJoCo 3.6.0's headers into a library of
their own (libenvpool_lite_myosuite.so) and load MuJoCo 3.6.0's library,
which the build fetched from the mujoco==3.6.0 wheel by name and put into
this package (envpool_lite/_mujoco/). The models are read from the installed
myosuite package, which is installed without its dependencies (``pip install
--no-deps myosuite==2.12.2``): its own requirements, mujoco 3.6 and
gymnasium below 1.3, would replace what the other families need, and none
of its Python runs here."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Mapping
from typing import Any

from envpool_lite import _core
from envpool_lite.families import BenchmarkTask, Family, NetworkKind

# The MuJoCo myosuite 2.12.2 pins, which the build fetches
# (CMakeLists.txt: envpool_lite_mujoco_version(3.6.0 ...)).
MUJOCO_VERSION = "3.6.0"
MYOSUITE_VERSION = "2.12.2"
INSTALL = f"pip install --no-deps myosuite=={MYOSUITE_VERSION}"


def library_path(task_id: str) -> str:
    """MuJoCo 3.6.0's library, inside this package (beside _core)."""
    here = os.path.dirname(os.path.abspath(_core.__file__))
    path = os.path.join(here, "_mujoco", f"libmujoco.so.{MUJOCO_VERSION}")
    if not os.path.exists(path):
        raise ImportError(f"{task_id}: this build of envpool_lite has no MuJoCo {MUJOCO_VERSION} ({path} is missing: the build could not fetch the mujoco=={MUJOCO_VERSION} wheel)")
    return path


def package_dir(task_id: str) -> str:
    """The installed myosuite package's folder, found without importing it."""
    spec = importlib.util.find_spec("myosuite")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(
            f"{task_id} needs myosuite's models, and myosuite is not installed: {INSTALL} (without its dependencies: it pins mujoco>=3.6,<3.7 and gymnasium<1.3, and envpool_lite brings that MuJoCo itself); the extra is envpool_lite[myosuite]",
            name="myosuite",
        )
    return list(spec.submodule_search_locations)[0]


def _table(name: str, value: Any, width: int) -> dict[str, tuple[float, ...]]:
    """{key: numbers} (nested tuples flattened) as the typed table, each
    entry `width` numbers."""
    if not isinstance(value, Mapping):
        raise TypeError(f"option '{name}' must be a dict {{name: ...}}, got {type(value).__name__}")
    out = {}
    for key, numbers in value.items():
        flat: list[float] = []
        stack = [numbers]
        while stack:
            item = stack.pop()
            if isinstance(item, (list, tuple)) or hasattr(item, "tolist"):
                items = item.tolist() if hasattr(item, "tolist") else item
                if isinstance(items, (list, tuple)):
                    stack.extend(reversed(items))
                    continue
                item = items
            flat.append(float(item))
        if width and len(flat) != width:
            raise ValueError(f"option '{name}': {width} numbers needed for '{key}', got {len(flat)}")
        out[str(key)] = tuple(flat)
    return out


# MyoDM's reference (myosuite's logger/reference_motion.py): its keys, the
# number of dimensions ReferenceMotion.check_format asks of each, and the
# width of a row (the MyoHand's 29 joints; the object's position and
# quaternion; object_init may give Euler angles instead).
_REFERENCE: dict[str, tuple[int | None, tuple[int, ...]]] = {
    "time": (None, ()),
    "robot": (2, (29,)),
    "robot_vel": (2, (29,)),
    "object": (2, (7,)),
    "robot_init": (1, (29,)),
    "object_init": (1, (6, 7)),
}


def _reference(name: str, value: Any, strict: bool = True) -> dict[str, tuple[float, ...]]:
    """A MyoDM reference ({time, robot, robot_vel, object, robot_init,
    object_init}: numpy arrays or nested sequences) as the typed table, each
    array flattened row by row (the env reads the rows by their width).
    `strict`: an unknown key is an error (a file's other arrays are ignored,
    as ReferenceMotion ignores them)."""
    import numpy as np

    if not isinstance(value, Mapping):
        raise TypeError(f"option '{name}' must be a dict {{time, robot, robot_vel, object, robot_init, object_init}} or a file's path, got {type(value).__name__}")
    out = {}
    for key, v in value.items():
        if key not in _REFERENCE:
            if strict:
                raise ValueError(f"option '{name}': no key {key!r} in a reference ({', '.join(_REFERENCE)})")
            continue
        if v is None:  # ReferenceMotion: None as absent
            continue
        a = np.asarray(v, dtype=np.float64)
        ndim, widths = _REFERENCE[key]
        # A 2-d array's rows, or the rows already flattened (the typed form).
        if ndim is not None and not (a.ndim == ndim and a.shape[-1] in widths) and not (ndim == 2 and a.ndim == 1):
            raise ValueError(f"option '{name}': {key!r} must have shape {'(n, ' if ndim == 2 else '('}{' or '.join(map(str, widths))}), got {a.shape}")
        out[str(key)] = tuple(float(x) for x in a.ravel())
    return out


def _reference_file(task_id: str, path: str) -> dict[str, tuple[float, ...]]:
    """The reference that ReferenceMotion.load reads from an .npz (np.load) or
    a pickle (.pkl, .pickle) file, as the typed table."""
    import numpy as np

    ext = path.split(".")[-1]
    if ext not in ("npz", "pkl", "pickle"):
        raise ValueError(f"option 'reference_path': {path} is not an .npz, .pkl or .pickle file (myosuite's ReferenceMotion reads those)")
    if not os.path.exists(path):
        raise FileNotFoundError(f"{task_id}: reference file {path} does not exist")
    if ext == "npz":
        with np.load(path) as data:
            reference = {k: v for k, v in data.items()}
    else:
        import pickle

        with open(path, "rb") as f:
            reference = pickle.load(f)
    return _reference("reference_path", reference, strict=False)


def _gait_cycle(task_id: str, config: Mapping[str, Any]) -> dict[str, tuple[float, ...]]:
    """Run track's init_pose_path as RunTrack._setup reads it
    (np.loadtxt(path, skiprows=1, delimiter=","), and its columns' names
    from csv.DictReader's first row): {name: the column's values}; {}
    without a file (myosuite's None), or for a file whose rows do not fit
    its names when reset_type is not "osl_init" (which alone reads them).
    The registered path is relative to the myosuite package."""
    import csv

    import numpy as np

    path = config.get("init_pose_path", "")
    if not path:
        return {}
    if not os.path.isabs(path):
        path = os.path.join(package_dir(task_id), path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"{task_id}: init_pose_path {path} does not exist")
    data = np.loadtxt(path, skiprows=1, delimiter=",")
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise ValueError(f"option 'init_pose_path': {path} has no rows (myosuite's RunTrack fails reading it)")
    columns = dict(zip(rows[0].keys(), range(len(rows[0]))))
    if data.ndim != 2 or None in columns or len(columns) > data.shape[1]:
        if config.get("reset_type") == "osl_init":
            raise ValueError(f"option 'init_pose_path': {path} needs two or more rows of one number per named column (myosuite's initializeFromData fails on it)")
        return {}
    return {str(name): tuple(float(x) for x in data[:, i]) for name, i in columns.items()}


class Myosuite(Family):
    # Its own MuJoCo (above); MyoDM's reference file, as make() reads it;
    # chase tag's relief patch (the package's myo_relief.npy); run track's
    # gait cycle (init_pose_path), as make() reads it.
    internal_options = frozenset({"mujoco_model", "mujoco_lib", "reference_data", "init_pose_data", "relief_npy"})
    needs = frozenset({"numpy_loops", "numpy_blas"})
    # Run track's difficulties: one per patch of the track, as many as the
    # user's.
    free_length_options = frozenset({"hills_difficulties", "rough_difficulties", "stairs_difficulties"})
    extra = "myosuite"
    # myosuite itself is installed with --no-deps (see above), so the extra
    # cannot name it: make() checks for it (package_dir) and says how.
    requires: Mapping[str, str] = {}
    # The peers: EnvPool's port (the same ids) and myosuite's own env in a
    # loop, in its own environment (benchmarks/peers/myosuite.py). Only in
    # --full (and --tasks).
    benchmark_tasks = tuple(
        BenchmarkTask(name, full=((1, 1, 1), (16, 8, 2)), steps=steps, limit_steps=steps, peers={"myosuite": name})
        for name, steps in (("myoElbowPose1D6MRandom-v0", 40000), ("myoHandReachRandom-v0", 8000), ("myoLegWalk-v0", 4000))
    )

    def resolve_options(self, task_id: str, defaults: Mapping[str, Any], kwargs: dict[str, Any]) -> dict[str, Any]:
        # myosuite's forms: weighted_reward_keys {term: weight},
        # target_jnt_range {joint: (low, high)}, target_reach_range
        # {site: ((low xyz), (high xyz))}.
        out = dict(kwargs)
        if "weighted_reward_keys" in out and isinstance(out["weighted_reward_keys"], Mapping):
            out["weighted_reward_keys"] = _table("weighted_reward_keys", out["weighted_reward_keys"], 1)
        if "target_jnt_range" in out and isinstance(out["target_jnt_range"], Mapping):
            out["target_jnt_range"] = _table("target_jnt_range", out["target_jnt_range"], 2)
        if "target_reach_range" in out and isinstance(out["target_reach_range"], Mapping):
            out["target_reach_range"] = _table("target_reach_range", out["target_reach_range"], 6)
        # MyoChallenge's {"high": ..., "low": ...} ranges (relocate).
        # Table tennis' too (its qpos_noise_range: scalars low and high).
        table_tennis = "ball_xyz_range" in defaults
        ranges: tuple[str, ...] = ("target_xyz_range", "target_rxryrz_range", "obj_xyz_range", "obj_geom_range", "obj_mass_range", "obj_friction_range")
        if table_tennis:
            ranges += ("ball_xyz_range", "ball_friction_range", "qpos_noise_range")
        for name in ranges:
            if isinstance(out.get(name), Mapping):
                out[name] = _table(name, out[name], 0)
        for name in (
            "target_jnt_value",
            "fatigue_reset_vec",
            "weight_range",
            "joint_random_range",
            "target_rot",
            "key_init_range",
            "goal_pos",
            "goal_rot",
            "obj_mass_range",
            "obj_friction_change",
            "goal_time_period",
            "goal_xrange",
            "goal_yrange",
            "obj_size_range",
            "paddle_mass_range",
            "goalkeeper_probabilities",
            "random_vel_range",
            "opponent_probabilities",
            "chase_vel_range",
            "repeller_vel_range",
            "hills_range",
            "rough_range",
            "relief_range",
        ):
            if name in out and hasattr(out[name], "tolist"):
                out[name] = tuple(float(x) for x in out[name].tolist())
        # MyoDM's reference: a dict (the typed table), or a file's path
        # (reference_path: a user's relative to the working directory, as
        # myosuite opens it).
        if "reference_path" not in defaults:
            pass
        elif isinstance(out.get("reference"), (str, os.PathLike)):
            out["reference_path"] = os.path.abspath(os.fspath(out["reference"]))
            out["reference"] = {}
        elif isinstance(out.get("reference"), Mapping):
            out["reference"] = _reference("reference", out["reference"])
            out["reference_path"] = ""
        elif out.get("reference_path"):
            out.setdefault("reference", {})
        # Run track's gait cycle: a user's path relative to the working
        # directory, as myosuite opens it; None (or "") is no file.
        if "init_pose_path" in defaults:
            if "init_pose_path" in out:
                path = out["init_pose_path"]
                out["init_pose_path"] = "" if path is None or path == "" else os.path.abspath(os.fspath(path))
            for name in ("hills_difficulties", "rough_difficulties", "stairs_difficulties"):
                if name in out and hasattr(out[name], "tolist"):
                    out[name] = tuple(float(x) for x in out[name].tolist())
        # myosuite's None: the option's empty value.
        none_empty: list[tuple[str, Any]] = [("muscle_condition", ""), ("variant", ""), ("target_rot", ())]
        if table_tennis:  # None is no randomisation
            none_empty += [("qpos_noise_range", {}), ("ball_xyz_range", {}), ("ball_friction_range", {}), ("paddle_mass_range", ()), ("ball_qvel", False)]
        elif "qpos_noise_range" in defaults:  # relocate: None is no offset
            none_empty += [("qpos_noise_range", 0.0), ("obj_xyz_range", {}), ("obj_geom_range", {}), ("obj_mass_range", {}), ("obj_friction_range", {})]
        if "obj_size_range" in defaults:  # Baoding: None is no randomisation
            none_empty += [("obj_size_range", ()), ("obj_mass_range", ()), ("obj_friction_change", ())]
        if "obj_scale_change" in defaults:  # Bimanual: None is no change
            none_empty += [("obj_scale_change", ()), ("obj_mass_change", ()), ("obj_friction_change", ())]
        for name, empty in none_empty:
            if name in out and out[name] is None:
                out[name] = empty
        return out

    def fill_internal(self, task_id: str, config: Mapping[str, Any], internal: dict[str, Any]) -> dict[str, Any]:
        model = os.path.join(package_dir(task_id), internal["mujoco_model"])
        if not os.path.exists(model):
            raise FileNotFoundError(f"{task_id}: model file {model} does not exist (myosuite=={MYOSUITE_VERSION} has it)")
        if "reference_data" in internal and config.get("reference_path"):
            path = config["reference_path"]
            internal = {**internal, "reference_data": _reference_file(task_id, path if os.path.isabs(path) else os.path.join(package_dir(task_id), path))}
        if "relief_npy" in internal:
            internal = {**internal, "relief_npy": os.path.join(package_dir(task_id), internal["relief_npy"])}
        if "init_pose_data" in internal:
            internal = {**internal, "init_pose_data": _gait_cycle(task_id, config)}
        return {**internal, "mujoco_model": model, "mujoco_lib": library_path(task_id)}

    def network_kind(self, spec: Any) -> NetworkKind:
        return NetworkKind.CONTROL


family = Myosuite()
