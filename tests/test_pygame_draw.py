"""cpp/refkit/pygame/draw.h against pygame-ce 2.5.8 itself.

gymnasium's Box2D envs render with pygame (draw.polygon / line / lines /
aaline / aalines / circle / rect, gfxdraw.aapolygon / filled_polygon,
transform.flip / smoothscale); the C++ envs draw with refkit/pygame/draw.h, which
must give the same pixels. Every comparison below is exact equality of the
(h, w, 3) image, pygame's side read as np.transpose(pixels3d(surf), (1, 0, 2))
from a pygame.Surface((w, h)) (32-bit XRGB, as gymnasium makes it):

* each routine on random inputs over a random background (blending), with
  float coordinates inside, near and far outside the surface, integer ones,
  concave / self-intersecting / degenerate polygons;
* sequences of calls on one surface;
* coordinates large enough to wrap gfxdraw's Sint16 and overflow draw.c's
  int arithmetic;
* smoothscale (CarRacing's 1000x800 -> 600x400 and 96x96, random shrinks and
  expands), flip, blit;
* the calls gymnasium's LunarLander, BipedalWalker and CarRacing really make
  in render(), recorded from the envs and replayed through refkit/pygame/draw.h.
"""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

pygame = pytest.importorskip("pygame")
from pygame import gfxdraw  # noqa: E402

from envpool_lite import _testing as kernels  # noqa: E402

# ---------------------------------------------------------------- helpers


def to_surface(img):
    h, w, _ = img.shape
    surf = pygame.Surface((w, h))
    pygame.surfarray.blit_array(surf, np.ascontiguousarray(img.transpose(1, 0, 2)))
    return surf


def to_image(surf):
    return np.transpose(pygame.surfarray.pixels3d(surf), (1, 0, 2)).copy()


def pygame_apply(img, ops):
    """The ops of kernels.pygame_draw, done by pygame on a copy of img."""
    surf = to_surface(img)
    for op in ops:
        name, args = op[0], op[1:]
        if name == "fill":
            surf.fill(args[0])
        elif name == "rect":
            pygame.draw.rect(surf, args[0], args[1:5])
        elif name == "polygon":
            pygame.draw.polygon(surf, *args)
        elif name == "line":
            pygame.draw.line(surf, *args)
        elif name == "lines":
            pygame.draw.lines(surf, *args)
        elif name == "aaline":
            pygame.draw.aaline(surf, *args)
        elif name == "aalines":
            pygame.draw.aalines(surf, *args)
        elif name == "circle":
            pygame.draw.circle(surf, *args)
        elif name == "aapolygon":
            gfxdraw.aapolygon(surf, *args)
        elif name == "filled_polygon":
            gfxdraw.filled_polygon(surf, *args)
        elif name == "flip":
            surf = pygame.transform.flip(surf, False, True)
        else:
            raise ValueError(name)
    return to_image(surf)


def assert_same(img, ops):
    ref = pygame_apply(img, ops)
    out = kernels.pygame_draw(img, ops)
    if not np.array_equal(out, ref):
        bad = np.argwhere((out != ref).any(axis=-1))
        y, x = bad[0]
        raise AssertionError(f"{len(bad)} pixels differ (first at x={x}, y={y}: ours {out[y, x]}, pygame {ref[y, x]}) on a {img.shape[1]}x{img.shape[0]} surface after {ops!r}")


def random_image(rng, h, w):
    return rng.integers(0, 256, (h, w, 3), dtype=np.uint8)


def random_color(rng):
    return tuple(int(v) for v in rng.integers(0, 256, 3))


def random_points(rng, n, w, h, kind):
    """n points for a w x h surface: 'inside', 'edge' (a few pixels around
    the surface), 'far' (up to ~3 surfaces away), 'int' (integers),
    'half' (multiples of 0.5, for rounding ties)."""
    if kind == "far":
        m = 3 * max(w, h)
        xs, ys = rng.uniform(-m, w + m, n), rng.uniform(-m, h + m, n)
    elif kind == "edge":
        xs, ys = rng.uniform(-4, w + 4, n), rng.uniform(-4, h + 4, n)
    else:
        xs, ys = rng.uniform(-1, w + 1, n), rng.uniform(-1, h + 1, n)
    if kind == "int":
        xs, ys = np.round(xs), np.round(ys)
    elif kind == "half":
        xs, ys = np.round(xs * 2) / 2, np.round(ys * 2) / 2
    return [(float(x), float(y)) for x, y in zip(xs, ys)]


