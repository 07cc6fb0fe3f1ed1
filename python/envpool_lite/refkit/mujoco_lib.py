"""The mujoco package as the MuJoCo envs use it (cpp/refkit/mujoco/): its
library, loaded by the C++ envs at make() (the exact version this build was
made for), the layout of a render state (cpp/refkit/mujoco/api.h's
kinematics, which gymnasium's renderer draws), and the headless OpenGL
backend MuJoCo renders with."""

from __future__ import annotations

import glob
import importlib.metadata
import os

from envpool_lite import _core
from envpool_lite.refkit.packages import package_dir


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
    root = package_dir("mujoco")
    if installed is None or root is None:
        raise ImportError(f"{task_id} needs the mujoco package, version {needed} (pip install mujoco=={needed})")
    if installed != needed:
        raise ImportError(f"{task_id} needs mujoco=={needed} (the version envpool_lite was built for), but mujoco {installed} is installed (pip install mujoco=={needed})")
    libs = sorted(glob.glob(os.path.join(root, f"libmujoco.so.{needed}"))) or sorted(glob.glob(os.path.join(root, "libmujoco.so*")))
    if not libs:
        raise ImportError(f"{task_id}: no libmujoco in the mujoco package at {root} (reinstall mujoco=={needed})")
    return libs[0]


def gymnasium_models_dir() -> str:
    """gymnasium's MuJoCo models (gymnasium/envs/mujoco/assets), which the
    MuJoCo tasks and gymnasium-robotics' AntMaze load."""
    root = package_dir("gymnasium")
    if root is None:
        raise FileNotFoundError("the MuJoCo tasks read their models from the gymnasium package, which is not installed")
    return os.path.join(root, "envs", "mujoco", "assets")


# The fields of a render state, in order, with their size per element.
RENDER_FIELDS = (
    ("xpos", "nbody", 3), ("xmat", "nbody", 9), ("subtree_com", "nbody", 3),
    ("geom_xpos", "ngeom", 3), ("geom_xmat", "ngeom", 9),
    ("site_xpos", "nsite", 3), ("site_xmat", "nsite", 9),
    ("cam_xpos", "ncam", 3), ("cam_xmat", "ncam", 9),
    ("light_xpos", "nlight", 3), ("light_xdir", "nlight", 3),
)  # fmt: skip

# MuJoCo's renderer without a display: the first of these that works.
_HEADLESS_BACKENDS = ("egl", "osmesa")
_backend: str | None = None
_backend_errors: dict[str, str] = {}

_PROBE = """
import os, sys
os.environ["MUJOCO_GL"] = sys.argv[1]
import mujoco
ctx = mujoco.GLContext(8, 8)
ctx.make_current()
ctx.free()
"""


def gl_backend(task_id: str) -> str:
    """The headless OpenGL backend MuJoCo renders with: MUJOCO_GL when set,
    else the first of EGL and OSMesa that can make a context (each tried in
    a subprocess, once per process: a failed try can leave PyOpenGL unusable
    for the next one). Raises RuntimeError naming both when neither works."""
    global _backend
    if _backend is not None:
        return _backend
    chosen = os.environ.get("MUJOCO_GL", "").lower()
    if chosen:
        _backend = chosen
        return chosen
    import subprocess
    import sys

    for name in _HEADLESS_BACKENDS:
        try:
            probe = subprocess.run([sys.executable, "-c", _PROBE, name], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as e:
            _backend_errors[name] = type(e).__name__
            continue
        if probe.returncode == 0:
            os.environ["MUJOCO_GL"] = name  # read by gymnasium's renderer (and mujoco's import)
            _backend = name
            return name
        lines = [line for line in probe.stderr.strip().splitlines() if line.strip()]
        _backend_errors[name] = lines[-1].strip() if lines else f"exit status {probe.returncode}"
    tried = "; ".join(f"{k}: {v}" for k, v in _backend_errors.items())
    raise RuntimeError(
        f"{task_id}: rendering a MuJoCo task needs a headless OpenGL backend for MuJoCo's renderer (EGL or OSMesa), "
        f"and none is available here ({tried}). Install one (on Debian: apt-get install libosmesa6, or libegl1 with a GPU driver), "
        "or set MUJOCO_GL to a backend that works; the MuJoCo tasks themselves run without it."
    )
