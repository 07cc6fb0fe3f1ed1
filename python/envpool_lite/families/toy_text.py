"""The toy-text family (cpp/envs/toy_text/): gymnasium's FrozenLake, Taxi,
CliffWalking and Blackjack, and EnvPool's NChain and Catch.

Options: FrozenLake's ``desc`` comes in the forms gymnasium accepts (a list
of str rows, a list of lists of one-letter str or bytes, a numpy array of
bytes) and becomes a tuple of str rows; ``desc=None`` means "not given".
``map_name=None`` without a ``desc`` asks gymnasium for a random map drawn
from unseeded entropy, which no seed reproduces: it is refused, with the
seeded alternative in the message.

Pictures: the gymnasium envs are drawn by gymnasium's own renderer. Each C++
env hands over what that renderer reads (``Env::RenderState``: the state,
the last action, Taxi's taxi orientation, Blackjack's hand and the dealer
card's suit and face), which is set on one gymnasium env of the same kind
made with ``render_mode="rgb_array"`` before calling its render(), so a
picture is gymnasium's, pixel for pixel. pygame is imported only when a pool
renders (``pip install envpool_lite[render]``). Catch (EnvPool's; neither
EnvPool nor gymnasium draws it) is its board scaled up, white on black;
NChain has no picture.
"""

from __future__ import annotations

import collections.abc
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from envpool_lite.families import BenchmarkTask, Family

if TYPE_CHECKING:
    from envpool_lite.spec import EnvSpec

_RANDOM_MAP = (
    "FrozenLake with map_name=None and no desc would draw a random map from unseeded entropy, "
    "which no seed reproduces; pass the map instead: "
    "desc=gymnasium.envs.toy_text.frozen_lake.generate_random_map(size=8, p=0.8, seed=...)"
)


def env_name(task_id: str) -> str:
    """The env a task id names: "FrozenLake", "Taxi", "CliffWalking",
    "Blackjack", "NChain" or "Catch" (EnvPool's "tabular/" aliases name the
    same envs)."""
    name = task_id.removeprefix("tabular/").rsplit("-v", 1)[0]
    return {"FrozenLake8x8": "FrozenLake", "CliffWalkingSlippery": "CliffWalking"}.get(name, name)


def _tile(row: int, cell: Any) -> str:
    if isinstance(cell, (bytes, np.bytes_)):
        cell = _decode(row, cell)
    if not isinstance(cell, str) or len(cell) != 1:
        raise TypeError(f"option 'desc' row {row} must be a str, or a list of one-letter str or bytes, got a tile {cell!r}")
    return cell


def _decode(row: int, value: bytes) -> str:
    try:
        return bytes(value).decode("ascii")
    except UnicodeDecodeError:
        raise ValueError(f"option 'desc' row {row} is not ASCII: {value!r}") from None


def desc_rows(desc: Any) -> tuple[str, ...]:
    """FrozenLake's desc in any form gymnasium accepts (np.asarray(desc,
    dtype="c") reads: a list of str or bytes rows, a list of lists of
    one-letter str or bytes, a 1-D or 2-D numpy array of str or bytes) as a
    tuple of str rows. Raises TypeError/ValueError naming 'desc'."""
    if isinstance(desc, (str, bytes)):
        raise TypeError(f"option 'desc' must be a list of rows, e.g. ['SFFF', 'FHFH', 'FFFH', 'HFFG'], got the single {type(desc).__name__} {desc!r}")
    if isinstance(desc, np.ndarray):
        if desc.dtype.kind not in "SU" or desc.ndim not in (1, 2):
            raise TypeError(f"option 'desc' as a numpy array must be 1-D (rows) or 2-D (tiles) of str or bytes, got dtype {desc.dtype} and shape {desc.shape}")
        rows = list(desc)
    elif isinstance(desc, collections.abc.Sequence):
        rows = list(desc)
    else:
        raise TypeError(f"option 'desc' must be a list of rows (str), got {type(desc).__name__}")
    if not rows:
        raise ValueError("option 'desc' must have at least one row (desc=None means: the map named by map_name)")
    out = []
    for i, row in enumerate(rows):
        if isinstance(row, (bytes, np.bytes_)):
            row = _decode(i, row)
        elif isinstance(row, str):
            row = str(row)
        elif isinstance(row, (collections.abc.Sequence, np.ndarray)):
            row = "".join(_tile(i, cell) for cell in row)
        else:
            raise TypeError(f"option 'desc' row {i} must be a str, or a list of one-letter str or bytes, got {row!r}")
        out.append(row)
    return tuple(out)


