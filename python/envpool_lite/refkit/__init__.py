"""The Python side of the layer that reproduces the reference libraries
(cpp/refkit/): what the C++ envs take from the reference libraries installed
in this process, found at make(). ``numpy_loops`` and ``numpy_blas``: numpy's
own ufunc loops and BLAS; ``mujoco_lib``: the mujoco package's library, the
layout of a MuJoCo render state and the headless OpenGL backend. The
families import from here, never from each other."""

from __future__ import annotations

import importlib.util


def package_dir(name: str) -> str | None:
    """The folder of an installed package, found without importing it, or
    None when it is not installed."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return list(spec.submodule_search_locations)[0]
