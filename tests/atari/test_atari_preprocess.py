"""The Atari image kernels (cpp/refkit/cv2/image.h) against OpenCV and numpy.

Resizer must give exactly cv2.resize's output (INTER_AREA and INTER_LINEAR on
uint8), as EnvPool's Atari preprocessing uses OpenCV: every comparison below
is exact equality, on random images, synthetic Atari-like frames (flat areas,
sharp edges, few colours), frames built to put many pixels on rounding ties,
and real ALE frames.
"""

import zlib

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")
from envpool_lite import _testing as kernels  # noqa: E402

# (src_h, src_w) -> (dst_h, dst_w): EnvPool's default 84x84, a non-integer
# 42x42, the integer factor 2 (OpenCV's block-mean path), the identity, and
# a taller source.
SIZES = [
    ((210, 160), (84, 84)),
    ((210, 160), (42, 42)),
    ((210, 160), (105, 80)),
    ((210, 160), (210, 160)),
    ((250, 160), (84, 84)),
]


def cv2_resize(img, height, width, area):
    interpolation = cv2.INTER_AREA if area else cv2.INTER_LINEAR
    return cv2.resize(img, (width, height), interpolation=interpolation)


def assert_same_as_cv2(img, height, width, area, what=""):
    ref = cv2_resize(img, height, width, area)
    out = kernels.resize(img, height, width, area)
    assert out.dtype == np.uint8 and out.shape == ref.shape, (out.shape, ref.shape)
    if not np.array_equal(out, ref):
        diff = np.abs(out.astype(int) - ref.astype(int))
        where = tuple(int(i) for i in np.argwhere(diff)[0])
        pytest.fail(
            f"{what} {img.shape} -> {height}x{width} {'area' if area else 'linear'} "
            f"({kernels.resize_algorithm(*img.shape[:2], height, width, channels(img), area)}): "
            f"max diff {diff.max()}, {np.mean(diff > 0):.4%} of pixels differ, "
            f"first at {where}: {out[where]} vs cv2 {ref[where]}"
        )


def channels(img):
    return 1 if img.ndim == 2 else img.shape[2]


def shape_of(hw, cn):
    return hw if cn == 1 else (*hw, cn)


# --- images ------------------------------------------------------------------


def random_image(rng, hw, cn):
    return rng.integers(0, 256, shape_of(hw, cn), dtype=np.uint8)


