"""The Python side of the layer that reproduces the reference libraries
(cpp/refkit/): what the C++ envs take from the reference libraries installed
in this process, found at make(). ``numpy_loops`` and ``numpy_blas``: numpy's
own ufunc loops and BLAS; ``mujoco_lib``: the mujoco package's library, the
layout of a MuJoCo render state and the headless OpenGL backend. The
families import from here, never from each other.

A family declares what its envs take from here (``Family.needs``, names of
:data:`NEEDS`), and make() fills an internal option of each name
(:func:`fill`) before the family's own ``fill_internal``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from envpool_lite.refkit import mujoco_lib, numpy_blas, numpy_loops


def _numpy_blas(task_id: str) -> str:
    return numpy_blas.path()


def _numpy_loops(task_id: str) -> dict[str, list[float]]:
    return numpy_loops.all_loops()


#: What an env can take from the reference libraries installed here, by the
#: name of the option that carries it: numpy's BLAS library (its path),
#: numpy's float64 ufunc loops ({name: [function, data]}), and the mujoco
#: package's libmujoco (its path, checked against the version this build
#: was made for).
NEEDS: dict[str, Callable[[str], Any]] = {"numpy_blas": _numpy_blas, "numpy_loops": _numpy_loops, "mujoco_lib": mujoco_lib.library_path}


def fill(needs: Iterable[str], task_id: str) -> dict[str, Any]:
    """The options of ``needs`` (names of :data:`NEEDS`) for ``task_id``."""
    unknown = sorted(set(needs) - set(NEEDS))
    if unknown:
        raise ValueError(f"{task_id}: unknown need(s) {', '.join(map(repr, unknown))}; envpool_lite.refkit provides {', '.join(sorted(NEEDS))}")
    return {name: NEEDS[name](task_id) for name in sorted(needs)}