KINDS = ["inside", "edge", "far", "int", "half"]


def random_op(rng, name, w, h):
    kind = KINDS[int(rng.integers(len(KINDS)))]
    n = int(rng.integers(3, 9))
    pts = random_points(rng, n, w, h, kind)
    c = random_color(rng)
    if name == "polygon":  # width 0 fills (3 points: draw_filltri)
        return (name, c, pts, int(rng.choice([0, 0, 0, 1, 2, 3])))
    if name == "line":
        return (name, c, pts[0], pts[1], int(rng.integers(0, 6)))
    if name == "lines":
        return (name, c, bool(rng.integers(2)), pts, int(rng.integers(1, 6)))
    if name == "aaline":
        return (name, c, pts[0], pts[1])
    if name == "aalines":
        return (name, c, bool(rng.integers(2)), pts)
    if name == "circle":
        radius = float(rng.uniform(0, max(w, h)))
        return (name, c, pts[0], radius, int(rng.choice([0, 0, 1, 2, 4])))
    if name == "rect":
        x, y = pts[0]
        return (name, c, x, y, float(rng.uniform(-3, w + 3)), float(rng.uniform(-3, h + 3)))
    if name in ("aapolygon", "filled_polygon"):
        return (name, pts, c)
    raise ValueError(name)


OPS = ["polygon", "line", "lines", "aaline", "aalines", "circle", "rect", "aapolygon", "filled_polygon"]

# ---------------------------------------------------------------- routines


@pytest.mark.parametrize("name", OPS)
def test_random_calls(name):
    rng = np.random.default_rng(1000 + OPS.index(name))
    for _ in range(2000):
        w, h = (int(v) for v in rng.integers(1, 70, 2))
        assert_same(random_image(rng, h, w), [random_op(rng, name, w, h)])


def test_call_sequences():
    # Later calls blend over / overwrite what earlier ones drew, as in a frame.
    rng = np.random.default_rng(7)
    for _ in range(600):
        w, h = (int(v) for v in rng.integers(20, 120, 2))
        ops = [random_op(rng, OPS[int(rng.integers(len(OPS)))], w, h) for _ in range(int(rng.integers(2, 9)))]
        if rng.integers(4) == 0:
            ops.insert(0, ("fill", random_color(rng)))
        if rng.integers(4) == 0:
            ops.append(("flip",))
        assert_same(random_image(rng, h, w), ops)


def test_degenerate_polygons():
    # Repeated points, collinear points, single rows / columns / pixels.
    rng = np.random.default_rng(11)
    for _ in range(1500):
        w, h = (int(v) for v in rng.integers(1, 40, 2))
        n = int(rng.integers(3, 7))
        base = rng.uniform(-3, max(w, h) + 3, 2)
        step = rng.choice([0.0, 0.5, 1.0])
        pts = [tuple(float(v) for v in base + rng.integers(-2, 3, 2) * step) for _ in range(n)]
        if rng.integers(3) == 0:  # all on one line
            d = rng.integers(-3, 4, 2)
            pts = [tuple(float(v) for v in base + k * d) for k in range(n)]
        c = random_color(rng)
        ops = [
            ("polygon", c, pts, 0),
            ("polygon", c, pts, int(rng.integers(1, 4))),
            ("aapolygon", pts, c),
            ("filled_polygon", pts, c),
            ("aalines", c, bool(rng.integers(2)), pts),
            ("lines", c, bool(rng.integers(2)), pts, int(rng.integers(1, 5))),
            ("aaline", c, pts[0], pts[-1]),
            ("line", c, pts[0], pts[-1], int(rng.integers(1, 5))),
            ("circle", c, pts[0], float(rng.uniform(0, 4)), int(rng.integers(0, 3))),
        ]
        img = random_image(rng, h, w)
        for op in ops:
            assert_same(img, [op])


