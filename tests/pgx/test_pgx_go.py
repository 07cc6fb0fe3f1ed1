"""pgx's go (go_9x9, go_19x19; EnvPool's Go9x9-v1, Go13x13-v1, Go19x19-v1)
beside pgx 2.6.0, step by step (tests/pgx/pgx_alignment.py).

Every run plays 8 envs and compares observations, masks, rewards and flags
with == at every step. 9x9 plays many whole games under several seeds, and
a counted run checks that captures, ko and two-pass endings (scored with
komi) all happen in it; a scripted game ends by positional superko.
19x19 games are long (pgx ends them at max_terminal_steps = 722), so
19x19 is sampled: its games end by illegal moves, or by a short
max_terminal_steps. Each constructor option (komi, history_length,
max_terminal_steps; size through the ids) has a run.
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


def play(task_id, pgx_id, choose, *, steps, seed=0, pgx_options=None, on_step=None, **options):
    """Play choose(t, states, reset) -> actions beside pgx for `steps`
    steps, comparing at every step; on_step(before, actions, after, reset)
    sees pgx's states around each step."""
    _, init, advance = pa._pgx_fns(pgx_id, tuple(sorted((pgx_options or {}).items())))
    keys = jnp.stack([jax.random.PRNGKey(seed + i) for i in range(NUM_ENVS)])
    states, views = init(keys)
    pool = envpool_lite.make_gymnasium(task_id, num_envs=NUM_ENVS, seed=seed, **options)
    infos = []
    try:
        obs, info = pool.reset()
        pa._check(obs, info, None, None, None, states, views, 0)
        reset = np.zeros(NUM_ENVS, bool)
        for t in range(1, steps + 1):
            actions = np.asarray(choose(t, states, reset), np.int32)
            before = states
            obs, reward, terminated, truncated, info = pool.step(actions)
            states, keys, views = advance(states, keys, jnp.asarray(actions), jnp.asarray(reset))
            pa._check(obs, info, reward, terminated, truncated, states, views, t)
            infos.append((info, reward, terminated))
            if on_step is not None:
                on_step(before, actions, states, reset)
            reset = np.asarray(terminated) | np.asarray(truncated)
    finally:
        pool.close()
    return infos


@pytest.mark.parametrize("seed", scope.seeds([0, 1, 2], more=5))
def test_go_9x9_random_games(seed: int) -> None:
    counts = pa.run("go_9x9", "go_9x9", num_envs=NUM_ENVS, steps=250, seed=seed, illegal=0.01)
    assert counts["ended"] > 5
    assert counts["illegal"] > 0


def test_go9x9_envpool_id() -> None:
    counts = pa.run("Go9x9-v1", "go_9x9", num_envs=NUM_ENVS, steps=250, seed=5, illegal=0.01)
    assert counts["ended"] > 5
    assert counts["illegal"] > 0


def test_go_9x9_captures_ko_and_two_passes() -> None:
    """Mostly legal random play (a rare illegal move, some extra passes):
    counts captures, ko (a point forbidden by simple ko) and the ways games
    ended, from pgx's states."""
    rng = np.random.default_rng(3)
    seen = {"captures": 0, "ko": 0, "ko move tried": 0, "two passes": 0, "illegal": 0, "move limit": 0}

    def choose(t, states, reset):
        mask = np.asarray(states.legal_action_mask)
        ko = np.asarray(states._x.ko)
        actions = []
        for i in range(NUM_ENVS):
            r = rng.random()
            if ko[i] >= 0 and r < 0.2:
                actions.append(ko[i])  # retake the ko at once: illegal
            elif r < 0.005:
                actions.append(rng.integers(82))
            elif r < 0.04:
                actions.append(81)
            else:
                actions.append(rng.choice(np.flatnonzero(mask[i])))
        return actions

    def on_step(before, actions, after, reset):
        live = ~reset
        mask = np.asarray(before.legal_action_mask)
        illegal = live & ~mask[np.arange(NUM_ENVS), actions]
        seen["ko move tried"] += int((live & (actions == np.asarray(before._x.ko))).sum())
        captured = np.asarray(after._x.num_captured).sum(1) > np.asarray(before._x.num_captured).sum(1)
        seen["captures"] += int((live & captured).sum())
        seen["ko"] += int((live & (np.asarray(after._x.ko) >= 0)).sum())
        ended = live & np.asarray(after.terminated)
        seen["illegal"] += int((ended & illegal).sum())
        seen["two passes"] += int((ended & ~illegal & (np.asarray(after._x.consecutive_pass_count) >= 2)).sum())
        seen["move limit"] += int((ended & ~illegal & (np.asarray(after._x.step_count) >= 162)).sum())

    play("go_9x9", "go_9x9", choose, steps=500, seed=3, on_step=on_step)
    for what in ("captures", "ko", "ko move tried", "two passes", "illegal"):
        assert seen[what] > 0, seen


