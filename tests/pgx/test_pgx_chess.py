"""pgx's chess beside pgx 2.6.0 itself (tests/pgx/pgx_alignment.py).

Random games through many ends (checkmates, the 50-move rule, repetitions,
insufficient material, the 512-step limit) and illegal moves, compared with
== at every step. One (num_envs, options) shape so pgx compiles once.
"""

from __future__ import annotations

import numpy as np
import pgx_alignment as pa
import pytest

pytest.importorskip("pgx")

NUM_ENVS = 32
CASTLING = (2364, 2367)  # e1 -> c1, e1 -> g1 (the side to move's view)


def test_legal_games():
    counts = pa.run("Chess-v1", "chess", num_envs=NUM_ENVS, steps=250, seed=0, illegal=0.0)
    assert counts["illegal"] == 0
    assert counts["ended"] >= 1


def test_illegal_moves():
    counts = pa.run("chess", "chess", num_envs=NUM_ENVS, steps=250, seed=1, illegal=0.01)
    assert counts["illegal"] >= 20
    assert counts["ended"] >= counts["illegal"]


def _insufficient(board: np.ndarray) -> bool:
    """pgx's has_insufficient_pieces (OpenSpiel's rule), in numpy."""
    p = np.abs(board)
    pieces = int((board != 0).sum())
    pawn_rook_queen = int(((p >= 4) | (p == 1)).sum()) - 2
    bishops = int((p == 3).sum())
    black = np.array([(i // 8 + i % 8) % 2 == 0 for i in range(64)])
    on_black = int(((p == 3) & black).sum())
    return pieces <= 2 or (pieces == 3 and pawn_rook_queen == 0) or (pieces == bishops + 2 and on_black in (0, bishops))


def _special_moves(x, i: int, legal: np.ndarray) -> np.ndarray:
    """The legal castlings, en passant captures and underpromotions of env i."""
    from pgx._src.games.chess import FROM_PLANE

    board = np.asarray(x.board[i])
    ep = int(x.en_passant[i])
    frm, plane = legal // 73, legal % 73
    to = np.asarray(FROM_PLANE)[frm, plane]
    special = np.isin(legal, CASTLING) | (plane < 9) | ((ep >= 0) & (to == ep) & (board[frm] == 1))
    return legal[special]


def _play_special(seed: int, steps: int) -> tuple[dict, dict]:
    """Plays castlings, en passant captures and underpromotions whenever
    legal (and otherwise random legal moves), beside pgx, and counts the
    special moves played and the ways games ended."""
    import jax
    import jax.numpy as jnp

    import envpool_lite

    _, init, advance = pa._pgx_fns("chess", ())
    keys = jnp.stack([jax.random.PRNGKey(seed + i) for i in range(NUM_ENVS)])
    states, views = init(keys)
    pool = envpool_lite.make_gymnasium("chess", num_envs=NUM_ENVS, seed=seed)
    rng = np.random.default_rng(seed)
    played = {"castling": 0, "en_passant": 0, "underpromotion": 0}
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
                special = _special_moves(states._x, i, legal) if not reset[i] else legal[:0]
                if len(special):
                    actions[i] = rng.choice(special)
                    a = int(actions[i])
                    kind = "castling" if a in CASTLING else "underpromotion" if a % 73 < 9 else "en_passant"
                    played[kind] += 1
                else:
                    actions[i] = rng.choice(legal)
            obs, reward, terminated, truncated, info = pool.step(actions)
            states, keys, views = advance(states, keys, jnp.asarray(actions), jnp.asarray(reset))
            pa._check(obs, info, reward, terminated, truncated, states, views, t)
            x = states._x
            for i in np.flatnonzero(terminated & ~reset):
                hashes = np.asarray(x.hash_history[i])
                ends["checkmate"] += bool(np.any(reward[i] != 0))
                ends["fifty_moves"] += int(x.halfmove_count[i]) >= 100
                ends["repetition"] += int((hashes == hashes[0]).all(axis=1).sum()) - 1 >= 2
                ends["insufficient"] += _insufficient(np.asarray(x.board[i]))
                ends["max_steps"] += int(x.step_count[i]) >= 512
            reset = np.asarray(terminated) | np.asarray(truncated)
    finally:
        pool.close()
    return played, ends


def test_special_moves_and_ends():
    """Every rule exercised beside pgx: each special move, and each way a
    game ends (the 512-step limit needs a first game that long)."""
    played, ends = _play_special(seed=4, steps=560)  # a seed with every end
    assert all(v > 0 for v in played.values()), played
    assert all(v > 0 for v in ends.values()), ends


def test_initial_position():
    """The 20 opening moves, and the observation's constant planes."""
    import envpool_lite

    pool = envpool_lite.make_gymnasium("chess", num_envs=2, seed=0)
    try:
        obs, info = pool.reset()
    finally:
        pool.close()
    assert obs.shape == (2, 2, 8, 8, 119) and obs.dtype == np.float32
    mask = info["legal_action_mask"]
    assert mask.shape == (2, 4672)
    assert mask.sum(axis=1).tolist() == [20, 20]
    for i in range(2):
        me = info["current_player"][i]
        mine, theirs = obs[i, me], obs[i, 1 - me]
        assert (mine[..., 0] == (np.arange(8) == 6)[:, None]).all()  # my pawns: row 6 (rank 2)
        assert (mine[..., 112] == 0).all() and (theirs[..., 112] == 1).all()  # colors
        assert (mine[..., 114:118] == 1).all()  # castling rights
