"""The pgx family beside pgx 2.6.0 itself, step by step.

run() plays a pool of our envs and a batch of pgx states (jax.vmap over
pgx's own init and step, jitted) with the same actions, and compares with
== at every step: every player's observation (pgx's _observe(state,
player)), the legal-action mask, the per-player rewards, terminated,
truncated and current_player, through ends of games and auto-resets.

The keys follow the family's convention (docs/families/pgx.md): env i of
a pool seeded s starts from init(PRNGKey(s + i)), and its key then goes on
from PRNGKey(s + i): each step draws `key, step_key = split(key)` and
steps with step_key; each later reset draws `key, init_key = split(key)`
and inits from init_key (our pool resets an ended game at its next step,
whose action it ignores: next-step auto-reset).

Actions are drawn by a numpy Generator: mostly legal ones (uniform over
the legal-action mask), and with probability `illegal` any action, which
pgx turns into a loss for the mover.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

import envpool_lite


@functools.cache
def _pgx_fns(pgx_id: str, options: tuple):
    import jax
    import jax.numpy as jnp
    import pgx

    env = pgx.make(pgx_id) if not options else _pgx_env(pgx_id, dict(options))

    def views(state):
        if env.num_players == 1:
            return state.observation
        return jnp.stack([env._observe(state, p) for p in range(env.num_players)])

    def init(key):
        state = env.init(key)
        return state, views(state)

    def advance(state, key, action, reset):
        key, sub = jax.random.split(key)
        stepped = env.step(state, action, sub)
        fresh = env.init(sub)
        new = jax.tree.map(lambda a, b: jnp.where(reset, a, b), fresh, stepped)
        return new, key, views(new)

    return env, jax.jit(jax.vmap(init)), jax.jit(jax.vmap(advance))


def _pgx_env(pgx_id: str, options: dict):
    """A pgx env made with options (pgx.make takes none): its class."""
    import pgx

    cls = type(pgx.make(pgx_id))
    return cls(**options)


def compare(ours: Any, theirs: Any, what: str, step: int, extra: str = "") -> None:
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    if ours.dtype != theirs.dtype and not (ours.dtype.kind == theirs.dtype.kind == "i"):
        raise AssertionError(f"{what}: dtype {ours.dtype} != pgx's {theirs.dtype}")
    if ours.shape != theirs.shape or not np.array_equal(ours, theirs):
        bad = np.argwhere(ours != theirs) if ours.shape == theirs.shape else "shape"
        raise AssertionError(f"{what} differs at step {step}{extra}: first differences {bad[:5] if not isinstance(bad, str) else (ours.shape, theirs.shape)}")


def run(task_id: str, pgx_id: str, *, num_envs: int = 4, steps: int = 200, seed: int = 0, illegal: float = 0.02, pgx_options: dict | None = None, **options: Any) -> dict:
    """Play `steps` steps of a pool of `num_envs` envs beside pgx; return
    counts (games ended, illegal moves played) for the caller's checks."""
    import jax
    import jax.numpy as jnp

    env, init, advance = _pgx_fns(pgx_id, tuple(sorted((pgx_options or {}).items())))
    keys = jnp.stack([jax.random.PRNGKey(seed + i) for i in range(num_envs)])
    states, views = init(keys)
    pool = envpool_lite.make_gymnasium(task_id, num_envs=num_envs, seed=seed, **options)
    rng = np.random.default_rng(seed)
    counts = {"ended": 0, "illegal": 0, "steps": 0}
    try:
        obs, info = pool.reset()
        _check(obs, info, None, None, None, states, views, 0)
        reset = np.zeros(num_envs, bool)
        num_actions = pool.single_action_space.n
        for t in range(1, steps + 1):
            mask = np.asarray(states.legal_action_mask)
            actions = np.empty(num_envs, np.int32)
            for i in range(num_envs):
                legal = np.flatnonzero(mask[i])
                if rng.random() < illegal or len(legal) == 0:
                    actions[i] = rng.integers(num_actions)
                else:
                    actions[i] = rng.choice(legal)
                counts["illegal"] += int(not reset[i] and not mask[i, actions[i]])
            obs, reward, terminated, truncated, info = pool.step(actions)
            states, keys, views = advance(states, keys, jnp.asarray(actions), jnp.asarray(reset))
            _check(obs, info, reward, terminated, truncated, states, views, t)
            reset = np.asarray(terminated) | np.asarray(truncated)
            counts["ended"] += int(reset.sum())
            counts["steps"] += num_envs
    finally:
        pool.close()
    return counts


def _check(obs, info, reward, terminated, truncated, states, views, t: int) -> None:
    compare(obs, views, "observation", t)
    compare(info["legal_action_mask"], states.legal_action_mask, "legal_action_mask", t)
    players = np.asarray(states.rewards).shape[-1]
    if players > 1:
        compare(info["current_player"], states.current_player, "current_player", t)
    if reward is None:
        return
    their_rewards = np.asarray(states.rewards)
    compare(reward, their_rewards if players > 1 else their_rewards[:, 0], "reward", t)
    compare(terminated, states.terminated, "terminated", t)
    compare(truncated, states.truncated, "truncated", t)
