"""pgx itself, jitted and vmapped on the CPU (task.peers["pgx"]: pgx.make's
id): system "pgx"."""

from __future__ import annotations

import functools
import time
from typing import TYPE_CHECKING

from peers.common import Config, Skip

if TYPE_CHECKING:
    from envpool_lite.families import BenchmarkTask


@functools.cache
def _pgx_functions(env_id: str, num_envs: int) -> tuple:
    """pgx's init and step of num_envs games, vmapped and jitted as pgx's
    users run them: one call draws a random legal action per game
    (act_randomly: a categorical over log(mask)), steps every game and
    starts a new one where one ended (pgx's auto_reset), splitting the keys.
    Made once per game and num_envs, so every repeat runs the compiled
    function."""
    import jax
    import pgx
    from pgx.experimental import act_randomly, auto_reset

    env = pgx.make(env_id)
    step = jax.vmap(auto_reset(env.step, env.init))

    @jax.jit
    def step_all(state, key):
        key, action_key, step_key = jax.random.split(key, 3)
        action = act_randomly(action_key, state.legal_action_mask)
        return step(state, action, jax.random.split(step_key, num_envs)), key

    return jax.jit(jax.vmap(env.init)), step_all


def run_pgx(task: BenchmarkTask, cfg: Config, steps: int) -> float:
    """pgx itself on the CPU: jax.jit(jax.vmap(...)) over num_envs games
    (_pgx_functions), timed after warm-up calls (the first compiles) up to
    block_until_ready. It has no async batch: every call steps all num_envs
    games, whatever batch_size (64:32:2 steps 64 a call), and XLA's CPU
    runtime picks its own threads, whatever num_threads."""
    if not task.peers.get("pgx"):
        raise Skip("not a pgx task")
    try:
        import jax

        init, step = _pgx_functions(task.peers["pgx"], cfg.num_envs)
    except ImportError:
        raise Skip("pgx not installed", missing=True) from None
    key, init_key = jax.random.split(jax.random.PRNGKey(0))
    state = init(jax.random.split(init_key, cfg.num_envs))
    for _ in range(10):  # warm-up
        state, key = step(state, key)
    jax.block_until_ready(state)
    calls = max(1, steps // cfg.num_envs)
    start = time.perf_counter()
    for _ in range(calls):
        state, key = step(state, key)
    jax.block_until_ready(state)
    return calls * cfg.num_envs / (time.perf_counter() - start)
