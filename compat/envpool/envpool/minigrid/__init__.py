"""EnvPool's envpool.minigrid: its spec and pool class names, and
decode_mission for code that decodes a mission byte buffer (envpool_lite's
observation carries the mission as bytes too: see docs/families/minigrid.md)."""

from typing import Any

import numpy as np

from envpool import GymnasiumEnvPool as MiniGridGymnasiumEnvPool  # noqa: F401
from envpool_lite import EnvSpec as MiniGridEnvSpec  # noqa: F401


def _decode_row(row: Any) -> str:
    if isinstance(row, (str, bytes)):
        return row.decode() if isinstance(row, bytes) else row
    mission = np.asarray(row, dtype=np.uint8).reshape(-1)
    zero = np.flatnonzero(mission == 0)
    return bytes(mission[: int(zero[0]) if zero.size else len(mission)]).decode()


def decode_mission(mission: Any) -> Any:
    """A mission (its bytes, or a string) as a string; a batch of them as an
    object array of strings."""
    arr = np.asarray(mission)
    if arr.ndim == 0 or (arr.ndim == 1 and arr.dtype == np.uint8):
        return _decode_row(arr.item() if arr.ndim == 0 else arr)
    return np.asarray([_decode_row(row) for row in arr], dtype=object)
