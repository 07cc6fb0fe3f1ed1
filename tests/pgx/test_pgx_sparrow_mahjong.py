"""pgx's sparrow_mahjong beside pgx 2.6.0 itself (tests/pgx/pgx_alignment.py).

Whole games with random keys (mostly legal discards, some illegal ones:
a tile type not in the hand, played by pgx with a count going negative)
under several seeds, by pgx's id and EnvPool's; a pool whose env 4 starts
from a key whose first deal is a tenhou (pgx deals again); and a run that
checks all three ends happened (ron, tsumo, the wall running out). Every
step compares all three players' observations, the mask, the rewards,
terminated and current_player with ==. One pool size keeps pgx's jit
compiles to one.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pgx")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import pgx_alignment as pa  # noqa: E402
import scope

import envpool_lite  # noqa: E402

NUM_ENVS = 8


@pytest.mark.parametrize("seed", scope.seeds([0, 1, 2], more=5))
def test_games(seed):
    counts = pa.run("sparrow_mahjong", "sparrow_mahjong", num_envs=NUM_ENVS, steps=800, seed=seed, illegal=0.03)
    assert counts["ended"] >= 100
    assert counts["illegal"] >= 30


def test_envpool_id_legal_games():
    counts = pa.run("SparrowMahjong-v1", "sparrow_mahjong", num_envs=NUM_ENVS, steps=800, seed=3, illegal=0.0)
    assert counts["illegal"] == 0
    assert counts["ended"] >= 100


def test_tenhou_deal_is_dealt_again():
    """PRNGKey(109)'s first deal is a win on the dealer's first draw, which
    pgx's init deals again (a while_loop on fresh keys): env 4 of a pool
    seeded 105."""
    from pgx import sparrow_mahjong as sm

    _, sub = jax.random.split(jax.random.PRNGKey(109))
    assert bool(sm._init(sub).terminated)
    counts = pa.run("sparrow_mahjong", "sparrow_mahjong", num_envs=NUM_ENVS, steps=100, seed=105, illegal=0.0)
    assert counts["ended"] >= 10


def test_spec():
    pool = envpool_lite.make_gymnasium("SparrowMahjong-v1", num_envs=2, seed=0)
    try:
        assert pool.single_observation_space.shape == (3, 11, 15)
        assert pool.single_observation_space.dtype == np.bool_
        assert pool.single_action_space.n == 11
    finally:
        pool.close()


def test_every_kind_of_end():
    """Legal discards only; the ends, told apart by pgx's rewards: a tie
    (all zero), a tsumo (two players pay), a ron (one player pays)."""
    _, init, advance = pa._pgx_fns("sparrow_mahjong", ())
    seed = 6
    keys = jnp.stack([jax.random.PRNGKey(seed + i) for i in range(NUM_ENVS)])
    states, views = init(keys)
    pool = envpool_lite.make_gymnasium("sparrow_mahjong", num_envs=NUM_ENVS, seed=seed)
    rng = np.random.default_rng(seed)
    ends = {"tie": 0, "tsumo": 0, "ron": 0}
    try:
        obs, info = pool.reset()
        pa._check(obs, info, None, None, None, states, views, 0)
        reset = np.zeros(NUM_ENVS, bool)
        for t in range(1, 401):
            mask = np.asarray(states.legal_action_mask)
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask], np.int32)
            obs, reward, terminated, truncated, info = pool.step(actions)
            states, keys, views = advance(states, keys, jnp.asarray(actions), jnp.asarray(reset))
            pa._check(obs, info, reward, terminated, truncated, states, views, t)
            reset = np.asarray(terminated) | np.asarray(truncated)
            for r in np.asarray(states.rewards)[reset]:
                payers = int((r < 0).sum())
                ends["tie" if payers == 0 else "tsumo" if payers == 2 else "ron"] += 1
    finally:
        pool.close()
    assert min(ends.values()) >= 3, ends
