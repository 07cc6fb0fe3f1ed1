"""pgx's kuhn_poker and leduc_holdem beside pgx 2.6.0 (tests/pgx/pgx_alignment.py).

Each game plays whole hands with random keys (the deal and the first
player come from the key) under several seeds, by its pgx id and its
EnvPool id, comparing observation, mask, rewards, terminated and
current_player with == at every step; then scripted hands: Kuhn's four
endings, Leduc's illegal moves (the fold before any bet, a third raise
whose chips overflow the observation's 0..13 range: pgx's out-of-bounds
.at[].set is dropped) and the public card, shown in round 1 only.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from pgx_alignment import _check, _pgx_fns, run

import envpool_lite

NUM_ENVS = 16


def play(task_id, pgx_id, script, *, seed=0):
    """Play fixed actions (one a step for all envs) beside pgx, comparing
    at every step; return pgx's states (numpy) after each step."""
    _, init, advance = _pgx_fns(pgx_id, ())
    keys = jnp.stack([jax.random.PRNGKey(seed + i) for i in range(NUM_ENVS)])
    states, views = init(keys)
    pool = envpool_lite.make_gymnasium(task_id, num_envs=NUM_ENVS, seed=seed)
    history = []
    try:
        obs, info = pool.reset()
        _check(obs, info, None, None, None, states, views, 0)
        reset = np.zeros(NUM_ENVS, bool)
        for t, action in enumerate(script, start=1):
            actions = np.full(NUM_ENVS, action, np.int32)
            obs, reward, terminated, truncated, info = pool.step(actions)
            states, keys, views = advance(states, keys, jnp.asarray(actions), jnp.asarray(reset))
            _check(obs, info, reward, terminated, truncated, states, views, t)
            history.append(jax.tree.map(np.asarray, states))
            reset = np.asarray(terminated) | np.asarray(truncated)
    finally:
        pool.close()
    return history


# ----------------------------------------------------------------- kuhn_poker


@pytest.mark.parametrize("task_id", ["kuhn_poker", "KuhnPoker-v1"])
@pytest.mark.parametrize("seed", [0, 21])
def test_kuhn_poker_random_hands(task_id, seed):
    counts = run(task_id, "kuhn_poker", num_envs=NUM_ENVS, steps=150, seed=seed, illegal=0.05)
    assert counts["ended"] >= 500  # a hand lasts 2 or 3 moves
    assert counts["illegal"] == 0  # bet and pass are always legal


def test_kuhn_poker_endings():
    bet, pas = 0, 1
    # bet-pass: the bettor wins 1; bet-bet: showdown for 2; pass-pass:
    # showdown for 1; pass-bet-pass and pass-bet-bet.
    for script, length, stake in (([bet, pas], 2, 1), ([bet, bet], 2, 2), ([pas, pas], 2, 1), ([pas, bet, pas], 3, 1), ([pas, bet, bet], 3, 2)):
        history = play("kuhn_poker", "kuhn_poker", [*script, 0, 0])
        end = history[length - 1]
        assert np.all(end.terminated) and not np.any(history[length - 2].terminated)
        assert np.all(np.abs(end.rewards) == stake)


# --------------------------------------------------------------- leduc_holdem


@pytest.mark.parametrize("task_id", ["leduc_holdem", "LeducHoldem-v1"])
@pytest.mark.parametrize("seed", [0, 8, 30])
def test_leduc_holdem_random_hands(task_id, seed):
    counts = run(task_id, "leduc_holdem", num_envs=NUM_ENVS, steps=150, seed=seed, illegal=0.05)
    assert counts["ended"] >= 300
    assert counts["illegal"] > 0


def test_leduc_holdem_scripted_hands():
    call, raise_, fold = 0, 1, 2
    # The fold before any bet is illegal.
    history = play("leduc_holdem", "leduc_holdem", [fold, call])
    assert np.all(history[0].terminated)
    # Round 0: raise, raise, call (chips 5, 5; round 1 shows the public
    # card); round 1: raise (9), raise (13), a third raise (illegal: chips
    # 17, past the observation's chip flags for the other player's view).
    history = play("leduc_holdem", "leduc_holdem", [raise_, raise_, call, raise_, raise_, raise_, call])
    assert np.all(history[2]._round == 1) and not np.any(history[4].terminated)
    assert np.all(history[5].terminated) and np.all(history[5]._chips.max(axis=1) == 17)
    # A hand played to the showdown in round 1 ends in round 2, where the
    # public card is hidden again; a fold in round 0 ends in round 1,
    # where it shows.
    history = play("leduc_holdem", "leduc_holdem", [call, call, raise_, call, call, raise_, fold, call])
    assert np.all(history[3].terminated) and np.all(history[3]._round == 2)
    assert np.all(history[6].terminated) and np.all(history[6]._round == 1)
