"""pgx's shogi (cpp/envs/pgx/shogi.h) beside pgx 2.6.0, step by step.

Every run uses one pool shape (8 envs) so pgx's jit compiles once. The
random runs play whole games: to pgx's 512-step limit, to checkmates, and
to illegal actions (which pgx still plays on the board before it ends the
game, so the final observation shows the illegal move's result). The
scripted runs play chosen illegal actions whose decoding depends on JAX's
index semantics (a mover decoded at square -1, an empty square or an
opponent's piece "promoted", a king or gold "promoted" into an opponent's
piece, own pieces captured, drops without the piece).
"""

from __future__ import annotations

import numpy as np
import pgx_alignment
import pytest
import scope
from pgx_alignment import run

NUM_ENVS = 8


def play(task_id: str, actions: np.ndarray, seed: int = 0) -> dict:
    """Play scripted actions (steps, NUM_ENVS) beside pgx, checking every
    step as pgx_alignment.run does; return the rewards and terminations."""
    import jax
    import jax.numpy as jnp

    import envpool_lite

    _, init, advance = pgx_alignment._pgx_fns("shogi", ())
    keys = jnp.stack([jax.random.PRNGKey(seed + i) for i in range(NUM_ENVS)])
    states, views = init(keys)
    pool = envpool_lite.make_gymnasium(task_id, num_envs=NUM_ENVS, seed=seed)
    out = {"rewards": [], "terminated": []}
    try:
        obs, info = pool.reset()
        pgx_alignment._check(obs, info, None, None, None, states, views, 0)
        reset = np.zeros(NUM_ENVS, bool)
        for t, row in enumerate(np.asarray(actions, np.int32), start=1):
            obs, reward, terminated, truncated, info = pool.step(row)
            states, keys, views = advance(states, keys, jnp.asarray(row), jnp.asarray(reset))
            pgx_alignment._check(obs, info, reward, terminated, truncated, states, views, t)
            reset = np.asarray(terminated) | np.asarray(truncated)
            out["rewards"].append(np.asarray(reward))
            out["terminated"].append(np.asarray(terminated))
    finally:
        pool.close()
    return out


def action(direction: int, to: int) -> int:
    return direction * 81 + to


@pytest.mark.parametrize("seed", scope.seeds([0, 1, 2], more=5))
def test_random_games_with_illegal_actions(seed):
    counts = run("shogi", "shogi", num_envs=NUM_ENVS, steps=120, seed=seed, illegal=0.05)
    assert counts["ended"] > 0 and counts["illegal"] > 0, counts


def test_many_illegal_actions_envpool_id():
    # Any action at 30% of steps: most random actions decode to odd moves
    # (a mover at -1, an empty or opponent's square, promotions of pieces
    # that cannot promote), in positions of every stage of a game.
    counts = run("Shogi-v1", "shogi", num_envs=NUM_ENVS, steps=100, seed=7, illegal=0.3)
    assert counts["illegal"] >= 100, counts


def test_full_games_to_the_step_limit():
    # Legal play only: every game ends, by a mate or at pgx's 512 steps.
    counts = run("shogi", "shogi", num_envs=NUM_ENVS, steps=520, seed=3, illegal=0.0)
    assert counts["illegal"] == 0
    assert counts["ended"] >= NUM_ENVS, counts


def test_initial_position():
    import pgx._src.games.shogi as pgx_shogi

    import envpool_lite

    pool = envpool_lite.make_gymnasium("shogi", num_envs=2, seed=0)
    try:
        obs, info = pool.reset()
    finally:
        pool.close()
    assert obs.shape == (2, 2, 9, 9, 119) and obs.dtype == np.bool_
    mask = info["legal_action_mask"]
    assert mask.shape == (2, 2187) and (mask.sum(axis=1) == 30).all()
    np.testing.assert_array_equal(mask[0], np.asarray(pgx_shogi.INIT_LEGAL_ACTION_MASK))


