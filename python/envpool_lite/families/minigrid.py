"""The MiniGrid family (cpp/envs/minigrid/): minigrid 3.2.0's grid worlds,
bit-exact with its own envs. This module takes minigrid's forms of the
options (None for a random position) and decodes the mission.

minigrid's observation wrappers are options of every task (C++:
minigrid_env.h's ViewOptions; docs/families/minigrid.md):

- ``FullyObsWrapper``: ``fully_obs=True``;
- ``RGBImgPartialObsWrapper(tile_size=t)``: ``rgb_img=True, rgb_tile_size=t``;
- ``RGBImgObsWrapper(tile_size=t)``: ``rgb_img=True, fully_obs=True,
  rgb_tile_size=t``;
- ``ImgObsWrapper``: ``image_only=True`` (the observation is the image alone).

render() (render_mode="rgb_array") is minigrid's env.render(), with its
constructor's ``tile_size`` (32), ``highlight`` (True) and ``agent_pov``
(False)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from envpool_lite.families import BenchmarkTask, Family, NetworkKind

if TYPE_CHECKING:
    from envpool_lite.spec import EnvSpec

#: The options that are a position (x, y), or None for a random one.
POSITION_OPTIONS = ("agent_start_pos", "agent_pos", "goal_pos")
#: BabyAI's string options whose None means "drawn at random" ("" here).
NONE_STRING_OPTIONS = ("select_by", "first_color", "second_color")


def decode_mission(mission: np.ndarray) -> str | list[str]:
    """The mission string(s) of an observation's "mission" field: UTF-8
    bytes, zero-padded (one env's row, or a batch of rows)."""
    array = np.asarray(mission, dtype=np.uint8)
    if array.ndim == 1:
        return array.tobytes().rstrip(b"\0").decode("utf-8")
    return [row.tobytes().rstrip(b"\0").decode("utf-8") for row in array.reshape(-1, array.shape[-1])]


class Minigrid(Family):
    # Set by the registration (which of a class's levels: Unlock's three
    # tasks, BabyAI's level families), not by users.
    internal_options = frozenset({"variant"})
    extra = "minigrid"  # nothing to install: the envs and their drawing are compiled in
    # minigrid 3.2.0's observation dict (the 7x7x3 view, the direction, the
    # mission). The peers: EnvPool's MiniGrid, and minigrid's own env in a
    # loop and in gymnasium's SyncVectorEnv. Only in --full (and --tasks).
    benchmark_tasks = tuple(
        BenchmarkTask(name, full=((1, 1, 1), (16, 8, 2), (16, 16, 2)), steps=200_000, limit_steps=1_000_000, peers={"gymnasium": f"minigrid:{name}"})
        for name in ("MiniGrid-DoorKey-8x8-v0", "MiniGrid-FourRooms-v0", "BabyAI-GoToLocal-v0")
    )

    def resolve_options(self, task_id: str, defaults: Mapping[str, Any], kwargs: dict[str, Any]) -> dict[str, Any]:
        for name in POSITION_OPTIONS:
            if name in kwargs and name in defaults and kwargs[name] is None:
                kwargs[name] = ()
        for name in NONE_STRING_OPTIONS:
            if name in kwargs and name in defaults and kwargs[name] is None:
                kwargs[name] = ""
        if "max_steps" in kwargs and kwargs["max_steps"] is None:
            kwargs["max_steps"] = -1  # the task's default
        return kwargs

    def network_kind(self, spec: EnvSpec) -> NetworkKind:
        # The agent's view as minigrid's image of ids (object, colour, state
        # per cell; ImgObsWrapper's, image_only=True), not pixels.
        return NetworkKind.GRID


family = Minigrid()
