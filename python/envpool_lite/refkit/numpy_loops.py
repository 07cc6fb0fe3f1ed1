"""numpy's own float64 loops of its math ufuncs, for envs that must compute
as numpy does (see cpp/refkit/numpy/loops.h for why): each ufunc's
inner-loop function and its data, read from the ufunc object (numpy's C
struct PyUFuncObject, whose layout numpy keeps stable for its C API)."""

from __future__ import annotations

import ctypes
import functools

import numpy as np

NAMES = ("exp", "log", "log1p", "cos", "sin", "cosh", "tanh", "arccos", "arccosh", "arcsinh", "arctanh", "arctan2", "power", "arctan", "arcsin", "tan")
# The float32 loops some references run (MyoSuite's muscle activation,
# np.exp of a float32 action), passed as "<name>_float32".
NAMES_FLOAT32 = ("exp",)


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


def loop(name: str, dtype: type = np.float64) -> tuple[int, int]:
    """(function address, data address) of np.<name>'s loop whose inputs
    and outputs are all of `dtype` (float64 unless asked)."""
    ufunc = getattr(np, name)
    return typed_loop(ufunc, name, (dtype,) * ufunc.nargs)


def typed_loop(ufunc: np.ufunc, name: str, dtypes: tuple[type, ...]) -> tuple[int, int]:
    """(function address, data address) of ufunc's loop for its arguments'
    dtypes, in order."""
    s = _UFunc.from_address(id(ufunc))
    if s.name.decode() != name or s.nargs != ufunc.nargs or len(dtypes) != s.nargs:
        raise RuntimeError(f"numpy {np.__version__}: unexpected layout of ufunc {name}")
    nums = [np.dtype(d).num for d in dtypes]
    for i in range(s.ntypes):
        if all(ord(s.types[i * s.nargs + j]) == nums[j] for j in range(s.nargs)):
            return s.functions[i] or 0, (s.data[i] or 0) if s.data else 0
    raise RuntimeError(f"numpy {np.__version__}: {name} has no loop for {[np.dtype(d).name for d in dtypes]}")


@functools.cache
def all_loops() -> dict[str, list[float]]:
    """The "numpy_loops" option: {name: [function, data]} for every name."""
    out = {}
    for name in NAMES:
        fn, data = loop(name)
        assert fn < 2**53 and data < 2**53
        out[name] = [float(fn), float(data)]
    for name in NAMES_FLOAT32:
        fn, data = loop(name, np.float32)
        assert fn < 2**53 and data < 2**53
        out[f"{name}_float32"] = [float(fn), float(data)]
    # numpy.fft.irfft's gufunc (complex128, float64 -> float64): numpy's
    # pocketfft (refkit/numpy/fft.h).
    import importlib

    pocketfft = importlib.import_module("numpy.fft._pocketfft_umath")
    fn, data = typed_loop(pocketfft.irfft, "irfft", (np.complex128, np.float64, np.float64))
    assert fn < 2**53 and data < 2**53
    out["irfft"] = [float(fn), float(data)]
    return out