def test_scripted_illegal_actions():
    # The initial position seen by the mover: pawns on rank y=6, rook on
    # square 16, bishop 70, golds 35 and 53, king 44, lances 8 and 80; the
    # opponent's lance on 0 and king on 36.
    first = [
        action(10, 34),  # gold 35 "promotes" into an opponent's pawn
        action(10, 43),  # king "promotes" into an opponent's lance (9 majors)
        action(10, 80),  # no square below 80: mover -1 reads square 80
        action(0, 15),  # the rook takes its own pawn (a gold in hand)
        action(3, 44),  # gold takes its own king (a rook in hand; no king)
        action(20, 40),  # a pawn dropped from an empty hand (count -1)
        action(25, 44),  # a rook dropped onto the own king
        action(13, 40),  # an empty square "promoted": a second king on 40
    ]
    second = [
        action(15, 1),  # no own piece above 1: the opponent's lance moves
        action(0, 80),  # mover -1, no promotion: the board stays
        action(5, 34),  # the pawn on 33 moved backwards
        action(16, 36),  # mover -1 (80's lance) takes the king: hand index 7 dropped
        action(8, 0),  # mover -1 (80's lance) takes the lance on 0
        action(26, 0),  # a gold dropped on the opponent's lance
        action(19, 44),  # mover -1 (80's lance) promotes onto the own king
        action(14, 80),  # mover -1 is 80 itself: the lance promotes in place
    ]
    filler = [0] * NUM_ENVS  # ignored: the pool resets an ended game
    out = play("shogi", np.array([first, filler, second]))
    assert out["terminated"][0].all() and out["terminated"][2].all()
    for t in (0, 2):
        rewards = out["rewards"][t]
        assert (np.sort(rewards, axis=1) == [-1.0, 1.0]).all()


# A random legal game (recorded from pgx) that reaches, after 207 moves, a
# position where dropping a pawn on 55 (in front of the opponent's king)
# is legal in every other respect but mates: pgx's _is_drop_pawn_mate
# takes it off the mask.
PAWN_MATE_GAME = """
34 50 79 52 205 25 68 296 14 350 25 368 214 43 548 521 61 331 566 77 296 25 177 5
150 735 142 49 41 59 59 23 23 48 376 192 574 32 268 431 449 187 304 31 186 945 22
369 222 341 13 76 982 297 620 458 295 306 21 1843 506 195 158 857 109 1675 43 151
339 559 58 1882 142 78 150 629 7 779 14 61 229 213 628 439 1910 186 2020 14 587 521
136 199 109 140 66 430 27 277 1643 2164 2126 147 367 106 376 1921 1649 2127 12 273
28 1630 22 24 1878 148 533 593 40 29 611 344 196 286 14 426 295 66 2171 1879 349 187
431 68 1637 339 313 2155 39 41 1662 1673 41 768 199 1637 335 52 2025 40 155 110 883
344 1663 625 385 14 1856 420 25 1680 228 335 225 584 163 1881 431 106 1672 48 1008
514 42 57 126 521 288 278 1901 180 190 326 587 2013 1602 1997 579 187 67 1667 16
1634 66 789 974 956 469 421 1875 1824 789 1690 1718 46 367
"""


def test_drop_pawn_mate():
    import envpool_lite

    game = [int(a) for a in PAWN_MATE_GAME.split()]
    assert len(game) == 207
    drop = action(20, 55)
    # Every env plays the game (their first players differ by seed), then
    # the mating pawn drop, which pgx plays as an illegal action.
    out = play("shogi", np.array([[a] * NUM_ENVS for a in [*game, drop]]), seed=20)
    assert not np.any(out["terminated"][:-1]) and out["terminated"][-1].all()
    pool = envpool_lite.make_gymnasium("shogi", num_envs=1, seed=0)
    try:
        obs, info = pool.reset()
        for a in game:
            obs, _, terminated, _, info = pool.step(np.array([a], np.int32))
            assert not terminated[0]
    finally:
        pool.close()
    assert not info["legal_action_mask"][0, drop]
    # The mover's view: square (x, y) = (6, 1) is at row 1, column 8 - 6.
    view = obs[0, info["current_player"][0]]
    assert not view[1, 2, :14].any() and not view[1, 2, 31:45].any()  # empty
    assert not view[:, 2, 0].any()  # no own pawn on that file
    assert view[:, :, 62].all()  # a pawn in hand