def test_huge_coordinates():
    # gfxdraw wraps coordinates to Sint16 (and its 16.16 intersections and
    # qsort comparator then overflow); draw.c's int products overflow.
    rng = np.random.default_rng(12)
    for i in range(600):
        w, h = 40, 30
        scale = [3e3, 4e4, 7e4, 3e9][i % 4]
        n = int(rng.integers(3, 8))
        pts = [(float(rng.uniform(-scale, scale)), float(rng.uniform(-scale, scale))) for _ in range(n)]
        pts[0] = (float(rng.uniform(-5, w + 5)), float(rng.uniform(-5, h + 5)))
        c = random_color(rng)
        img = random_image(rng, h, w)
        for op in [("aapolygon", pts, c), ("filled_polygon", pts, c), ("aalines", c, True, pts), ("aaline", c, pts[0], pts[1])]:
            assert_same(img, [op])
        if scale <= 7e4:  # pygame's own loops visit every row / pixel
            for op in [("polygon", c, pts, 0), ("lines", c, True, pts, int(rng.integers(1, 4)))]:
                assert_same(img, [op])
            assert_same(img, [("circle", c, pts[0], float(rng.uniform(0, 2 * scale)), 0)])


# ---------------------------------------------------------------- transforms


def assert_smoothscale(img, height, width):
    ref = to_image(pygame.transform.smoothscale(to_surface(img), (width, height)))
    out = kernels.pygame_smoothscale(img, height, width)
    assert out.shape == ref.shape
    n = int((out != ref).any(axis=-1).sum())
    assert n == 0, f"{n} pixels differ scaling {img.shape[:2]} -> {(height, width)}"
    # A flip reverses the order the rows are read in (no pixel moves).
    flipped = kernels.pygame_smoothscale(img[::-1].copy(), height, width, flip=True)
    np.testing.assert_array_equal(flipped, out)


def test_smoothscale_backend_is_sse2():
    # refkit/pygame/draw.h reproduces the SSE2 filters, the ones every x86-64 CPU gets.
    if pygame.transform.get_smoothscale_backend() != "SSE2":
        pytest.skip("pygame uses another smoothscale backend on this machine")


@pytest.mark.parametrize("size", [(400, 600), (96, 96)])
def test_smoothscale_car_racing_sizes(size):
    rng = np.random.default_rng(13)
    img = random_image(rng, 800, 1000)
    assert_smoothscale(img, *size)
    # Flat areas and sharp edges, like a rendered frame.
    img = np.repeat(np.repeat(random_image(rng, 20, 25), 40, axis=0), 40, axis=1)
    assert_smoothscale(img, *size)


def test_smoothscale_random_sizes():
    rng = np.random.default_rng(14)
    for _ in range(300):
        sh, sw, dh, dw = (int(v) for v in rng.integers(1, 90, 4))
        assert_smoothscale(random_image(rng, sh, sw), dh, dw)