def atari_like_image(rng, hw, cn):
    """A background, filled rectangles, one-pixel lines and a score-like
    block: large flat areas with sharp edges in a handful of colours."""
    palette = rng.integers(0, 256, (8, cn), dtype=np.uint8)
    h, w = hw
    img = np.empty((h, w, cn), np.uint8)
    img[:] = palette[0]
    for _ in range(12):
        y, x = rng.integers(0, h), rng.integers(0, w)
        dy, dx = rng.integers(1, h // 3), rng.integers(1, w // 3)
        img[y : y + dy, x : x + dx] = palette[rng.integers(1, 8)]
    for _ in range(6):  # thin lines, as paddles, walls and lanes
        if rng.random() < 0.5:
            img[rng.integers(0, h), :] = palette[rng.integers(1, 8)]
        else:
            img[:, rng.integers(0, w)] = palette[rng.integers(1, 8)]
    digits = rng.random((8, 24)) < 0.5  # a score
    img[4:12, 8:32][digits] = palette[7]
    return img[:, :, 0] if cn == 1 else img


def tie_heavy_image(rng, hw, cn):
    """Two adjacent values (or black and white) in random or checkerboard
    layouts: many output pixels' exact means end in .5, where OpenCV's float
    rounding decides (Resizer recomputes those in float)."""
    kind = rng.integers(0, 3)
    h, w = hw
    if kind == 0:
        base = rng.integers(0, 255)
        img = base + rng.integers(0, 2, (h, w, cn))
    elif kind == 1:
        img = 255 * rng.integers(0, 2, (h, w, cn))
    else:
        yy, xx = np.mgrid[0:h, 0:w]
        img = np.repeat((100 + (yy + xx) % 2)[:, :, None], cn, axis=2)
    img = img.astype(np.uint8)
    return img[:, :, 0] if cn == 1 else img


IMAGES = {"random": random_image, "atari_like": atari_like_image, "ties": tie_heavy_image}


# --- resize ------------------------------------------------------------------


@pytest.mark.parametrize("area", [True, False], ids=["area", "linear"])
@pytest.mark.parametrize("cn", [1, 3])
@pytest.mark.parametrize("sizes", SIZES, ids=lambda s: f"{s[0][0]}x{s[0][1]}->{s[1][0]}x{s[1][1]}")
@pytest.mark.parametrize("kind", sorted(IMAGES))
def test_resize_matches_cv2(kind, sizes, cn, area):
    (src_hw, (h, w)) = sizes
    rng = np.random.default_rng(zlib.crc32(repr((kind, sizes, cn, area)).encode()))
    for _ in range(4):
        img = IMAGES[kind](rng, src_hw, cn)
        assert_same_as_cv2(img, h, w, area, kind)


def test_resize_ties_really_are_ties():
    """Black-and-white noise puts ~4% of the 84x84 pixels' exact means on
    k + 0.5 (they are multiples of 1/200 for 210x160 -> 84x84); OpenCV's
    float rounding errors send some of them down and some up, so no integer
    rule (half up, half to even) reproduces them: Resizer recomputes those
    pixels in float."""
    rng = np.random.default_rng(0)
    img = (255 * rng.integers(0, 2, (210, 160))).astype(np.uint8)

    def weights(src, dst):  # exact area weights of one axis, as a matrix
        m = np.zeros((dst, src))
        for d in range(dst):
            lo, hi = d * src / dst, (d + 1) * src / dst
            for s in range(int(lo), min(src, int(np.ceil(hi)))):
                m[d, s] = max(0.0, min(hi, s + 1) - max(lo, s))
        return m * dst / src

    exact = weights(210, 84) @ img.astype(float) @ weights(160, 84).T
    tie = np.isclose(exact - np.floor(exact), 0.5, rtol=0, atol=1e-9)
    ref = cv2_resize(img, 84, 84, True)
    assert tie.sum() > 100
    assert np.sum(ref[tie] == np.floor(exact[tie])) > 20
    assert np.sum(ref[tie] == np.ceil(exact[tie])) > 20
    # Rounding float(N) * (1 / D) instead differs from OpenCV on ~0.05% of
    # these pixels: enough images to see it.
    for _ in range(12):
        for cn in (1, 3):
            img = (255 * rng.integers(0, 2, shape_of((210, 160), cn))).astype(np.uint8)
            for h, w in ((84, 84), (42, 42)):
                assert_same_as_cv2(img, h, w, True, "ties")


def test_resize_many_sizes():
    """Other size pairs and channel counts: shrinking, enlarging, mixed,
    integer and non-integer factors, tiny images."""
    rng = np.random.default_rng(1)
    src_sizes = [(210, 160), (21, 16), (37, 23), (1, 1), (2, 5), (160, 210), (100, 100)]
    dst_sizes = [(84, 84), (42, 42), (105, 80), (70, 53), (1, 1), (3, 2), (300, 200), (50, 10), (10, 50), (211, 160), (105, 160), (70, 160), (84, 160), (20, 7)]
    for src_hw in src_sizes:
        for cn in (1, 2, 3, 4):
            img = random_image(rng, src_hw, cn)
            for h, w in dst_sizes:
                for area in (True, False):
                    assert_same_as_cv2(img, h, w, area, "sweep")


def test_resize_paths():
    """The typical sizes take the fast exact paths; odd ratios the slower
    float path (still exact)."""
    algo = kernels.resize_algorithm
    assert algo(210, 160, 84, 84, 1, True) == "area-mean"
    assert algo(210, 160, 84, 84, 3, True) == "area-mean"
    assert algo(250, 160, 84, 84, 1, True) == "area-mean"
    assert algo(210, 160, 105, 80, 1, True) == "area-block-2x2"
    assert algo(210, 160, 105, 80, 1, False) == "area-block-2x2"  # OpenCV: 2x2 linear is area
    assert algo(210, 160, 105, 80, 3, True) == "area-block"
    assert algo(210, 160, 70, 40, 1, True) == "area-block"  # 3x4 blocks
    assert algo(210, 160, 84, 84, 1, False) == "linear"
    assert algo(210, 160, 300, 200, 1, True) == "linear"  # enlarging area
    assert algo(210, 160, 210, 160, 3, True) == "copy"
    # 211 rows -> 84: weights are multiples of 1/211, too fine for int16 sums.
    assert algo(211, 160, 84, 84, 1, True) == "area-float"
    rng = np.random.default_rng(2)
    for kind in sorted(IMAGES):
        for cn in (1, 3):
            img = IMAGES[kind](rng, (211, 160), cn)
            assert_same_as_cv2(img, 84, 84, True, kind)


@pytest.fixture(scope="module")
def ale_frames():
    """Real frames (grayscale and RGB) of a few games, after random play."""
    ale_py = pytest.importorskip("ale_py")
    rng = np.random.default_rng(0)
    gray, rgb = [], []
    for game in ["pong", "breakout", "space_invaders", "ms_pacman", "seaquest", "boxing"]:
        ale = ale_py.ALEInterface()
        ale.setLoggerMode(ale_py.LoggerMode.Error)
        ale.setInt("random_seed", 0)
        ale.loadROM(ale_py.roms.get_rom_path(game))
        actions = ale.getMinimalActionSet()
        for step in range(120):
            ale.act(actions[rng.integers(len(actions))])
            if ale.game_over():
                ale.reset_game()
            if step % 30 >= 28:  # pairs of consecutive frames
                gray.append(ale.getScreenGrayscale().copy())
                rgb.append(ale.getScreenRGB().copy())
    return gray, rgb


@pytest.mark.parametrize("area", [True, False], ids=["area", "linear"])
def test_resize_real_ale_frames(ale_frames, area):
    for frames in ale_frames:
        for img in frames:
            for _, (h, w) in SIZES:
                assert_same_as_cv2(img, h, w, area, "ALE")


def test_envpool_pipeline_on_ale_frames(ale_frames):
    """Max-pool of two consecutive frames, resize, HWC -> CHW: EnvPool's steps."""
    gray, rgb = ale_frames
    for frames in (gray, rgb):
        for a, b in zip(frames[0::2], frames[1::2]):
            pooled = kernels.max_pool(a, b)
            np.testing.assert_array_equal(pooled, np.maximum(a, b))
            small = kernels.resize(pooled, 84, 84, True)
            np.testing.assert_array_equal(small, cv2_resize(np.maximum(a, b), 84, 84, True))
            if small.ndim == 3:
                np.testing.assert_array_equal(kernels.hwc_to_chw(small), small.transpose(2, 0, 1))


def test_resize_errors():
    img = np.zeros((210, 160), np.uint8)
    with pytest.raises(TypeError):
        kernels.resize(img.astype(np.float32), 84, 84, True)
    with pytest.raises(ValueError):
        kernels.resize(img, 0, 84, True)
    with pytest.raises(ValueError):
        kernels.resize(np.zeros((2, 2, 2, 2), np.uint8), 1, 1, True)
    # Non-contiguous input is copied, not misread.
    big = np.random.default_rng(3).integers(0, 256, (210, 320), dtype=np.uint8)
    assert_same_as_cv2(big[:, ::2], 84, 84, True, "strided")


def test_resize_benchmark_runs():
    img = np.random.default_rng(4).integers(0, 256, (210, 160), dtype=np.uint8)
    ns = kernels.resize_benchmark(img, 84, 84, True, 10)
    assert 0 < ns < 1e8


# --- max-pool and HWC -> CHW -------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 15, 16, 17, 100, 210 * 160, 210 * 160 * 3 + 5])
def test_max_pool(n):
    rng = np.random.default_rng(n)
    a = rng.integers(0, 256, n, dtype=np.uint8)
    b = rng.integers(0, 256, n, dtype=np.uint8)
    expected = np.maximum(a, b)
    np.testing.assert_array_equal(kernels.max_pool(a, b), expected)
    # In place (out aliases a), as the Atari env pools its two frames.
    kernels.max_pool_inplace(a, b)
    np.testing.assert_array_equal(a, expected)


def test_max_pool_shapes_and_errors():
    rng = np.random.default_rng(5)
    a = rng.integers(0, 256, (210, 160, 3), dtype=np.uint8)
    b = rng.integers(0, 256, (210, 160, 3), dtype=np.uint8)
    out = kernels.max_pool(a, b)
    assert out.shape == a.shape
    np.testing.assert_array_equal(out, np.maximum(a, b))
    with pytest.raises(ValueError):
        kernels.max_pool(a, b[:-1])
    with pytest.raises(TypeError):
        kernels.max_pool(a.astype(np.int16), b)


@pytest.mark.parametrize("shape", [(84, 84, 1), (84, 84, 3), (210, 160, 3), (5, 7, 4), (1, 1, 3)])
def test_hwc_to_chw(shape):
    img = np.random.default_rng(6).integers(0, 256, shape, dtype=np.uint8)
    out = kernels.hwc_to_chw(img)
    assert out.shape == (shape[2], shape[0], shape[1])
    np.testing.assert_array_equal(out, img.transpose(2, 0, 1))
