"""jax.random as the JAX-defined envs draw it (cpp/refkit/jax/random.h: jax's
default Threefry-2x32 PRNG, partitionable, x64 off), against jax itself:
PRNGKey, split, fold_in, random bits, uniform, bernoulli, randint, choice
and permutation, for keys made from many seeds and chains of split/fold_in.
Every value is compared with == (floats bitwise, through their uint32 view).

jax is called through one jitted program per test, run key by key, with a
vmap over parameter grids, since compiling dominates the time (a vmap over
keys compiles several times slower); a few eager calls check that the
jitted calls draw what pgx's eager ones do. uniform's
scaling is a fused multiply-add in XLA on an FMA host (see refkit/jax/random.h),
so on a CPU without FMA jax itself would draw other floats there."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = jax.numpy

from envpool_lite import _testing as kernels  # noqa: E402

if jax.config.jax_enable_x64 or not jax.config.jax_threefry_partitionable or jax.config.jax_default_prng_impl != "threefry2x32":
    pytest.skip("refkit/jax/random.h reproduces jax's defaults (x64 off, partitionable threefry2x32)", allow_module_level=True)

# Python-int seeds jax.random.PRNGKey accepts (eagerly: all of int64).
SEEDS = [0, 1, 42, 2**31 - 1, -1, -2, -(2**31), 2**31, 2**32 - 1, 2**32 + 5, 2**63 - 1, -(2**63), 123456789]
CHAIN_STEPS = 12


def _same(ours, ref, what=""):
    """== on values, dtype and shape; floats compared bit for bit."""
    ref = np.asarray(ref)
    assert ours.dtype == ref.dtype, f"{what}: dtype {ours.dtype} != jax's {ref.dtype}"
    assert ours.shape == ref.shape, f"{what}: shape {ours.shape} != jax's {ref.shape}"
    if ref.dtype == np.float32:
        ours, ref = ours.view(np.uint32), ref.view(np.uint32)
    bad = np.argwhere(ours != ref)
    assert bad.size == 0, f"{what}: {len(bad)} of {ref.size} differ, first at {bad[0].tolist()}: {ours[tuple(bad[0])]!r} != jax's {ref[tuple(bad[0])]!r}"


def _varied(x):
    """The compared values are not all one value (a comparison that can fail)."""
    x = np.asarray(x)
    assert np.unique(x.reshape(len(x), -1), axis=0).shape[0] > 1


def _jit_keys(f, *param_axes):
    """jit(f) called on each key of keys, outputs stacked (m, [p,] ...),
    with each parameter either shared (None) or batched (0) by an inner vmap
    (a loop over keys compiles much faster than a vmap over them: jax's
    sort and threefry batch into bigger programs)."""
    if any(a == 0 for a in param_axes):
        f = jax.vmap(f, in_axes=(None, *param_axes))
    jf = jax.jit(f)

    def run(keys, *params):
        params = jax.tree.map(jnp.asarray, params)
        outs = [jf(k, *params) for k in np.asarray(keys)]
        return jax.tree.map(lambda *xs: np.stack([np.asarray(x) for x in xs]), *outs)

    return run


def _ours(name, keys, grid):
    """Ours for each args tuple of grid, stacked as the inner axis."""
    return np.stack([kernels.jax_random(name, keys, args) for args in grid], axis=1)


@pytest.fixture(scope="module")
def keys() -> np.ndarray:
    """(m, 2) uint32: PRNGKey of every seed and the chains of keys split or
    folded from it, step by step, made by jax and by ours and compared at
    every step."""
    rng = np.random.default_rng(0)
    kind = rng.integers(3, size=(CHAIN_STEPS, len(SEEDS)))
    index = rng.integers(5, size=(CHAIN_STEPS, len(SEEDS)))
    data = rng.choice(np.uint32([0, 1, 7, 2**31, 2**32 - 1, 123456789, 3735928559]), size=(CHAIN_STEPS, len(SEEDS)))

    def step(key, kind, i, d):
        first = jax.random.split(key)[i % 2]  # a, b = split(key)
        fifth = jax.random.split(key, 5)[i]
        folded = jax.random.fold_in(key, d)
        return jnp.select([kind == 0, kind == 1], [first, fifth], folded)

    step = jax.jit(step)
    ref = np.stack([np.asarray(jax.random.PRNGKey(seed)) for seed in SEEDS])
    ours = np.stack([kernels.jax_prng_key(seed) for seed in SEEDS])
    _same(ours, ref, "PRNGKey")
    out = [ref]
    for t in range(CHAIN_STEPS):
        ref = np.stack([np.asarray(step(*args)) for args in zip(ref, kind[t], index[t], data[t])])
        nxt = []
        for j, key in enumerate(ours):
            if kind[t, j] == 0:
                nxt.append(kernels.jax_random("split2", key[None], ())[0, index[t, j] % 2])
            elif kind[t, j] == 1:
                nxt.append(kernels.jax_random("split", key[None], (5,))[0, index[t, j]])
            else:
                nxt.append(kernels.jax_random("fold_in", key[None], (int(data[t, j]),))[0])
        ours = np.stack(nxt)
        _same(ours, ref, f"chain step {t}")
        out.append(ref)
    return np.unique(np.concatenate(out), axis=0)


def test_prng_key():
    for seed in SEEDS:
        _same(kernels.jax_prng_key(seed), jax.random.PRNGKey(seed), f"PRNGKey({seed})")
    assert kernels.jax_prng_key(-1).tolist() == [0, 2**32 - 1]
    assert kernels.jax_prng_key(2**32 + 5).tolist() == [0, 5]
    # jax rejects seeds outside int64; the int64 binding does too.
    with pytest.raises(OverflowError):
        jax.random.PRNGKey(2**63)
    with pytest.raises(TypeError):
        kernels.jax_prng_key(2**63)


def test_key_chains(keys):
    assert len(keys) > 10 * len(SEEDS)  # the chains ran, compared at every step


def test_threefry(keys):
    # The Threefry-2x32 20-round known answer (Random123's kat_vectors).
    out = kernels.jax_random("threefry", np.array([[0x13198A2E, 0x03707344]], np.uint32), (0x243F6A88, 0x85A308D3))
    assert out.tolist() == [[0xC4923A9C, 0x483DF7A0]]
    from jax._src.random.threefry2x32 import threefry_2x32

    counts = [(0, 0), (0, 1), (1, 0), (0xFFFFFFFF, 0xFFFFFFFF), (12345, 987654321)]
    ref = _jit_keys(threefry_2x32, 0)(keys, jnp.asarray(counts, jnp.uint32))
    _same(_ours("threefry", keys, counts), ref, "threefry")
    _varied(ref)


SPLIT_NS = [1, 2, 3, 7, 16]


def test_split_and_fold_in(keys):
    ref = _jit_keys(lambda k: tuple(jax.random.split(k, n) for n in SPLIT_NS) + (jax.random.split(k),))(keys)
    for n, r in zip(SPLIT_NS, ref):
        _same(kernels.jax_random("split", keys, (n,)), r, f"split {n}")
        _varied(r)
    _same(kernels.jax_random("split2", keys, ()), ref[-1], "split2")
    data = [0, 1, 2, 3, 7, 2**31, 2**32 - 1]
    folded = _jit_keys(jax.random.fold_in, 0)(keys, jnp.asarray(data, jnp.uint32))
    _same(_ours("fold_in", keys, [(d,) for d in data]), folded, "fold_in")
    # fold_in(key, i) is split(key, n)[i]: both count (hi=0, lo=i).
    _same(folded[:, 4], ref[SPLIT_NS.index(16)][:, 7], "fold_in 7 vs split 16")


SHAPES = [None, 1, 3, 64]  # None: shape ()


def _shape(n):
    return () if n is None else (n,)


def test_bits(keys):
    ref = _jit_keys(lambda k: tuple(jax.random.bits(k, _shape(n), jnp.uint32) for n in SHAPES))(keys)
    for n, r in zip(SHAPES, ref):
        _same(kernels.jax_random("bits", keys, (n,)), r, f"bits {_shape(n)}")
        _varied(r)
    # Shape () draws what element 0 of shape (1,) draws.
    _same(ref[1][:, 0], ref[0], "bits () vs (1,)")


UNIFORM_BOUNDS = [(0.0, 1.0), (-3.7, 11.3), (0.0, 1e-3), (-1.0, 1.0), (100.0, 100.5), (-1e6, 3.25), (1e-30, 1e30), (2.0, -2.0), (5.0, 5.0)]


def test_uniform(keys):
    lo, hi = (jnp.asarray(b, jnp.float32) for b in zip(*UNIFORM_BOUNDS))
    # minval/maxval traced (not constants folded into the program).

    def f(k, lo, hi):
        bounded = jax.vmap(lambda lo, hi: tuple(jax.random.uniform(k, _shape(n), minval=lo, maxval=hi) for n in SHAPES))(lo, hi)
        return bounded, tuple(jax.random.uniform(k, _shape(n)) for n in SHAPES)

    ref, default = _jit_keys(f, None, None)(keys, lo, hi)
    for n, r, d in zip(SHAPES, ref, default):
        _same(_ours("uniform", keys, [(n, *b) for b in UNIFORM_BOUNDS]), r, f"uniform {_shape(n)}")
        _same(kernels.jax_random("uniform", keys, (n, None, None)), d, f"uniform {_shape(n)} default")
        _varied(d)
        for i, (a, b) in enumerate(UNIFORM_BOUNDS):
            if a < b:
                _varied(r[:, i])
    _same(ref[1][:, :, 0], ref[0], "uniform () vs (1,)")


BERNOULLI_P = [0.0, 0.1, 0.5, 0.9, 1.0, 1 / 3, 1e-7]


def test_bernoulli(keys):
    p = jnp.asarray(BERNOULLI_P, jnp.float32)
    ref = _jit_keys(lambda k, p: tuple(jax.random.bernoulli(k, p, None if n is None else (n,)) for n in SHAPES), 0)(keys, p)
    for n, r in zip(SHAPES, ref):
        _same(_ours("bernoulli", keys, [(n, q) for q in BERNOULLI_P]), r, f"bernoulli {_shape(n)}")
        for i, q in enumerate(BERNOULLI_P):
            if 0.1 <= q <= 0.9:
                _varied(r[:, i])


RANDINT_BOUNDS = [
    (0, 1),
    (0, 2),
    (0, 7),
    (3, 10),
    (0, 100),
    (-5, 3),
    (-10, -3),
    (0, 2**31 - 1),
    (1, 2**31 - 1),
    (-(2**31), 2**31 - 1),
    (-(2**31), 0),
    (-(2**31), -(2**31) + 3),
    (-1, 2**31 - 1),
    (5, 5),
    (7, 3),
    (2**31 - 1, -(2**31)),
    (0, 65536),
    (0, 65537),
    (0, 3 * 2**29 + 1),
]


def test_randint(keys):
    lo, hi = (jnp.asarray(b, jnp.int32) for b in zip(*RANDINT_BOUNDS))
    ref = _jit_keys(lambda k, lo, hi: tuple(jax.random.randint(k, _shape(n), lo, hi) for n in SHAPES), 0, 0)(keys, lo, hi)
    for n, r in zip(SHAPES, ref):
        ours = _ours("randint", keys, [(n, *b) for b in RANDINT_BOUNDS])
        _same(ours, r, f"randint {_shape(n)}")
        for i, (a, b) in enumerate(RANDINT_BOUNDS):
            if b - a > 1:
                _varied(r[:, i])
            else:  # an empty or one-value range gives minval
                assert (ours[:, i] == a).all()
    _same(ref[1][:, :, 0], ref[0], "randint () vs (1,)")


CHOICE_NS = [1, 2, 3, 16, 1000, 2**31 - 1]
CHOICE_AS = [np.int32([1, 2]), np.arange(16, dtype=np.int32), np.arange(-3, 2, dtype=np.int8), np.float32([0.5, -1.25, 3.0])]


def test_choice(keys):
    ref = _jit_keys(lambda k: tuple(jax.random.choice(k, n) for n in CHOICE_NS) + tuple(jax.random.choice(k, a) for a in CHOICE_AS))(keys)
    for n, r in zip(CHOICE_NS, ref):
        _same(kernels.jax_random("choice", keys, (n,)), r, f"choice {n}")
        if n > 1:
            _varied(r)
    for a, r in zip(CHOICE_AS, ref[len(CHOICE_NS) :]):
        _same(kernels.jax_random("choice_a", keys, (a,)), r, f"choice {a}")
        _varied(r)


def _masks():
    rng = np.random.default_rng(7)
    eye = np.eye(16, dtype=bool)
    return np.stack([np.ones(16, bool), eye[5], eye[0] | eye[15], *(rng.random((5, 16)) < 0.4)])


def _weights():
    rng = np.random.default_rng(3)
    out = [np.float32([0.9, 0.1]), np.float32([0.0, 1.0, 0.0]), np.float32([0.25, 0.0, 0.5, 0.0, 0.25]), np.float32([0.0, 0.0, 0.0]), np.float32([1e-30, 1e30, 1.0])]
    for n in [3, 16, 17, 50, 300]:  # 17 and up: XLA's cumsum sums in a tree
        out.append((rng.random(n) * rng.choice([1e-3, 1.0, 1e3])).astype(np.float32))
    p = rng.random(50).astype(np.float32)
    p[rng.random(50) < 0.5] = 0
    out.append(p)
    return out


def test_choice_p(keys):
    """pgx: choice(key, jnp.arange(16), p=(board == 0)) and
    choice(key, jnp.int32([1, 2]), p=jnp.array([0.9, 0.1]))."""
    masks, weights = _masks(), _weights()

    def f(k, masks, weights):
        by_mask = jax.vmap(lambda m: jax.random.choice(k, jnp.arange(16), p=m))(masks)
        by_weight = tuple(jax.random.choice(k, jnp.arange(len(p)), p=p) for p in weights)
        pgx = jax.random.choice(k, jnp.int32([1, 2]), p=jnp.array([0.9, 0.1]))
        return by_mask, by_weight, pgx

    by_mask, by_weight, pgx = _jit_keys(f, None, None)(keys, masks, weights)
    a16 = np.arange(16, dtype=np.int32)
    ours = _ours("choice_p", keys, [(a16, m) for m in masks])
    _same(ours, by_mask, "choice with bool p")
    for i, m in enumerate(masks):
        assert m[ours[:, i]].all()
        if m.sum() > 1:
            _varied(by_mask[:, i])
    for p, r in zip(weights, by_weight):
        a = np.arange(len(p), dtype=np.int32)
        _same(kernels.jax_random("choice_p", keys, (a, p)), r, f"choice with float p (n={len(p)})")
        if (p / max(p.sum(), 1e-30) > 0.05).sum() > 1:
            _varied(r)
    ours = kernels.jax_random("choice_p", keys, (np.int32([1, 2]), np.float32([0.9, 0.1])))
    _same(ours, pgx, "choice [1, 2] p=[0.9, 0.1]")
    assert 0 < (ours == 2).mean() < 0.5
    # int8 and float32 arrays give the same picks.
    _same(kernels.jax_random("choice_p", keys, (np.int8([1, 2]), np.float32([0.9, 0.1]))), pgx.astype(np.int8), "choice int8")


CUMSUM_NS = [1, 2, 5, 16, 17, 31, 33, 100, 256, 257, 300, 70000]


def test_cumsum():
    """jnp.cumsum's float32 order on the CPU: sequential up to 16, then
    XLA's two-level (recursive) scan in rows of 16."""
    rng = np.random.default_rng(11)
    xs = [(rng.random((4, n)) * rng.choice([1e-3, 1.0, 1e3])).astype(np.float32) for n in CUMSUM_NS]
    ref = jax.jit(lambda xs: tuple(jnp.cumsum(x, axis=1) for x in xs))(xs)
    for x, r in zip(xs, ref):
        _same(np.stack([kernels.jax_cumsum(row) for row in x]), r, f"cumsum {x.shape[1]}")
    x = xs[CUMSUM_NS.index(300)][0]
    assert (kernels.jax_cumsum(x) != np.cumsum(x)).any()  # the order does matter


