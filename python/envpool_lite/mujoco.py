"""The MuJoCo tasks' files: the MJCF models of the installed gymnasium
package (gymnasium/envs/mujoco/assets) and the MuJoCo library of the
installed mujoco package (libmujoco.so.X, the exact version this build was
made for, which the C++ envs load at make())."""

from __future__ import annotations

import glob
import importlib.metadata
import importlib.util
import os
from typing import Any, Mapping

from envpool_lite import _core

# The tasks (each as -v5 and -v4).
TASKS = (
    "Ant",
    "HalfCheetah",
    "Hopper",
    "Humanoid",
    "HumanoidStandup",
    "InvertedDoublePendulum",
    "InvertedPendulum",
    "Pusher",
    "Reacher",
    "Swimmer",
    "Walker2d",
)
TASK_IDS = tuple(f"{t}-v{v}" for t in TASKS for v in (5, 4))


def _package_dir(name: str) -> str | None:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return list(spec.submodule_search_locations)[0]


def assets_dir() -> str:
    """gymnasium's MuJoCo models."""
    root = _package_dir("gymnasium")
    if root is None:
        raise FileNotFoundError("the MuJoCo tasks read their models from the gymnasium package, which is not installed")
    return os.path.join(root, "envs", "mujoco", "assets")


def model_path(task_id: str, xml_file: str) -> str:
    """gymnasium's expand_model_path: a path starting with '.' or '/' as is,
    '~' expanded, else a file of gymnasium's assets folder."""
    if xml_file.startswith(".") or xml_file.startswith("/"):
        path = xml_file
    elif xml_file.startswith("~"):
        path = os.path.expanduser(xml_file)
    else:
        path = os.path.join(assets_dir(), xml_file)
    if not os.path.exists(path):
        raise FileNotFoundError(f"{task_id}: model file {path} does not exist")
    return os.path.abspath(path)


def library_path(task_id: str) -> str:
    """The installed mujoco package's libmujoco, after checking that its
    version is the one this build of envpool_lite was made for."""
    needed = _core.MUJOCO_VERSION
    if not needed:
        raise ImportError(f"{task_id}: this build of envpool_lite has no MuJoCo envs (mujoco was not installed when it was built); pip install the mujoco version pyproject.toml pins, then rebuild")
    try:
        installed = importlib.metadata.version("mujoco")
    except importlib.metadata.PackageNotFoundError:
        installed = None
    root = _package_dir("mujoco")
    if installed is None or root is None:
        raise ImportError(f"{task_id} needs the mujoco package, version {needed} (pip install mujoco=={needed})")
    if installed != needed:
        raise ImportError(f"{task_id} needs mujoco=={needed} (the version envpool_lite was built for), but mujoco {installed} is installed (pip install mujoco=={needed})")
    libs = sorted(glob.glob(os.path.join(root, f"libmujoco.so.{needed}"))) or sorted(glob.glob(os.path.join(root, "libmujoco.so*")))
    if not libs:
        raise ImportError(f"{task_id}: no libmujoco in the mujoco package at {root} (reinstall mujoco=={needed})")
    return libs[0]


def resolve_paths(task_id: str, config: Mapping[str, Any], internal: Mapping[str, Any]) -> dict[str, str]:
    """The internal options of a MuJoCo task: its model file (xml_file where
    the task takes one) and the MuJoCo library."""
    xml_file = config.get("xml_file", internal["mujoco_model"])
    if not isinstance(xml_file, str) or not xml_file:
        raise TypeError(f"option 'xml_file' must be a non-empty str, got {xml_file!r}")
    return {"mujoco_lib": library_path(task_id), "mujoco_model": model_path(task_id, xml_file)}