# Two ko shapes on 9x9 (cell = 9 * row + column). In the left one black
# can take the white stone at 10 by playing 11; in the right one white can
# take the black stone at 15 by playing 16.
_SETUP_BLACK = [1, 9, 19, 7, 15, 17, 25]
_SETUP_WHITE = [2, 10, 12, 20, 6, 14, 24]
# Black takes at 11, white takes at 16, black passes (the ko at 16 is
# black's to wait out), white retakes at 10, black retakes at 15: the
# board of move 14 again, so positional superko ends the game there, a
# loss for black.
_SUPERKO = [a for pair in zip(_SETUP_BLACK, _SETUP_WHITE) for a in pair] + [11, 16, 81, 10, 15]


def test_go_positional_superko() -> None:
    infos = play("go_9x9", "go_9x9", lambda t, s, r: [_SUPERKO[t - 1]] * NUM_ENVS, steps=len(_SUPERKO), seed=20)
    after_take, _, _ = infos[14]  # after move 15: white to move, 10 is ko
    assert not np.asarray(after_take["legal_action_mask"])[:, 10].any()
    white = np.asarray(after_take["current_player"])
    _, reward, terminated = infos[-1]
    assert np.asarray(terminated).all()
    assert not any(np.asarray(t).any() for _, _, t in infos[:-1])
    assert (np.asarray(reward)[np.arange(NUM_ENVS), white] == 1.0).all()
    assert (np.asarray(reward)[np.arange(NUM_ENVS), 1 - white] == -1.0).all()


@pytest.mark.parametrize(("task_id", "seed"), [("go_19x19", 0), ("Go19x19-v1", 1)])
def test_go_19x19_sampled(task_id: str, seed: int) -> None:
    counts = pa.run(task_id, "go_19x19", num_envs=NUM_ENVS, steps=150, seed=seed, illegal=0.02)
    assert counts["ended"] > 0
    assert counts["illegal"] > 0


def test_go_19x19_options() -> None:
    """Games end at max_terminal_steps=60 and are scored over the whole
    board with an integer komi (a tie goes to white); one board of
    history."""
    options = {"komi": 0.0, "history_length": 1, "max_terminal_steps": 60}
    counts = pa.run("go_19x19", "go_19x19", num_envs=NUM_ENVS, steps=150, seed=4, illegal=0.0, pgx_options={"size": 19, **options}, **options)
    assert counts["ended"] >= 2 * NUM_ENVS


def test_go13x13_options() -> None:
    """Go13x13-v1 is pgx's Go(size=13); here with every other option
    changed too."""
    options = {"komi": 0.5, "history_length": 3, "max_terminal_steps": 40}
    counts = pa.run("Go13x13-v1", "go_9x9", num_envs=NUM_ENVS, steps=200, seed=6, illegal=0.005, pgx_options={"size": 13, **options}, **options)
    assert counts["ended"] >= 3 * NUM_ENVS


@pytest.mark.parametrize(("task_id", "size"), [("go_9x9", 9), ("Go13x13-v1", 13), ("Go19x19-v1", 19)])
def test_go_spaces(task_id: str, size: int) -> None:
    pool = envpool_lite.make_gymnasium(task_id, num_envs=1, seed=0, history_length=2)
    try:
        assert pool.single_observation_space.shape == (2, size, size, 5)
        assert pool.single_observation_space.dtype == np.bool_
        assert pool.single_action_space.n == size * size + 1
    finally:
        pool.close()


@pytest.mark.parametrize(
    ("task_id", "options", "message"),
    [
        ("go_9x9", {"size": 19}, "size"),
        ("Go19x19-v1", {"size": 13}, "size"),
        ("go_9x9", {"history_length": 0}, "history_length"),
        ("go_9x9", {"max_terminal_steps": -1}, "max_terminal_steps"),
    ],
)
def test_go_bad_options(task_id: str, options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        envpool_lite.make_gymnasium(task_id, num_envs=1, seed=0, **options)