PERM_NS = [1, 2, 3, 6, 9, 136, 1000, 1626]  # 1626 and up: two sort rounds


def test_permutation(keys):
    ref = _jit_keys(lambda k: tuple(jax.random.permutation(k, n) for n in PERM_NS))(keys[:60])
    for n, r in zip(PERM_NS, ref):
        ours = kernels.jax_random("permutation", keys[:60], (n,))
        _same(ours, r, f"permutation {n}")
        assert (np.sort(ours, axis=1) == np.arange(n)).all()
        if n > 1:
            _varied(r)


def test_permutation_of_arrays(keys):
    """pgx: permutation(key, jnp.int32([0, 0, 1, 1, 2, 2]), independent=True)
    and a 136-tile int8 deck."""
    deck = (np.arange(136) // 4).astype(np.int8)
    xs = [np.int32([0, 0, 1, 1, 2, 2]), deck, np.float32([0.5, -1.0, 2.0, 0.0, 7.5]), np.arange(300, dtype=np.int32)[::-1].copy()]

    def f(k, xs):
        return tuple(jax.random.permutation(k, x, independent=True) for x in xs), jax.random.permutation(k, xs[0])

    ref, dependent = _jit_keys(f, None)(keys, xs)
    for x, r in zip(xs, ref):
        _same(kernels.jax_random("permutation", keys, (x,)), r, f"permutation of {x.dtype} ({len(x)})")
        _varied(r)
    _same(dependent, ref[0], "independent=False of a 1-D array")


def test_choice_without_replacement(keys):
    deck = (np.arange(136) // 4).astype(np.int8)
    cases = [(1, 1), (10, 3), (10, 10), (2000, 4)]

    def f(k, deck):
        return tuple(jax.random.choice(k, n, (m,), replace=False) for n, m in cases), jax.random.choice(k, deck, (7,), replace=False)

    ref, from_deck = _jit_keys(f, None)(keys, deck)
    for (n, m), r in zip(cases, ref):
        _same(kernels.jax_random("choice_noreplace", keys, (n, m)), r, f"choice {n} ({m},) replace=False")
    _same(kernels.jax_random("choice_noreplace", keys, (deck, 7)), from_deck, "choice deck (7,) replace=False")
    _varied(from_deck)


def test_eager_calls():
    """Per-key eager calls, as pgx makes them, draw what ours draw."""
    for seed in [0, 42]:
        key = jax.random.PRNGKey(seed)
        k = np.asarray(key)[None]
        _same(kernels.jax_random("uniform", k, (7, -3.7, 11.3))[0], jax.random.uniform(key, (7,), minval=-3.7, maxval=11.3), "uniform(7)")
        _same(kernels.jax_random("randint", k, (None, 0, 9))[0], jax.random.randint(key, (), 0, 9), "randint")
        a, p = jnp.int32([1, 2]), jnp.array([0.9, 0.1])
        _same(kernels.jax_random("choice_p", k, (np.asarray(a), np.asarray(p)))[0], jax.random.choice(key, a, p=p), "choice p")
        _same(kernels.jax_random("permutation", k, (9,))[0], jax.random.permutation(key, 9), "permutation")


def test_errors():
    k = np.zeros((1, 2), np.uint32)
    with pytest.raises(ValueError, match="unknown jax.random"):
        kernels.jax_random("gamma", k, ())
    with pytest.raises(ValueError):
        jax.random.choice(jax.random.PRNGKey(0), 0)
    with pytest.raises(ValueError):  # as jax: "a must be greater than 0"
        kernels.jax_random("choice", k, (0,))
    with pytest.raises(ValueError):
        kernels.jax_random("choice_noreplace", k, (3, 4))
    with pytest.raises(TypeError):
        kernels.jax_random("split", k.astype(np.int32), (2,))
