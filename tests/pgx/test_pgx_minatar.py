"""pgx's five MinAtar games beside pgx 2.6.0 (tests/pgx/pgx_alignment.py).

Each game plays whole games under several seeds with random actions, with
the default sticky_action_prob (0.1) and another one, with its minimal
action set (pgx's default) and with all six actions
(use_minimal_action_set=False), and then a long
scripted run whose policy reads pgx's state to reach what random play
rarely does: Breakout's brick wall cleared and rebuilt, Asterix's ramp to
its fastest speeds, Space Invaders' cleared wave, Freeway's crossings and
its 2500-step time limit, Seaquest's six-diver surfacing (after which pgx
leaves the diver count at -1), its difficulty ramp, an oxygen run-out and
a full enemy-bullet table. Every run compares observation, mask, reward,
terminated and truncated with == at every step (pgx_alignment._check).

One jit compile per game and action set: pgx's step reads
sticky_action_prob from the env object, as a Python value pgx compares in
float32 (`uniform(key) < sticky_action_prob`, a weak-typed float). Here it
is set, while jax traces the step, to a traced float32 argument, so one
compiled step serves every probability with the same float32 comparison;
the loop is pgx_alignment.run's (same keys, same next-step auto-reset).
use_minimal_action_set is pgx's constructor option as given (it sizes
pgx's legal_action_mask, so each value has its own compile).
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from pgx_alignment import _check

import envpool_lite

NUM_ENVS = 4
# Minimal action sets (full action ids: 0 noop, 1 left, 2 up, 3 right,
# 4 down, 5 fire) and observation channels.
GAMES = {
    "asterix": ([0, 1, 2, 3, 4], 4),
    "breakout": ([0, 1, 3], 4),
    "freeway": ([0, 2, 4], 7),
    "seaquest": ([0, 1, 2, 3, 4, 5], 10),
    "space_invaders": ([0, 1, 3, 5], 6),
}


@functools.cache
def _fns(game: str, minimal: bool):
    """pgx's init and step for one game and action set, vmapped and jitted
    once, with the sticky probability as an (unbatched) argument."""
    import pgx

    # pgx.make takes no options: the game's class, constructed with them.
    env = type(pgx.make(f"minatar-{game}"))(use_minimal_action_set=minimal)

    def init(key):
        state = env.init(key)
        return state, state.observation

    def advance(state, key, action, reset, prob):
        saved = env.sticky_action_prob
        env.sticky_action_prob = prob
        try:
            key, sub = jax.random.split(key)
            stepped = env.step(state, action, sub)
        finally:
            env.sticky_action_prob = saved
        fresh = env.init(sub)
        new = jax.tree.map(lambda a, b: jnp.where(reset, a, b), fresh, stepped)
        return new, key, new.observation

    return jax.jit(jax.vmap(init)), jax.jit(jax.vmap(advance, in_axes=(0, 0, 0, 0, None)))


def play(game, *, steps, seed, policy=None, observe=None, sticky=0.1, minimal=True):
    """Play `steps` steps of NUM_ENVS envs beside pgx, comparing at every
    step. Actions: policy(states, rng) on pgx's (numpy) states, or uniform
    over the action space. observe(states) sees every step's states.
    Returns the number of games ended."""
    init, advance = _fns(game, minimal)
    options = {} if (sticky, minimal) == (0.1, True) else {"sticky_action_prob": sticky, "use_minimal_action_set": minimal}
    keys = jnp.stack([jax.random.PRNGKey(seed + i) for i in range(NUM_ENVS)])
    states, views = init(keys)
    pool = envpool_lite.make_gymnasium(f"minatar-{game}", num_envs=NUM_ENVS, seed=seed, **options)
    rng = np.random.default_rng(seed)
    num_actions = pool.single_action_space.n
    ended = 0
    try:
        obs, info = pool.reset()
        _check(obs, info, None, None, None, states, views, 0)
        reset = np.zeros(NUM_ENVS, bool)
        for t in range(1, steps + 1):
            if policy is None:
                actions = rng.integers(num_actions, size=NUM_ENVS).astype(np.int32)
            else:
                actions = np.asarray(policy(jax.tree.map(np.asarray, states), rng), np.int32)
            obs, reward, terminated, truncated, info = pool.step(actions)
            states, keys, views = advance(states, keys, jnp.asarray(actions), jnp.asarray(reset), jnp.float32(sticky))
            _check(obs, info, reward, terminated, truncated, states, views, t)
            assert np.all(info["legal_action_mask"])  # every action is always legal
            if observe is not None:
                observe(jax.tree.map(np.asarray, states))
            reset = np.asarray(terminated) | np.asarray(truncated)
            ended += int(reset.sum())
    finally:
        pool.close()
    return ended


# ------------------------------------------------------------- every game


@pytest.mark.parametrize("minimal", [True, False])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_spaces(game, minimal):
    minimal_set, channels = GAMES[game]
    num_actions = len(minimal_set) if minimal else 6
    pool = envpool_lite.make_gymnasium(f"minatar-{game}", num_envs=1, use_minimal_action_set=minimal)
    try:
        assert pool.single_action_space.n == num_actions
        assert pool.single_observation_space.shape == (10, 10, channels)
        assert pool.single_observation_space.dtype == np.bool_
        _, info = pool.reset()
        assert info["legal_action_mask"].shape == (1, num_actions)
        with pytest.raises(ValueError, match="out of range"):
            pool.step(np.array([num_actions], np.int32))
    finally:
        pool.close()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_games(game):
    # Freeway ends only at its time limit (test_freeway_crossings).
    min_ended = {"asterix": 4, "breakout": 40, "freeway": 0, "seaquest": 8, "space_invaders": 8}[game]
    for seed in (0, 11, 23):
        assert play(game, steps=400, seed=seed) >= min_ended
    # Another sticky probability: every second step replays the last action.
    play(game, steps=300, seed=5, sticky=0.5)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_full_action_set(game):
    # use_minimal_action_set=False: all six actions, those outside the
    # minimal set included (they do nothing in the game).
    min_ended = {"asterix": 8, "breakout": 40, "freeway": 0, "seaquest": 16, "space_invaders": 8}[game]
    assert play(game, steps=400, seed=3, minimal=False) >= min_ended
    play(game, steps=200, seed=7, minimal=False, sticky=0.5)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_minimal_set_maps_into_full_set(game):
    # Action i of the minimal set is full action minimal_set[i]: the two
    # pools play the same games (sticky replays included).
    minimal_set = np.array(GAMES[game][0], np.int32)
    pools = [envpool_lite.make_gymnasium(f"minatar-{game}", num_envs=NUM_ENVS, seed=9, use_minimal_action_set=m) for m in (True, False)]
    rng = np.random.default_rng(9)
    try:
        np.testing.assert_array_equal(pools[0].reset()[0], pools[1].reset()[0])
        ended = 0
        for _ in range(300):
            actions = rng.integers(len(minimal_set), size=NUM_ENVS).astype(np.int32)
            obs, reward, terminated, truncated, _ = pools[0].step(actions)
            full = pools[1].step(minimal_set[actions])
            for ours, theirs in zip((obs, reward, terminated, truncated), full[:4]):
                np.testing.assert_array_equal(ours, theirs)
            ended += int(terminated.sum())
        assert ended > 0 or game == "freeway"
    finally:
        for pool in pools:
            pool.close()


def test_bad_sticky_action_prob():
    with pytest.raises(ValueError, match="sticky_action_prob"):
        envpool_lite.make_gymnasium("minatar-breakout", num_envs=1, sticky_action_prob=float("nan"))


# -------------------------------------------------------- scripted policies


def test_breakout_wall_rebuilt():
    def policy(s, rng):
        # Falling ball: meet it on row 9 under its row-8 cell (bounces it
        # straight back) or its landing cell (reverses it), picked at
        # random, moving at random while there is time to spare; rising
        # ball: follow it.
        out = np.zeros(NUM_ENVS, np.int32)
        for i in range(NUM_ENVS):
            x, y, d, pos = int(s._ball_x[i]), int(s._ball_y[i]), int(s._ball_dir[i]), int(s._pos[i])
            if d >= 2:
                dx, path = (1 if d == 2 else -1), [x]
                for _ in range(9 - y):
                    x += dx
                    if not 0 <= x <= 9:
                        x, dx = min(max(x, 0), 9), -dx
                    path.append(x)
                x = path[-1] if len(path) < 2 or rng.random() < 0.5 else path[-2]
                if abs(x - pos) + 2 < 9 - y:
                    out[i] = rng.integers(3)
                    continue
            out[i] = 1 if x < pos else (2 if x > pos else 0)
        return out

    seen = {"empty": False, "rebuilt": False}
    last = np.full(NUM_ENVS, 30)

    def observe(s):
        bricks = s._brick_map.sum((1, 2))
        seen["empty"] |= bool((bricks == 0).any())
        seen["rebuilt"] |= bool(((last == 0) & (bricks == 30) & ~s.terminated).any())
        last[:] = bricks

    play("breakout", steps=700, seed=2, policy=policy, observe=observe, sticky=0.0)
    assert seen["empty"] and seen["rebuilt"]


def test_asterix_ramp():
    def policy(s, rng):
        # A random move among those no enemy reaches this step.
        out = np.zeros(NUM_ENVS, np.int32)
        for i in range(NUM_ENVS):
            x, y = int(s._player_x[i]), int(s._player_y[i])
            moves = {0: (x, y), 1: (max(x - 1, 0), y), 2: (x, max(y - 1, 1)), 3: (min(x + 1, 9), y), 4: (x, min(y + 1, 8))}

            def safe(p, i=i):
                for e in s._entities[i]:
                    if e[0] == 99 or e[1] != p[1] or e[3] == 1:
                        continue
                    if e[0] == p[0] or (s._move_timer[i] == 0 and e[0] + (1 if e[2] == 1 else -1) == p[0]):
                        return False
                return not (p[0] in (0, 9) and s._spawn_timer[i] == 0)

            ok = [a for a, p in moves.items() if safe(p)] or [0]
            out[i] = ok[rng.integers(len(ok))]
        return out

    seen = {"gold": False, "spawn_speed": 10, "move_speed": 5, "full": False}

    def observe(s):
        seen["gold"] |= bool((s.rewards > 0).any())
        seen["spawn_speed"] = min(seen["spawn_speed"], int(s._spawn_speed.min()))
        seen["move_speed"] = min(seen["move_speed"], int(s._move_speed.min()))
        seen["full"] |= bool((s._entities[:, :, 0] != 99).all(axis=1).any())

    play("asterix", steps=2000, seed=1, policy=policy, observe=observe, sticky=0.0)
    assert seen == {"gold": True, "spawn_speed": 1, "move_speed": 1, "full": True}


def test_space_invaders_wave_cleared():
    def policy(s, rng):
        # Fire when possible, else move; never step under an enemy bullet
        # about to land on row 9.
        out = np.zeros(NUM_ENVS, np.int32)
        for i in range(NUM_ENVS):
            pos = int(s._pos[i])
            moves = {3: pos, 0: pos, 1: max(pos - 1, 0), 2: min(pos + 1, 9)}
            safe = [a for a, p in moves.items() if not s._e_bullet_map[i, 8, p] and not s._e_bullet_map[i, 7, p]]
            safe = safe or [a for a, p in moves.items() if not s._e_bullet_map[i, 8, p]] or [0]
            out[i] = 3 if 3 in safe and s._shot_timer[i] == 0 else safe[rng.integers(len(safe))]
        return out

    seen = {"ramp": 0}

    def observe(s):
        seen["ramp"] = max(seen["ramp"], int(s._ramp_index.max()))

    play("space_invaders", steps=400, seed=0, policy=policy, observe=observe, sticky=0.0)
    assert seen["ramp"] >= 1


def test_freeway_crossings():
    def policy(s, rng):
        return np.where(rng.random(NUM_ENVS) < 0.8, 1, rng.integers(3, size=NUM_ENVS))

    seen = {"crossings": 0, "ends": []}

    def observe(s):
        seen["crossings"] += int((s.rewards > 0).sum())
        seen["ends"] += [int(c) for c in s._step_count[s.terminated]]

    assert play("freeway", steps=2502, seed=4, policy=policy, observe=observe) == NUM_ENVS
    assert seen["crossings"] > 50
    assert seen["ends"] == [2501] * NUM_ENVS  # the time limit, 2500 steps


def test_seaquest_divers():
    def policy(s, rng):
        # Dodge enemies and their bullets; chase the nearest diver; surface
        # with divers when oxygen runs low or six are aboard (env 0 never
        # surfaces: its oxygen runs out); fire when an enemy is ahead.
        out = np.zeros(NUM_ENVS, np.int32)
        for i in range(NUM_ENVS):
            x, y, facing = int(s._sub_x[i]), int(s._sub_y[i]), bool(s._sub_or[i])
            danger = set()
            for table in (s._e_fish[i], s._e_subs[i], s._e_bullets[i]):
                for e in table:
                    if e[1] >= 0:
                        d = 1 if e[2] else -1
                        danger |= {(int(e[0]) + k * d, int(e[1])) for k in range(3)}
            moves = {0: (x, y), 5: (x, y), 1: (max(x - 1, 0), y), 3: (min(x + 1, 9), y), 2: (x, max(y - 1, 0)), 4: (x, min(y + 1, 8))}
            safe = {a: p for a, p in moves.items() if p not in danger} or moves
            divers = int(s._diver_count[i])
            if i > 0 and divers > 0 and (divers >= 6 or s._oxygen[i] < 30 + 2 * y):
                target = (x, 0)
            else:
                near = [(abs(int(d[0]) - x) + abs(int(d[1]) - y), int(d[0]), int(d[1])) for d in s._divers[i] if d[0] >= 0]
                target = min(near)[1:] if near else (x, 4)
            best = min(abs(p[0] - target[0]) + abs(p[1] - target[1]) for p in safe.values())
            toward = [a for a, p in safe.items() if abs(p[0] - target[0]) + abs(p[1] - target[1]) == best]
            ahead = any(e[1] == y and ((e[0] > x) if facing else (0 <= e[0] < x)) for t in (s._e_fish[i], s._e_subs[i]) for e in t)
            if 5 in safe and ahead and s._shot_timer[i] == 0 and rng.random() < 0.7:
                out[i] = 5
            elif rng.random() < 0.1:
                out[i] = list(safe)[rng.integers(len(safe))]
            else:
                out[i] = toward[rng.integers(len(toward))]
        return out

    seen = {"divers": set(), "ramp": 0, "no_oxygen": False, "bullets": 0}

    def observe(s):
        seen["divers"] |= set(s._diver_count.tolist())
        seen["ramp"] = max(seen["ramp"], int(s._ramp_index.max()))
        seen["no_oxygen"] |= bool((s.terminated & (s._oxygen < 0)).any())
        seen["bullets"] = max(seen["bullets"], int((s._e_bullets[:, :, 1] != -1).sum(1).max()))

    play("seaquest", steps=800, seed=0, policy=policy, observe=observe, sticky=0.0)
    assert {6, -1} <= seen["divers"]  # six aboard, then pgx's count of -1
    assert seen["ramp"] >= 1 and seen["no_oxygen"]
    assert seen["bullets"] == 25  # the table full: find_ix falls back to row 0
