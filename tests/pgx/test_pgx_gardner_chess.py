"""pgx's gardner_chess (5x5 minichess) beside pgx 2.6.0 itself
(tests/pgx/pgx_alignment.py).

Random games through many ends (checkmates, the 50-move rule, repetitions,
insufficient material, the 256-step limit) and illegal moves, compared with
== at every step. One (num_envs, options) shape so pgx compiles once.
"""

from __future__ import annotations

import numpy as np
import pgx_alignment as pa
import pytest

pytest.importorskip("pgx")

NUM_ENVS = 32


def test_legal_games():
    counts = pa.run("GardnerChess-v1", "gardner_chess", num_envs=NUM_ENVS, steps=250, seed=0, illegal=0.0)
    assert counts["illegal"] == 0
    assert counts["ended"] >= 30


def test_illegal_moves():
    # Most random labels move from an empty square, which pgx turns into a
    # queen (see test_illegal_move_from_an_empty_square).
    counts = pa.run("gardner_chess", "gardner_chess", num_envs=NUM_ENVS, steps=250, seed=1, illegal=0.02)
    assert counts["illegal"] >= 80
    assert counts["ended"] >= counts["illegal"]


def _insufficient(board: np.ndarray) -> bool:
    """pgx's has_insufficient_pieces (OpenSpiel's rule), in numpy."""
    p = np.abs(board)
    pieces = int((board != 0).sum())
    pawn_rook_queen = int(((p >= 4) | (p == 1)).sum()) - 2
    bishops = int((p == 3).sum())
    on_black = int((p[::2] == 3).sum())
    return pieces <= 2 or (pieces == 3 and pawn_rook_queen == 0) or (pieces == bishops + 2 and on_black in (0, bishops))


def _play_special(seed: int, steps: int, clock: int | None = None) -> tuple[int, dict]:
    """Plays underpromotions whenever legal (otherwise random legal moves)
    beside pgx; counts them and the ways games ended. With a clock, plays
    no capture or pawn move while the 50-move clock (halfmove_count) is
    under it, then one if it can: clock=90 makes games that last to the
    256-step limit, clock=100 games that end by the 50-move rule (or a
    repetition)."""
    import jax
    import jax.numpy as jnp
    from pgx._src.gardner_chess_utils import TO_MAP

    import envpool_lite

    _, init, advance = pa._pgx_fns("gardner_chess", ())
    keys = jnp.stack([jax.random.PRNGKey(seed + i) for i in range(NUM_ENVS)])
    states, views = init(keys)
    pool = envpool_lite.make_gymnasium("gardner_chess", num_envs=NUM_ENVS, seed=seed)
    rng = np.random.default_rng(seed)
    underpromotions = 0
    ends = {"checkmate": 0, "fifty_moves": 0, "repetition": 0, "insufficient": 0, "max_steps": 0}
    try:
        obs, info = pool.reset()
        pa._check(obs, info, None, None, None, states, views, 0)
        reset = np.zeros(NUM_ENVS, bool)
        for t in range(1, steps + 1):
            mask = np.asarray(states.legal_action_mask)
            actions = np.empty(NUM_ENVS, np.int32)
            for i in range(NUM_ENVS):
                legal = np.flatnonzero(mask[i])
                preferred = legal[legal % 49 < 9]
                if clock is not None:
                    board = np.asarray(states._board[i])
                    frm = legal // 49
                    progress = (board[frm] == 1) | (board[np.asarray(TO_MAP)[frm, legal % 49]] < 0)
                    preferred = legal[progress == (int(states._halfmove_count[i]) >= clock)]
                actions[i] = rng.choice(preferred if len(preferred) and not reset[i] else legal)
                underpromotions += not reset[i] and actions[i] % 49 < 9
            obs, reward, terminated, truncated, info = pool.step(actions)
            states, keys, views = advance(states, keys, jnp.asarray(actions), jnp.asarray(reset))
            pa._check(obs, info, reward, terminated, truncated, states, views, t)
            for i in np.flatnonzero(terminated & ~reset):
                hashes = np.asarray(states._hash_history[i])
                ends["checkmate"] += bool(np.any(reward[i] != 0))
                ends["fifty_moves"] += int(states._halfmove_count[i]) >= 100
                ends["repetition"] += int((hashes == hashes[0]).all(axis=1).sum()) - 1 >= 2
                ends["insufficient"] += _insufficient(np.asarray(states._board[i]))
                ends["max_steps"] += int(states._step_count[i]) >= 256
            reset = np.asarray(terminated) | np.asarray(truncated)
    finally:
        pool.close()
    return underpromotions, ends


def test_underpromotions_and_ends():
    """Each way a game ends, seen beside pgx."""
    seen = {}
    for seed, clock in [(2, None), (3, 100), (2, 90)]:
        underpromotions, ends = _play_special(seed=seed, steps=300, clock=clock)
        assert clock is not None or underpromotions >= 100
        seen = {k: seen.get(k, 0) + v for k, v in ends.items()}
    assert all(v > 0 for v in seen.values()), seen


def test_illegal_move_from_an_empty_square():
    """pgx's promotion test `piece == PAWN & (from % 5 == 3) & ...` parses
    as `piece == (PAWN & ...)`: "moving" the empty a3 to a4 puts a queen on
    a4 (and loses the game, as an illegal move)."""
    import envpool_lite

    pool = envpool_lite.make_gymnasium("gardner_chess", num_envs=1, seed=0)
    try:
        obs, info = pool.reset()
        me = int(info["current_player"][0])
        assert obs.shape == (1, 2, 5, 5, 115) and obs.dtype == np.float32
        assert info["legal_action_mask"].sum() == 7
        label = 2 * 49 + 13  # from a3 (square 2), one rank up: a4 (square 3)
        assert not info["legal_action_mask"][0, label]
        obs, reward, terminated, _, _ = pool.step(np.int32([label]))
    finally:
        pool.close()
    assert terminated[0] and reward[0, me] == -1 and reward[0, 1 - me] == 1
    # a4 is row 1 (5 - rank 4), column 0 (file a): the mover's queen plane.
    assert obs[0, me, 1, 0, 4] == 1
    assert obs[0, 1 - me, 3, 0, 6 + 4] == 1  # the opponent's view: its row 3