class ToyTextRenderer:
    """Draws states of one gymnasium toy-text task with gymnasium's renderer."""

    def __init__(self, spec: EnvSpec):
        # No window is opened for rgb_array; a dummy video driver keeps pygame
        # from looking for a display at all.
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        try:
            import pygame  # noqa: F401
        except ImportError:
            raise ImportError(f"rendering {spec.task_id} needs pygame: pip install 'envpool_lite[render]'") from None
        from gymnasium.envs.toy_text import BlackjackEnv, CliffWalkingEnv, FrozenLakeEnv, TaxiEnv

        # The env classes themselves: Taxi-v3, CliffWalking-v0 and the
        # "tabular/" ids are not (or not these envs) in gymnasium 1.4's
        # registry, and the picture depends on the map only.
        self._name = env_name(spec.task_id)
        self._env: Any  # the gymnasium env whose attributes are set
        config = spec.config
        if self._name == "FrozenLake":
            desc = list(config["desc"]) or None
            self._env = FrozenLakeEnv(render_mode="rgb_array", desc=desc, map_name=config["map_name"])
        elif self._name == "Taxi":
            self._env = TaxiEnv(render_mode="rgb_array")
        elif self._name == "CliffWalking":
            self._env = CliffWalkingEnv(render_mode="rgb_array")
        else:
            self._env = BlackjackEnv(render_mode="rgb_array")

    def _set_state(self, s: np.ndarray) -> None:
        env = self._env
        if self._name == "Blackjack":
            # The player's hand as gymnasium's helpers read it: its sum (aces
            # as 1) and whether it holds an ace; the dealer's face-up card.
            total, has_ace, dealer, suit, face = (int(v) for v in s[:5])
            env.player = [1, total - 1] if has_ace else [total]
            env.dealer = [dealer]
            env.dealer_top_card_suit = "CDHS"[suit]
            env.dealer_top_card_value_str = "A" if dealer == 1 else "JQK"[face] if dealer == 10 else str(dealer)
            return
        env.s = int(s[0])
        env.lastaction = None if s[1] < 0 else int(s[1])
        if self._name == "Taxi":
            env.taxi_orientation = int(s[2])

    def draw(self, states: np.ndarray, env_ids: np.ndarray) -> np.ndarray:
        """(n, H, W, 3) uint8 pictures of n states (rows of render_state;
        env_ids unused: the picture depends on the state only)."""
        frames = []
        for state in states:
            self._set_state(state)
            frames.append(np.asarray(self._env.render()))
        return np.stack(frames)

    def close(self) -> None:
        self._env.close()


class CatchRenderer:
    """Catch's board (the observation: 1 where the ball and the paddle are),
    each cell a square of up to 32 pixels, white on black."""

    def __init__(self, spec: EnvSpec):
        self._height = spec.config["height"]
        self._width = spec.config["width"]
        self.cell = max(1, min(32, 512 // max(self._height, self._width)))

    def draw(self, states: np.ndarray, env_ids: np.ndarray) -> np.ndarray:
        n, c = len(states), self.cell
        boards = np.zeros((n, self._height, self._width), np.uint8)
        for i, (ball_row, ball_col, paddle) in enumerate(states[:, :3].astype(np.int64)):
            boards[i, ball_row, ball_col] = 255
            boards[i, self._height - 1, paddle] = 255
        pixels = boards.repeat(c, axis=1).repeat(c, axis=2)
        return np.repeat(pixels[..., None], 3, axis=3)

    def close(self) -> None:
        pass


class ToyText(Family):
    # Tabular, the lightest steps (the pool's own overhead): the round trip
    # (1:1:1) and async 256:128:2, with CartPole's sync 16 for gymnasium's
    # SyncVectorEnv. gymnasium 1.4 has no Taxi-v3 (EnvPool's id): Taxi-v4 is
    # the same taxi without rain or a fickle passenger.
    benchmark_tasks = (
        BenchmarkTask("FrozenLake-v1", headline=((1, 1, 1), (16, 16, 2), (256, 128, 2)), quick=((1, 1, 1), (256, 128, 2)), peers={"gymnasium": "FrozenLake-v1"}),
        BenchmarkTask("Taxi-v3", headline=((1, 1, 1), (16, 16, 2), (256, 128, 2)), quick=((1, 1, 1), (256, 128, 2)), peers={"gymnasium": "Taxi-v4"}),
    )

    def resolve_options(self, task_id: str, defaults: Mapping[str, Any], kwargs: dict[str, Any]) -> dict[str, Any]:
        if "desc" in defaults:  # FrozenLake
            if kwargs.get("desc", 0) is None:
                del kwargs["desc"]
            elif "desc" in kwargs:
                kwargs["desc"] = desc_rows(kwargs["desc"])
            if "map_name" in kwargs and kwargs["map_name"] is None:
                if "desc" not in kwargs:
                    raise ValueError(_RANDOM_MAP)
                del kwargs["map_name"]  # gymnasium ignores map_name when desc is given
        if task_id == "Taxi-v3":
            for name in ("rainy_probability", "fickle_probability"):
                if name in kwargs:
                    raise TypeError(
                        f"option {name!r} is Taxi-v4's (gymnasium 1.3 added it when it fixed is_rainy and fickle_passenger); "
                        "Taxi-v3 is gymnasium 1.2's taxi, whose rain (0.8) and fickle passenger (0.3) are fixed: use Taxi-v4"
                    )
        return kwargs

    def check_render(self, spec: EnvSpec) -> None:
        if env_name(spec.task_id) == "NChain":
            raise ValueError(f"{spec.task_id} cannot be rendered: it has no picture (EnvPool draws none, and gymnasium has no NChain)")

    def make_renderer(self, spec: EnvSpec):
        self.check_render(spec)
        if env_name(spec.task_id) == "Catch":
            return CatchRenderer(spec)
        return ToyTextRenderer(spec)


family = ToyText()
