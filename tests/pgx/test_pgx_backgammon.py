"""pgx's backgammon beside pgx 2.6.0 itself (tests/pgx/pgx_alignment.py).

Whole games with random keys under several seeds, by pgx's id and
EnvPool's: legal moves only (random games run a few hundred steps, so a
run of 1500 steps sees every env finish several), and with illegal moves,
which cost the mover 3 (pgx's Backgammon._illegal_action_penalty is -3,
core.Env's -1: the opponent gets +3). A legal-only run also checks that
single wins, gammons and backgammons all happened. Every step compares both
players' observations (int32), the mask, the rewards, terminated and
current_player with ==. One pool size keeps pgx's jit compiles to one.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pgx")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import pgx_alignment as pa  # noqa: E402

import envpool_lite  # noqa: E402

NUM_ENVS = 8


@pytest.mark.parametrize("seed", [0, 1])
def test_legal_games(seed):
    counts = pa.run("backgammon", "backgammon", num_envs=NUM_ENVS, steps=1500, seed=seed, illegal=0.0)
    assert counts["illegal"] == 0
    assert counts["ended"] >= 16


@pytest.mark.parametrize("seed", [2, 3])
def test_illegal_moves(seed):
    counts = pa.run("backgammon", "backgammon", num_envs=NUM_ENVS, steps=600, seed=seed, illegal=0.01)
    assert counts["illegal"] >= 10
    assert counts["ended"] >= counts["illegal"]


def test_envpool_id():
    counts = pa.run("Backgammon-v1", "backgammon", num_envs=NUM_ENVS, steps=600, seed=4, illegal=0.005)
    assert counts["ended"] >= 4


def test_spec():
    pool = envpool_lite.make_gymnasium("Backgammon-v1", num_envs=2, seed=0)
    try:
        assert pool.single_observation_space.shape == (2, 34)
        assert pool.single_observation_space.dtype == np.int32
        assert pool.single_action_space.n == 156
        obs, info = pool.reset()
        mover = info["current_player"]
        rows = np.arange(2)
        assert (obs[rows, mover, 28:].sum(axis=-1) == 2).all()  # two distinct dice
        assert (obs[rows, 1 - mover, 28:] == 0).all()
    finally:
        pool.close()


def test_win_kinds():
    """Legal moves only; the winners' points, read from pgx's rewards:
    1 (single), 2 (gammon) and 3 (backgammon) all happen."""
    _, init, advance = pa._pgx_fns("backgammon", ())
    seed = 5
    keys = jnp.stack([jax.random.PRNGKey(seed + i) for i in range(NUM_ENVS)])
    states, views = init(keys)
    pool = envpool_lite.make_gymnasium("backgammon", num_envs=NUM_ENVS, seed=seed)
    rng = np.random.default_rng(seed)
    wins = {1: 0, 2: 0, 3: 0}
    try:
        obs, info = pool.reset()
        pa._check(obs, info, None, None, None, states, views, 0)
        reset = np.zeros(NUM_ENVS, bool)
        for t in range(1, 3001):
            mask = np.asarray(states.legal_action_mask)
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask], np.int32)
            obs, reward, terminated, truncated, info = pool.step(actions)
            states, keys, views = advance(states, keys, jnp.asarray(actions), jnp.asarray(reset))
            pa._check(obs, info, reward, terminated, truncated, states, views, t)
            reset = np.asarray(terminated) | np.asarray(truncated)
            for r in np.asarray(states.rewards)[reset]:
                wins[int(r.max())] += 1
    finally:
        pool.close()
    assert min(wins.values()) >= 1, wins
