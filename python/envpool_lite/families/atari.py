"""The Atari family (cpp/envs/atari/): every single-player ALE game, with
EnvPool's preprocessing in C++. Its ROMs come from the installed ale-py
package at make()."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

from envpool_lite import _core
from envpool_lite.families import BenchmarkTask, Family, task_ids


def atari_games() -> list[str]:
    """The Atari games (ALE's ROM names: "pong", "space_invaders", ...), one
    task each (Pong-v5, SpaceInvaders-v5, ...)."""
    return sorted(str(_core.task_defaults(t)["game"]) for t in task_ids("atari"))


def rom_path(task_id: str, game: str) -> str:
    """The ROM of an Atari game, from the installed ale-py package
    (ale_py.roms; the ALE_ROMS_DIR environment variable overrides its folder).
    Raises FileNotFoundError naming the ROM when it is missing."""
    rom = f"{game}.bin"
    try:
        import ale_py.roms
    except ImportError as e:
        raise FileNotFoundError(f"{task_id} needs the ROM {rom!r} from the ale-py package, which is not importable ({e}); install ale-py (the version pyproject.toml pins)") from None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # get_rom_path warns, then returns None
            path = ale_py.roms.get_rom_path(game)
    except OSError as e:  # a missing file or folder, or a ROM that fails its checksum
        raise FileNotFoundError(f"{task_id}: ROM {rom!r} not found or not usable in ale-py's ROM folder ({e})") from None
    if path is None:
        raise FileNotFoundError(f"{task_id}: ROM {rom!r} is not one that the installed ale-py supports")
    return str(path)


class Atari(Family):
    # The game is set by the registration; its ROM's path is found here.
    internal_options = frozenset({"game", "rom_path"})
    extra = "atari"
    requires = {"ale_py": "ale-py"}  # the ROMs
    # EnvPool's defaults on every system (84x84 grayscale, 4 frames stacked,
    # frame_skip 4 with max-pooling, up to 30 no-ops and FIRE at reset,
    # sticky actions off, 27,000-step episodes, unclipped rewards).
    benchmark_tasks = (
        BenchmarkTask(
            "Pong-v5",
            frame_skip=4,
            headline=((1, 1, 1), (16, 8, 2), (16, 16, 2)),
            full=((1, 1, 1), (16, 8, 2), (16, 16, 2), (64, 32, 2)),
            quick=((16, 8, 2),),
            steps=8000,
            limit_steps=8000,
            peers={"gymnasium": "ALE/Pong-v5", "ale_py": "pong"},
        ),
    )

    def fill_internal(self, task_id: str, config: Mapping[str, Any], internal: dict[str, Any]) -> dict[str, Any]:
        return {**internal, "rom_path": rom_path(task_id, internal["game"])}

    def render_resize(self, spec) -> str:
        return "area" if spec.config["use_inter_area_resize"] else "linear"  # as the observation


family = Atari()
