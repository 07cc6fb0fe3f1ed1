"""pgx's connect_four, hex and othello beside pgx 2.6.0 (tests/pgx/pgx_alignment.py).

Each game plays whole games with random keys (mostly legal moves, some
illegal ones) under several seeds, by its pgx id and its EnvPool id, and
then scripted positions pgx's random play rarely reaches: an illegal move
on a full column (connect_four's row -1, which JAX wraps to the bottom
row), the swap (hex, legal on move two, illegal elsewhere), and the pass
(othello). Every run compares observation, mask, rewards, terminated and
current_player with == at every step. One pool size per game keeps pgx's
jit compiles to one per game.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from pgx_alignment import _check, _pgx_fns, run

import envpool_lite

NUM_ENVS = 8


def play(task_id, pgx_id, script, *, steps=None, seed=0, pgx_options=None, **options):
    """Play actions beside pgx, comparing at every step; return pgx's
    states (numpy) after each step. `script` is a list of steps (an action
    for all envs, or one per env) or a function (t, states) -> actions."""
    env, init, advance = _pgx_fns(pgx_id, tuple(sorted((pgx_options or {}).items())))
    keys = jnp.stack([jax.random.PRNGKey(seed + i) for i in range(NUM_ENVS)])
    states, views = init(keys)
    pool = envpool_lite.make_gymnasium(task_id, num_envs=NUM_ENVS, seed=seed, **options)
    choose = script if callable(script) else (lambda t, states: script[t - 1])
    history = []
    try:
        obs, info = pool.reset()
        _check(obs, info, None, None, None, states, views, 0)
        reset = np.zeros(NUM_ENVS, bool)
        for t in range(1, (steps or len(script)) + 1):
            actions = np.broadcast_to(np.asarray(choose(t, history[-1] if history else None), np.int32), (NUM_ENVS,)).copy()
            obs, reward, terminated, truncated, info = pool.step(actions)
            states, keys, views = advance(states, keys, jnp.asarray(actions), jnp.asarray(reset))
            _check(obs, info, reward, terminated, truncated, states, views, t)
            history.append(jax.tree.map(np.asarray, states))
            reset = np.asarray(terminated) | np.asarray(truncated)
    finally:
        pool.close()
    return history


def mover_lost(before, after):
    """The player who moved got -1, the other +1 (an illegal move's end)."""
    movers = np.asarray(before.current_player)
    rewards = np.asarray(after.rewards)
    rows = np.arange(len(movers))
    return bool(np.all(after.terminated) and np.all(rewards[rows, movers] == -1) and np.all(rewards[rows, 1 - movers] == 1))


# ---------------------------------------------------------------- connect_four


@pytest.mark.parametrize("task_id", ["connect_four", "ConnectFour-v1"])
@pytest.mark.parametrize("seed", [0, 17])
def test_connect_four_random_games(task_id, seed):
    counts = run(task_id, "connect_four", num_envs=NUM_ENVS, steps=250, seed=seed, illegal=0.02)
    assert counts["ended"] >= 40  # a game lasts 7..42 moves


def test_connect_four_full_column():
    # Six stones fill column 3 (alternating colors: no four; color 0 at the
    # bottom), color 0 plays column 0, then color 1 plays column 3 again:
    # illegal, but pgx's _step still plays it at row 5 - 6 = -1, which
    # .at[] wraps to row 5: the bottom stone (cell 38) turns color 1.
    history = play("connect_four", "connect_four", [3] * 6 + [0, 3, 0, 1, 1, 2])
    assert not np.any(history[6].terminated)
    assert np.all(history[6]._x.board[:, 38] == 0)
    assert mover_lost(history[6], history[7])
    assert np.all(history[7]._x.board[:, 38] == 1)


# ------------------------------------------------------------------------ hex


@pytest.mark.parametrize("task_id,options", [("hex", {}), ("Hex-v1", {}), ("hex", {"size": 11})])
@pytest.mark.parametrize("seed", [0, 5])
def test_hex_random_games(task_id, options, seed):
    # pgx's Hex(size=11) is Hex(): one compile for all runs.
    counts = run(task_id, "hex", num_envs=NUM_ENVS, steps=200, seed=seed, illegal=0.03, pgx_options={"size": 11}, **options)
    assert counts["ended"] >= 8  # no draws in hex: 121 moves at most
    assert counts["illegal"] > 0


def _hex_line_game(first, second):
    """Moves alternating between two lists of cells, first mover first."""
    return [cell for pair in zip(first, second) for cell in pair]


def test_hex_black_and_white_win():
    # Black (color 0) takes column 0 (cells 0, 11, ..., 110: a top-bottom
    # chain) while white plays column 10: black wins with its 11th stone.
    black = _hex_line_game([11 * r for r in range(11)], [11 * r + 10 for r in range(10)])
    black.append(110)
    history = play("hex", "hex", black[:21] + [0], pgx_options={"size": 11})
    assert not np.any(history[19].terminated) and np.all(history[20].terminated)
    # White (color 1) takes row 5 (55..65, left to right) while black
    # plays row 0 (no top-bottom chain): white wins with its 11th stone.
    white = _hex_line_game(list(range(11)), list(range(55, 66)))
    history = play("hex", "hex", white + [0], pgx_options={"size": 11})
    assert not np.any(history[20].terminated) and np.all(history[21].terminated)


def test_hex_swap():
    # The swap (action 121) on move one is illegal (pgx's _swap still runs:
    # nonzero's fill value 0 puts a stone on cell 0); on move two it is
    # legal and mirrors the first stone; on move four it is illegal again.
    swap = 121
    history = play("hex", "hex", [swap, 0, 3, swap, 60, swap, 0], pgx_options={"size": 11})
    assert np.all(history[0].terminated)
    assert not np.any(history[3].terminated)  # the legal swap
    assert np.all(history[3]._x.board[:, 33] != 0) and np.all(history[3]._x.board[:, 3] == 0)
    assert np.all(history[5].terminated)  # the swap on move four
    # Stones played on taken cells (illegal) overwrite them.
    play("hex", "hex", [5, 5, 0, 6, 6], pgx_options={"size": 11})


def test_hex_size_option():
    # pgx 2.6.0's Hex only runs at its default size 11: Hex(size=9).init
    # fails reshaping its fixed 121-cell board. Ours refuses other sizes.
    from pgx.hex import Hex

    with pytest.raises(TypeError):
        Hex(size=9).init(jax.random.PRNGKey(0))
    with pytest.raises(ValueError, match="size"):
        envpool_lite.make_gymnasium("hex", num_envs=1, size=9)
    pool = envpool_lite.make_gymnasium("hex", num_envs=1, size=11)
    assert pool.single_observation_space.shape == (2, 11, 11, 4)
    assert pool.single_action_space.n == 122
    pool.close()


# -------------------------------------------------------------------- othello


@pytest.mark.parametrize("task_id", ["othello", "Othello-v1"])
@pytest.mark.parametrize("seed", [0, 3])
def test_othello_random_games(task_id, seed):
    counts = run(task_id, "othello", num_envs=NUM_ENVS, steps=200, seed=seed, illegal=0.01)
    assert counts["ended"] >= 8
    assert counts["illegal"] > 0


def test_othello_pass_and_illegal_moves():
    # The pass (64) at the start is illegal: pgx drops the out-of-bounds
    # scatter, nothing flips. A stone on a taken cell (28, 27) is illegal.
    for script in ([64, 0], [28, 0], [27, 0], [0, 0]):
        history = play("othello", "othello", script)
        assert np.all(history[0].terminated)


def test_othello_passes_in_random_games():
    # Passes (legal only when no cell is) and two passes in a row (the end)
    # occur in random games: play legal moves only, the pass when forced.
    rng = np.random.default_rng(11)

    def choose(t, states):
        if states is None:
            return 19  # every first move is legal: 19, 26, 37 or 44
        return [rng.choice(np.flatnonzero(mask)) for mask in states.legal_action_mask]

    history = play("othello", "othello", choose, steps=700, seed=11)
    forced = sum(int(np.sum(h.legal_action_mask[:, 64] & ~h.terminated)) for h in history)
    ends = sum(int(np.sum(h.terminated)) for h in history)
    double = sum(int(np.sum(h.terminated & h._x.passed)) for h in history)
    assert forced > 0 and ends >= 60, (forced, ends)
    print(f"othello: {forced} forced passes, {ends} ends, {double} by two passes")
