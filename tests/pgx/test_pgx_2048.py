"""pgx's 2048 beside pgx 2.6.0 itself (tests/pgx/pgx_alignment.py).

Whole games with random keys (mostly legal slides, some illegal ones)
under several seeds, by pgx's id and EnvPool's, then a scripted case pgx's
random play rarely reaches: an illegal slide on a full board, where pgx's
new tile has no empty cell (jax.random.choice with all-zero weights puts it
on cell 0). Every step compares the observation, mask, reward and
terminated with ==. One pool size keeps pgx's jit compiles to one.
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
    counts = pa.run("2048", "2048", num_envs=NUM_ENVS, steps=400, seed=seed, illegal=0.03)
    assert counts["ended"] >= 8
    assert counts["illegal"] >= 5


def test_envpool_id_legal_games():
    counts = pa.run("Play2048-v1", "2048", num_envs=NUM_ENVS, steps=400, seed=3, illegal=0.0)
    assert counts["illegal"] == 0
    assert counts["ended"] >= 8  # every end is a board no slide can move


def test_spec():
    pool = envpool_lite.make_gymnasium("Play2048-v1", num_envs=2, seed=0)
    try:
        assert pool.single_observation_space.shape == (4, 4, 31)
        assert pool.single_observation_space.dtype == np.bool_
        assert pool.single_action_space.n == 4
        obs, info = pool.reset()
        assert obs.sum(axis=-1).min() == 1  # one plane per cell
        assert (obs[..., 1:].sum(axis=(1, 2, 3)) == 2).all()  # two tiles
    finally:
        pool.close()


def test_illegal_slide_on_full_board():
    """Random legal slides; whenever a board is full and some slide moves
    nothing, that slide (illegal) is played: pgx still adds a tile, with
    no empty cell to draw, on cell 0."""
    _, init, advance = pa._pgx_fns("2048", ())
    seed = 4
    keys = jnp.stack([jax.random.PRNGKey(seed + i) for i in range(NUM_ENVS)])
    states, views = init(keys)
    pool = envpool_lite.make_gymnasium("2048", num_envs=NUM_ENVS, seed=seed)
    rng = np.random.default_rng(seed)
    played = 0
    try:
        obs, info = pool.reset()
        pa._check(obs, info, None, None, None, states, views, 0)
        reset = np.zeros(NUM_ENVS, bool)
        for t in range(1, 1201):
            board = np.asarray(states._board)
            mask = np.asarray(states.legal_action_mask)
            actions = np.empty(NUM_ENVS, np.int32)
            for i in range(NUM_ENVS):
                if not reset[i] and (board[i] > 0).all() and not mask[i].all():
                    actions[i] = rng.choice(np.flatnonzero(~mask[i]))
                    played += 1
                else:
                    actions[i] = rng.choice(np.flatnonzero(mask[i]))
            obs, reward, terminated, truncated, info = pool.step(actions)
            states, keys, views = advance(states, keys, jnp.asarray(actions), jnp.asarray(reset))
            pa._check(obs, info, reward, terminated, truncated, states, views, t)
            reset = np.asarray(terminated) | np.asarray(truncated)
    finally:
        pool.close()
    assert played >= 5
