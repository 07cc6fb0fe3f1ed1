"""numpy's own float64 loops of its math ufuncs, for envs that must compute
as numpy does (see cpp/refkit/numpy/loops.h for why): each ufunc's
inner-loop function and its data, read from the ufunc object (numpy's C
struct PyUFuncObject, whose layout numpy keeps stable for its C API)."""

from __future__ import annotations

import ctypes
import functools

import numpy as np

NAMES = ("exp", "log", "log1p", "cos", "sin", "cosh", "tanh", "arccos", "arccosh", "arcsinh", "arctanh", "arctan2", "power", "arctan", "arcsin", "tan")


class _UFunc(ctypes.Structure):
    # numpy/_core/include/numpy/ufuncobject.h, the start of PyUFuncObject.
    _fields_ = [
        ("ob_refcnt", ctypes.c_ssize_t),
        ("ob_type", ctypes.c_void_p),
        ("nin", ctypes.c_int),
        ("nout", ctypes.c_int),
        ("nargs", ctypes.c_int),
        ("identity", ctypes.c_int),
        ("functions", ctypes.POINTER(ctypes.c_void_p)),
        ("data", ctypes.POINTER(ctypes.c_void_p)),
        ("ntypes", ctypes.c_int),
        ("reserved1", ctypes.c_int),
        ("name", ctypes.c_char_p),
        ("types", ctypes.POINTER(ctypes.c_char)),
    ]


def loop(name: str) -> tuple[int, int]:
    """(function address, data address) of np.<name>'s all-float64 loop."""
    ufunc = getattr(np, name)
    s = _UFunc.from_address(id(ufunc))
    if s.name.decode() != name or s.nargs != ufunc.nargs:
        raise RuntimeError(f"numpy {np.__version__}: unexpected layout of ufunc {name}")
    double = np.dtype(np.float64).num
    for i in range(s.ntypes):
        if all(ord(s.types[i * s.nargs + j]) == double for j in range(s.nargs)):
            return s.functions[i] or 0, (s.data[i] or 0) if s.data else 0
    raise RuntimeError(f"numpy {np.__version__}: np.{name} has no float64 loop")


@functools.cache
def all_loops() -> dict[str, list[float]]:
    """The "numpy_loops" option: {name: [function, data]} for every name."""
    out = {}
    for name in NAMES:
        fn, data = loop(name)
        assert fn < 2**53 and data < 2**53
        out[name] = [float(fn), float(data)]
    return out
