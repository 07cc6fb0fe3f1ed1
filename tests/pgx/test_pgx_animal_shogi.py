"""pgx's animal_shogi (AnimalShogi-v1) beside pgx 2.6.0, step by step.

Every run plays 8 envs (one jit compile of pgx for the whole file) and
compares observations, masks, rewards and flags with == at every step
(tests/pgx/pgx_alignment.py). Besides random play with illegal moves, a run
with steered policies makes every way a game ends happen: a win (no legal
move left, or a king's try), a draw by a third repetition (players undoing
their last move) and a draw at step 256 (quiet play that avoids captures
and positions already seen).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pgx_alignment as pa
import pytest
import scope

import envpool_lite

NUM_ENVS = 8
_DX = (-1, -1, -1, 0, 0, 1, 1, 1)
_DY = (-1, 0, 1, -1, 1, -1, 0, 1)


def _to(square: int, direction: int) -> int:
    """pgx's _to: the square one step away in a direction, -1 off the board."""
    x, y = square // 4 + _DX[direction], square % 4 + _DY[direction]
    return -1 if not (0 <= x < 3 and 0 <= y < 4) else x * 4 + y


@pytest.mark.parametrize("seed", scope.seeds([0, 1, 2], more=5))
def test_random_games(seed: int) -> None:
    counts = pa.run("animal_shogi", "animal_shogi", num_envs=NUM_ENVS, steps=300, seed=seed)
    assert counts["ended"] > 20
    assert counts["illegal"] > 10


def test_envpool_id() -> None:
    counts = pa.run("AnimalShogi-v1", "animal_shogi", num_envs=NUM_ENVS, steps=300, seed=7, illegal=0.05)
    assert counts["ended"] > 20
    assert counts["illegal"] > 10


def test_every_ending() -> None:
    """Steered play, compared at every step; counts how each game ended."""
    _, init, advance = pa._pgx_fns("animal_shogi", ())
    seed = 11
    keys = jnp.stack([jax.random.PRNGKey(seed + i) for i in range(NUM_ENVS)])
    states, views = init(keys)
    pool = envpool_lite.make_gymnasium("animal_shogi", num_envs=NUM_ENVS, seed=seed)
    rng = np.random.default_rng(seed)
    ended = {"win": 0, "repetition": 0, "step 256": 0}
    seen: list[set] = [set() for _ in range(NUM_ENVS)]
    last: dict[tuple[int, int], int] = {}
    try:
        obs, info = pool.reset()
        pa._check(obs, info, None, None, None, states, views, 0)
        reset = np.zeros(NUM_ENVS, bool)
        for t in range(1, 601):
            mask = np.asarray(states.legal_action_mask)
            board = np.asarray(states._board)
            player = np.asarray(states.current_player)
            actions = np.empty(NUM_ENVS, np.int32)
            for i in range(NUM_ENVS):
                if reset[i]:
                    seen[i].clear()
                    last = {k: a for k, a in last.items() if k[0] != i}
                legal = np.flatnonzero(mask[i])
                if i < 6:
                    action = _quiet_new_move(board[i], legal, int(player[i]), seen[i], rng)
                else:
                    action = _undo_move(last.get((i, int(player[i]))), mask[i], rng)
                actions[i] = rng.choice(legal) if action is None else action
                last[(i, int(player[i]))] = int(actions[i])
            obs, reward, terminated, truncated, info = pool.step(actions)
            states, keys, views = advance(states, keys, jnp.asarray(actions), jnp.asarray(reset))
            pa._check(obs, info, reward, terminated, truncated, states, views, t)
            rep = np.asarray(states._rep_history)[:, 0]
            steps = np.asarray(states._step_count)
            for i in np.flatnonzero(np.asarray(terminated) & ~reset):
                kind = "repetition" if rep[i] >= 2 else "step 256" if steps[i] >= 256 else "win"
                ended[kind] += 1
            reset = np.asarray(terminated) | np.asarray(truncated)
    finally:
        pool.close()
    assert all(n > 0 for n in ended.values()), ended


def _quiet_new_move(board, legal, player, seen: set, rng):
    """A legal drop or a move that captures nothing, keeps the king off the
    far row, and leads to a board not seen before in this game; None if
    there is none."""
    quiet = []
    for a in legal:
        after = board.copy()
        if a >= 96:
            after[a % 12] = a // 12 - 8
        else:
            frm, to = a % 12, _to(a % 12, a // 12)
            if after[to] >= 5 or (after[frm] == 3 and to % 4 == 0):
                continue
            after[to] = 4 if (frm % 4 == 1 and after[frm] == 0) else after[frm]
            after[frm] = -1
        key = (player, after.tobytes())
        if key not in seen:
            quiet.append((a, key))
    if not quiet:
        return None
    action, key = quiet[rng.integers(len(quiet))]
    seen.add(key)
    return action


def _undo_move(previous, mask, rng):
    """Mostly the move back of the player's previous move (the same piece,
    the opposite direction), when legal; None otherwise."""
    if previous is None or previous >= 96 or rng.random() > 0.8:
        return None
    back = 12 * (7 - previous // 12) + _to(previous % 12, previous // 12)
    return back if mask[back] else None


def test_spaces() -> None:
    pool = envpool_lite.make_gymnasium("AnimalShogi-v1", num_envs=2, seed=0)
    try:
        assert pool.single_observation_space.shape == (2, 4, 3, 194)
        assert pool.single_observation_space.dtype == np.float32
        assert pool.single_action_space.n == 132
    finally:
        pool.close()