def test_polygon_covers():
    """CarRacing's background: where pygame_polygon_covers says yes, pygame's
    aapolygon + filled_polygon leave the whole surface in the polygon's color
    (so one fill draws the same); rotated squares around a 1000x800 window,
    from barely covering to far past int16 coordinates."""
    rng = np.random.default_rng(16)
    h, w = 800, 1000
    polygons = []
    for _ in range(50):
        half = float(rng.choice([rng.uniform(600, 700), rng.uniform(700, 20000)]))
        angle = float(rng.uniform(0, 2 * np.pi))
        center = np.array([w / 2, h / 2]) + rng.uniform(-80, 80, 2)
        corners = [(-half, -half), (half, -half), (half, half), (-half, half)]
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        polygons.append([tuple(float(v) for v in rot @ np.array(c) + center) for c in corners])
    # Rectangles whose edges run just outside, on, or just inside the border.
    for _ in range(30):
        x0, y0 = (float(v) for v in rng.choice([-3, -2, -1.5, -1, -0.5, 0, 0.5, 1], 2))
        x1, y1 = (float(v) for v in np.array([w, h]) + rng.choice([-1.5, -1, -0.5, 0, 0.5, 1, 2], 2))
        polygons.append([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    verdicts = []
    for pts in polygons:
        covers = kernels.pygame_polygon_covers(h, w, pts)
        verdicts.append(covers)
        if not covers:
            continue
        color = random_color(rng)
        surf = pygame.Surface((w, h))
        gfxdraw.aapolygon(surf, pts, color)
        gfxdraw.filled_polygon(surf, pts, color)
        img = to_image(surf)
        assert (img == np.array(color, np.uint8)).all(), pts
    assert 10 <= sum(verdicts) <= len(verdicts) - 10, sum(verdicts)


def test_flip_and_blit():
    rng = np.random.default_rng(15)
    for _ in range(200):
        dh, dw, sh, sw = (int(v) for v in rng.integers(1, 40, 4))
        dst, src = random_image(rng, dh, dw), random_image(rng, sh, sw)
        x, y = (int(v) for v in rng.integers(-45, 45, 2))
        surf = to_surface(dst)
        surf.blit(to_surface(src), (x, y))
        np.testing.assert_array_equal(kernels.pygame_blit(dst, src, x, y), to_image(surf))
        assert_same(dst, [("flip",)])


# ---------------------------------------------------------------- gymnasium


class Recorder:
    """Wraps the pygame calls gymnasium's render() makes. Every call on a
    surface is recorded in kernels.pygame_draw's op format (coordinates and
    colors read as pygame reads them: Python floats / ints); at
    transform.flip and transform.smoothscale the surface is replayed through
    refkit/pygame/draw.h and compared with pygame's."""

    def __init__(self, monkeypatch):
        self.ops = {}  # id(surface) -> (surface, base image, ops)
        self.checked = {"flip": 0, "smoothscale": 0}
        self.text_rect = None
        self.last_flip = None
        draw, transform = pygame.draw, pygame.transform
        self.orig = {
            "polygon": draw.polygon,
            "line": draw.line,
            "lines": draw.lines,
            "aaline": draw.aaline,
            "aalines": draw.aalines,
            "circle": draw.circle,
            "rect": draw.rect,
            "aapolygon": gfxdraw.aapolygon,
            "filled_polygon": gfxdraw.filled_polygon,
            "flip": transform.flip,
            "smoothscale": transform.smoothscale,
        }
        o = self.orig

        def pts(points):
            return [(float(p[0]), float(p[1])) for p in points]

        def col(c):
            return tuple(int(v) for v in c)

        def polygon(surface, color, points, width=0):
            self.add(surface, ("polygon", col(color), pts(points), int(width)))
            return o["polygon"](surface, color, points, width)

        def line(surface, color, start_pos, end_pos, width=1):
            self.add(surface, ("line", col(color), pts([start_pos])[0], pts([end_pos])[0], int(width)))
            return o["line"](surface, color, start_pos, end_pos, width)

        def lines(surface, color, closed, points, width=1):
            self.add(surface, ("lines", col(color), bool(closed), pts(points), int(width)))
            return o["lines"](surface, color, closed, points, width)

        def aaline(surface, color, start_pos, end_pos):
            self.add(surface, ("aaline", col(color), pts([start_pos])[0], pts([end_pos])[0]))
            return o["aaline"](surface, color, start_pos, end_pos)

        def aalines(surface, color, closed, points):
            self.add(surface, ("aalines", col(color), bool(closed), pts(points)))
            return o["aalines"](surface, color, closed, points)

        def circle(surface, color, center, radius, width=0):
            self.add(surface, ("circle", col(color), pts([center])[0], float(radius), int(width)))
            return o["circle"](surface, color, center, radius, width)

        def rect(surface, color, rect, width=0):
            assert width == 0
            r = pygame.Rect(rect)
            self.add(surface, ("rect", col(color), r.x, r.y, r.w, r.h))
            return o["rect"](surface, color, rect, width)

        def aapolygon(surface, points, color):
            self.add(surface, ("aapolygon", pts(points), col(color)))
            return o["aapolygon"](surface, points, color)

        def filled_polygon(surface, points, color):
            self.add(surface, ("filled_polygon", pts(points), col(color)))
            return o["filled_polygon"](surface, points, color)

        def flip(surface, flip_x, flip_y):
            assert (flip_x, flip_y) == (False, True)
            out = o["flip"](surface, flip_x, flip_y)
            ours = self.replay_and_check(surface, exclude_text=False) if id(surface) in self.ops else None
            if ours is not None:
                self.last_flip = ours[::-1].copy()
                self.ops[id(out)] = (out, self.last_flip, [])
                self.checked["flip"] += 1
            return out

        def smoothscale(surface, size):
            out = o["smoothscale"](surface, size)
            if id(surface) in self.ops:
                self.replay_and_check(surface, exclude_text=True)
            w, h = size
            ref = to_image(out)
            np.testing.assert_array_equal(kernels.pygame_smoothscale(to_image(surface), h, w), ref)
            self.checked["smoothscale"] += 1
            return out

        for name, fn in [("polygon", polygon), ("line", line), ("lines", lines), ("aaline", aaline), ("aalines", aalines), ("circle", circle), ("rect", rect)]:
            monkeypatch.setattr(draw, name, fn)
        monkeypatch.setattr(gfxdraw, "aapolygon", aapolygon)
        monkeypatch.setattr(gfxdraw, "filled_polygon", filled_polygon)
        monkeypatch.setattr(transform, "flip", flip)
        monkeypatch.setattr(transform, "smoothscale", smoothscale)

        # CarRacing's score text: where it lands (text_rect.center = (60,
        # WINDOW_H - WINDOW_H * 2.5 / 40.0), as car_racing.py places it).
        font_type = pygame.font.Font

        class Font(font_type):
            def render(font, *args, **kwargs):
                text = super().render(*args, **kwargs)
                rect = text.get_rect()
                rect.center = (60, 800 - 800 * 2.5 / 40.0)
                self.text_rect = tuple(rect)
                return text

        monkeypatch.setattr(pygame.font, "Font", Font)

    def add(self, surface, op):
        if id(surface) not in self.ops:
            # A surface gymnasium just made: black.
            w, h = surface.get_size()
            self.ops[id(surface)] = (surface, np.zeros((h, w, 3), np.uint8), [])
        assert self.ops[id(surface)][0] is surface
        self.ops[id(surface)][2].append(op)

    def replay_and_check(self, surface, exclude_text):
        _, base, ops = self.ops.pop(id(surface))
        assert ops
        ours = kernels.pygame_draw(base, ops)
        ref = to_image(surface)
        if exclude_text:
            # CarRacing blits its score text (pygame.font) after the flip;
            # that is not refkit/pygame/draw.h's: compare everything else.
            x, y, w, h = self.text_rect
            ours[y : y + h, x : x + w] = ref[y : y + h, x : x + w]
        n = int((ours != ref).any(axis=-1).sum())
        assert n == 0, f"{n} pixels differ after replaying {len(ops)} calls"
        return ours


@pytest.mark.parametrize(
    "env_id, kwargs, steps, every",
    [
        ("LunarLander-v3", {}, 120, 6),
        ("LunarLander-v3", {"continuous": True}, 60, 6),
        ("BipedalWalker-v3", {}, 100, 10),
        ("BipedalWalker-v3", {"hardcore": True}, 100, 10),
        ("CarRacing-v3", {}, 30, 6),
        ("CarRacing-v3", {"domain_randomize": True}, 8, 4),
    ],
)
def test_gymnasium_render_calls(monkeypatch, env_id, kwargs, steps, every):
    gym = pytest.importorskip("gymnasium")
    pytest.importorskip("Box2D")
    rec = Recorder(monkeypatch)
    env = gym.make(env_id, render_mode="rgb_array", **kwargs)
    rng = np.random.default_rng(16)
    env.reset(seed=int(rng.integers(1000)))
    env.action_space.seed(int(rng.integers(1000)))
    frames = 0
    for t in range(steps):
        if t % every == 0:
            frame = env.render()
            frames += 1
            if env_id.startswith("BipedalWalker"):
                np.testing.assert_array_equal(frame, rec.last_flip[:, -600:])
            elif env_id.startswith("LunarLander"):
                np.testing.assert_array_equal(frame, rec.last_flip)
        action = env.action_space.sample()
        if env_id.startswith("CarRacing"):
            # Accelerate, then brake hard: locked wheels leave skid particles
            # (drawn with draw.lines in rgb_array frames).
            action[1:] = (1.0, 0.0) if t < steps // 2 else (0.0, 1.0)
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            env.reset()
    env.close()
    assert rec.checked["flip"] >= frames
    if env_id.startswith("CarRacing"):
        # render() and every step's 96x96 observation.
        assert rec.checked["smoothscale"] >= frames + steps
