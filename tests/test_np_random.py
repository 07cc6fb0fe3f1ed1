"""numpy's random streams as the envs draw them, against numpy itself:
Generator(PCG64(seed)) (cpp/refkit/numpy/random.h: gymnasium's np_random) and
the legacy RandomState(seed) (cpp/refkit/numpy/random_state.h: dm_control's
task random). Each test runs a random script of draws on both, in the same
order, and compares every value with ==."""

from __future__ import annotations

import numpy as np
import pytest

from envpool_lite import _testing as kernels

SEEDS = [0, 1, 42, 2**31 - 1, 2**32 - 1]


def _script(rng: np.random.Generator, names: list[str], n: int) -> list[tuple]:
    """n draws, mixed so that cached and buffered state carries across kinds."""
    ops: list[tuple] = []
    for _ in range(n):
        name = names[rng.integers(len(names))]
        if name == "uniform":
            a, b = sorted(rng.normal(0, 10, 2).tolist())
            ops.append((name, a, b))
        elif name == "normal":  # (loc, scale >= 0)
            ops.append((name, float(rng.normal(0, 10)), float(abs(rng.normal(0, 3)))))
        elif name in ("randint", "integers"):
            # Small, 32-bit-edge and 64-bit ranges.
            width = int(rng.choice([1, 2, 3, 7, 10, 1000, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**40 + 3, 2**62]))
            low = int(rng.integers(-(2**20), 2**20))
            ops.append((name, low, low + width))
        elif name == "choice":
            ops.append((name, int(rng.choice([1, 2, 3, 4, 5, 17, 500, 2**33]))))
        else:
            ops.append((name,))
    return ops


def _numpy_random_state(seed: int, ops: list[tuple]) -> list:
    rs = np.random.RandomState(seed)
    out = []
    for name, *args in ops:
        if name == "random_sample":
            out.append(rs.random_sample())
        elif name == "uniform":
            out.append(rs.uniform(*args))
        elif name == "standard_normal":
            out.append(rs.standard_normal())
        elif name == "normal":
            out.append(rs.normal(*args))
        elif name == "randint":
            out.append(int(rs.randint(*args, dtype=np.int64)))
        elif name == "choice":
            out.append(int(rs.choice(*args)))
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_random_state_matches_numpy(seed):
    names = ["random_sample", "uniform", "standard_normal", "normal", "randint", "choice"]
    ops = _script(np.random.default_rng(seed), names, 3000)
    ours = kernels.random_draws("random_state", seed, ops)
    ref = _numpy_random_state(seed, ops)
    for i, (op, a, b) in enumerate(zip(ops, ours, ref)):
        assert a == b, f"draw {i} {op}: {a!r} != numpy's {b!r}"


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_random_state_shuffle_draws_match_numpy(seed):
    """shuffle(x) swaps x[i] with x[random_interval(i)] for i from len-1 down
    to 1: the same intervals from our stream reproduce numpy's shuffle."""
    for n in (2, 5, 33, 1000):
        ref = np.arange(n)
        np.random.RandomState(seed).shuffle(ref)
        draws = kernels.random_draws("random_state", seed, [("interval", i) for i in range(n - 1, 0, -1)])
        ours = np.arange(n)
        for i, j in zip(range(n - 1, 0, -1), draws):
            ours[i], ours[j] = ours[j], ours[i]
        assert ours.tolist() == ref.tolist(), n


def _numpy_generator(seed: int, ops: list[tuple]) -> list:
    g = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    out = []
    for name, *args in ops:
        if name == "random":
            out.append(g.random())
        elif name == "uniform":
            out.append(g.uniform(*args))
        elif name == "integers":
            out.append(int(g.integers(*args)))
        elif name == "choice":
            out.append(int(g.choice(*args)))
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_generator_matches_numpy(seed):
    ops = _script(np.random.default_rng(seed + 1), ["random", "uniform", "integers", "choice"], 3000)
    ours = kernels.random_draws("generator", seed, ops)
    ref = _numpy_generator(seed, ops)
    for i, (op, a, b) in enumerate(zip(ops, ours, ref)):
        assert a == b, f"draw {i} {op}: {a!r} != numpy's {b!r}"


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_generator_shuffle_draws_match_numpy(seed):
    """Generator.shuffle of a list swaps x[i] with x[random_interval(i)] for i
    from len-1 down to 1 (MiniGrid's crossings shuffle so), interleaved with
    other draws as an env makes them."""
    for n in (2, 3, 5, 33, 1000):
        g = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
        first = int(g.integers(0, 7))  # a 32-bit draw first: its other half is buffered
        ref = list(range(n))
        g.shuffle(ref)
        after = int(g.integers(0, 5))
        ops = [("integers", 0, 7)] + [("interval", i) for i in range(n - 1, 0, -1)] + [("integers", 0, 5)]
        draws = kernels.random_draws("generator", seed, ops)
        assert draws[0] == first and draws[-1] == after, n
        ours = list(range(n))
        for i, j in zip(range(n - 1, 0, -1), draws[1:-1]):
            ours[i], ours[j] = ours[j], ours[i]
        assert ours == ref, n


def test_unknown_draws_raise():
    with pytest.raises(ValueError, match="unknown RandomState draw"):
        kernels.random_draws("random_state", 0, [("gamma",)])
    with pytest.raises(ValueError, match="stream must be"):
        kernels.random_draws("philox", 0, [])
