"""The Box2D family (cpp/envs/box2d/): gymnasium's LunarLander,
BipedalWalker and CarRacing, with EnvPool's ids, on the Box2D 2.3 C++ that
gymnasium's box2d wheel runs (built from box2d-py's source distribution,
third_party/box2d.cmake). Every picture is drawn in C++, in the worker
thread, reproducing pygame-ce's drawing arithmetic
(cpp/refkit/pygame/draw.h).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np

from envpool_lite.families import BenchmarkTask, Family

# CarRacing's reward counter: the characters f"{reward:04.0f}" can give (a
# finite reward), in the order of cpp/envs/box2d/car_racing.h's RewardFont.
REWARD_FONT_CHARS = "-0123456789"
# The pygame.font.Font size car_racing.py's _render uses.
REWARD_FONT_SIZE = 42


def _render_text(font, text: str) -> np.ndarray:
    """font.render(text, True, white, black) as car_racing.py draws it: the
    (height, width) gray levels of its pixels (SDL_ttf's shaded line, whose
    palette entry i is the color (i, i, i))."""
    import pygame

    rgb = pygame.surfarray.array3d(font.render(text, True, (255, 255, 255), (0, 0, 0)))
    if not ((rgb[..., 0] == rgb[..., 1]).all() and (rgb[..., 0] == rgb[..., 2]).all()):
        raise RuntimeError("CarRacing: pygame's font renders white on black with colors that are not gray")
    return np.ascontiguousarray(rgb[..., 0].T)


class RewardFontData:
    """reward_font's values (the layout car_racing.h's RewardFont reads):
    the line height, each glyph's width, alone advance and bitmap, and the
    advances between glyph pairs (1/64 px)."""

    def __init__(self, data: tuple[float, ...]):
        n = len(REWARD_FONT_CHARS)
        self.height = int(data[0])
        self.widths = [int(v) for v in data[1 : 1 + n]]
        self.advance = [int(v) for v in data[1 + n : 1 + 2 * n]]
        self.pairs = [[int(v) for v in data[1 + 2 * n + a * n : 1 + 2 * n + (a + 1) * n]] for a in range(n)]
        offset = 1 + 2 * n + n * n
        self.glyphs = []
        for w in self.widths:
            self.glyphs.append(np.asarray(data[offset : offset + self.height * w], np.uint8).reshape(self.height, w))
            offset += self.height * w

    def compose(self, text: str) -> np.ndarray:
        """The line car_racing.h's RewardFont::Draw builds for ``text``, as a
        (height, width) array of gray levels: SDL_ttf's layout
        (TTF_Size_Internal: pens in 1/64 px, each glyph at FT_FLOOR(pen), the
        width the furthest glyph edge or final pen) and rendering
        (Render_Line: coverages OR-ed). The C++'s arithmetic, for checking it
        against pygame here."""
        index = [REWARD_FONT_CHARS.index(c) for c in text]
        pens, x = [], 0
        for k, g in enumerate(index):
            pens.append(x >> 6)
            x += self.pairs[g][index[k + 1]] if k + 1 < len(index) else self.advance[g]
        width = max([x >> 6] + [p + self.widths[g] for p, g in zip(pens, index)])
        line = np.zeros((self.height, width), np.uint8)
        for p, g in zip(pens, index):
            line[:, p : p + self.widths[g]] |= self.glyphs[g]
        return line


@functools.cache
def reward_font() -> tuple[float, ...]:
    """CarRacing's internal option reward_font: what car_racing.h needs to
    draw f"{reward:04.0f}" as pygame.font.Font(default font, 42).render does
    (SDL_ttf with FreeType and HarfBuzz, which C++ cannot call identically).

    Captured from the installed pygame-ce: each glyph's render alone (its
    bitmap, bearing included, and its hinted advance: the render's width),
    and the advance from each glyph to the next in 1/64 px, which kerning
    makes fractional and pair-dependent. A pen advance is measured exactly
    from the width of a block of glyphs repeated 64 times (its pen then sits
    at 64 times the block's advance in 1/64 px, a whole number of pixels);
    the block "a b -" gives a's advance before b, given that the hyphen
    kerns with nothing (checked: "a -" repeated advances by the two plain
    advances). The result is checked against pygame's own renders of a
    sample of counter texts; tests/box2d/test_box2d_car_racing.py checks every
    text from -1000 to 10000 and a wider sample."""
    try:
        import pygame
        import pygame.font
    except ImportError as e:
        raise ImportError(f"CarRacing draws its reward counter with pygame's font, captured at make(); pygame (pygame-ce, gymnasium's box2d extra) is not importable: {e}") from None
    pygame.font.init()
    font = pygame.font.Font(pygame.font.get_default_font(), REWARD_FONT_SIZE)
    glyphs = {c: _render_text(font, c) for c in REWARD_FONT_CHARS}
    height = glyphs["0"].shape[0]
    if any(g.shape[0] != height for g in glyphs.values()):
        raise RuntimeError("CarRacing: pygame's font renders the counter's glyphs at different heights")
    width = {c: g.shape[1] for c, g in glyphs.items()}

    def cycle(block: str) -> int:
        """The summed pen advances (1/64 px) of ``block``'s glyphs, each
        followed by the next and the last by the first."""
        return font.size(block * 64 + block[0])[0] - width[block[0]]

    for c in REWARD_FONT_CHARS:
        if cycle(c + "-") != 64 * (width[c] + width["-"]):
            raise RuntimeError(f"CarRacing: pygame's font kerns {c!r} with '-'; the counter's capture assumes it does not")
    pairs = []
    for a in REWARD_FONT_CHARS:
        for b in REWARD_FONT_CHARS:
            if a == "-" or b == "-":
                pairs.append(64 * width[a])
            else:
                pairs.append(cycle(a + b + "-") - 64 * (width[b] + width["-"]))
    data: list[float] = [float(height)]
    data += [float(width[c]) for c in REWARD_FONT_CHARS]
    data += [float(64 * width[c]) for c in REWARD_FONT_CHARS]
    data += [float(v) for v in pairs]
    for c in REWARD_FONT_CHARS:
        data += glyphs[c].ravel().astype(np.float64).tolist()
    result = tuple(data)
    # The sample has every pair of digits (the last two of 0..999 by 7s) and
    # "-" before each digit.
    composer = RewardFontData(result)
    for value in range(-999, 1000, 7):
        text = f"{value:04.0f}"
        expected = _render_text(font, text)
        got = composer.compose(text)
        if got.shape != expected.shape or (got != expected).any():
            raise RuntimeError(f"CarRacing: the captured font does not reproduce pygame's render of {text!r}")
    return result


class Box2d(Family):
    # CarRacing's reward_font, captured from pygame's font at make().
    # render_lidar: BipedalWalker's, off in the envpool module (EnvPool's
    # render() draws no lidar ray).
    internal_options = frozenset({"reward_font", "render_lidar"})
    extra = "box2d"
    # gymnasium's tasks: LunarLander and BipedalWalker from states, CarRacing
    # from its 96x96 pixels (a 1000x800 frame drawn and scaled down each
    # step, by each env's thread). 16:16:2 has gymnasium's SyncVectorEnv.
    # Only in --full (and --tasks).
    benchmark_tasks = tuple(
        BenchmarkTask(name, full=((1, 1, 1), (16, 8, 2), (16, 16, 2)), steps=steps, limit_steps=steps, peers={"gymnasium": name})
        for name, steps in (("LunarLander-v3", 64000), ("BipedalWalker-v3", 32000), ("CarRacing-v3", 4000))
    )

    def requirements(self, task_id: str) -> Mapping[str, str]:
        # Box2D itself is compiled in; CarRacing captures pygame-ce's font.
        return {"pygame": "pygame-ce"} if task_id.startswith("CarRacing") else {}

    def fill_internal(self, task_id: str, config: Mapping[str, Any], internal: dict[str, Any]) -> dict[str, Any]:
        if "reward_font" in internal:
            return {**internal, "reward_font": reward_font()}
        return internal

    def check_render(self, spec) -> None:
        # Every Box2D env draws itself in C++ (EnvSpec render size).
        return None

    def render_resize(self, spec) -> str:
        return "linear"  # EnvPool's Box2D: cv2.resize's default


family = Box2d()
