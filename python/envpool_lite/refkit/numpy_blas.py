"""numpy's BLAS, for the envs that compute dot products and norms as numpy
does (cpp/refkit/numpy/blas.h)."""

from __future__ import annotations

import os


def path() -> str:
    """The BLAS library numpy computes its dot products with (its wheel's
    bundled OpenBLAS), as loaded in this process, or "" when none can be
    found (then the envs' norms sum plain products: see Norm in
    cpp/refkit/gymnasium/mujoco_env.h for why numpy's own ddot is used)."""
    import numpy  # loads numpy's BLAS

    try:
        with open("/proc/self/maps") as f:
            paths = {line.split(None, 5)[5].strip() for line in f if len(line.split(None, 5)) == 6}
    except OSError:
        return ""
    blas = sorted(p for p in paths if "blas" in os.path.basename(p).lower() and ".so" in os.path.basename(p))
    # Other packages bring their own BLAS (scipy's wheels: a 32-bit-int
    # OpenBLAS): numpy's is the one inside numpy's install (numpy.libs).
    site = os.path.dirname(os.path.dirname(os.path.abspath(numpy.__file__)))
    own = [p for p in blas if os.path.basename(os.path.dirname(p)).startswith("numpy") and os.path.dirname(os.path.dirname(p)) == site]
    return (own or blas or [""])[0]
