"""Steps/s of CleanRL's scan loop through xla(), beside the Python loop.

CleanRL's ppo_atari_envpool_xla_jax_scan.py steps its envs inside a jitted
lax.scan with the pool's xla() step function. This measures that loop with
random actions (drawn with jax.random inside the scan, as the policy would
be sampled), for envpool_lite and EnvPool 1.2.5, and the plain Python loop
(env.step with numpy actions) for both, in one run, repeats interleaved.
"python loop -> jax" is the Python loop of a JAX learner: each batch's
observations also become a jax array (jnp.asarray), as the policy needs them;
the scan's xla() step hands them over in XLA's own buffer (one copy of the
batch's observations, which the bare Python loop skips):

    python benchmarks/xla_fps.py                      # Pong-v5, 16 envs
    python benchmarks/xla_fps.py --task Breakout-v5 --num-envs 8 --repeats 5
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings

import numpy as np

SCAN = 128  # CleanRL's num_steps: one jitted scan per rollout


def make(system: str, task: str, num_envs: int):
    kwargs = dict(num_envs=num_envs, batch_size=num_envs, seed=1, episodic_life=True, reward_clip=True)
    if system == "envpool_lite":
        import envpool_lite

        return envpool_lite.make(task, env_type="gymnasium", **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import envpool

    return envpool.make(task, env_type="gymnasium", **kwargs)


def run_scan(env, num_envs: int, steps: int) -> float:
    import jax
    import jax.numpy as jnp

    handle, recv, send, step = env.xla()
    n_actions = int(getattr(env, "single_action_space", env.action_space).n)
    env.reset()

    @jax.jit
    def rollout(handle, key):
        def body(carry, _):
            handle, key = carry
            key, sub = jax.random.split(key)
            action = jax.random.randint(sub, (num_envs,), 0, n_actions, dtype=jnp.int32)
            handle, (obs, reward, terminated, truncated, info) = step(handle, action)
            return (handle, key), reward

        (handle, key), rewards = jax.lax.scan(body, (handle, key), None, length=SCAN)
        return handle, key, rewards.sum()

    key = jax.random.PRNGKey(0)
    handle, key, total = rollout(handle, key)  # compile and warm up
    jax.block_until_ready(total)
    rollouts = max(1, steps // (SCAN * num_envs))
    start = time.perf_counter()
    for _ in range(rollouts):
        handle, key, total = rollout(handle, key)
    jax.block_until_ready(total)
    return rollouts * SCAN * num_envs / (time.perf_counter() - start)


def run_python(env, num_envs: int, steps: int, to_jax: bool = False) -> float:
    import jax
    import jax.numpy as jnp

    rng = np.random.default_rng(0)
    n_actions = int(getattr(env, "single_action_space", env.action_space).n)
    actions = [rng.integers(0, n_actions, size=num_envs).astype(np.int32) for _ in range(64)]
    env.reset()
    for i in range(20):
        env.step(actions[i % 64])
    batches = max(1, steps // num_envs)
    start = time.perf_counter()
    for i in range(batches):
        out = env.step(actions[i % 64])
        if to_jax:
            jax.block_until_ready(jnp.asarray(out[0]))
    return batches * num_envs / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--task", default="Pong-v5", help="an Atari task id")
    parser.add_argument("--num-envs", type=int, default=16, help="envs of the (sync) pool")
    parser.add_argument("--steps", type=int, default=40_000, help="env steps per measurement")
    parser.add_argument("--repeats", type=int, default=3, help="measurements per system, interleaved")
    args = parser.parse_args()

    import jax

    modes = {
        "xla scan": run_scan,
        "python loop": run_python,
        "python loop -> jax": lambda env, n, steps: run_python(env, n, steps, to_jax=True),
    }
    runs = [(s, mode) for s in ("envpool_lite", "envpool") for mode in modes]
    results: dict[tuple[str, str], list[float]] = {r: [] for r in runs}
    for repeat in range(args.repeats):
        for system, mode in runs:
            env = make(system, args.task, args.num_envs)
            try:
                fps = modes[mode](env, args.num_envs, args.steps)
            finally:
                env.close()
            results[(system, mode)].append(fps)
            print(f"[{repeat + 1}/{args.repeats}] {system:12s} {mode:18s} {fps:9,.0f} steps/s", flush=True)

    print(f"\n{args.task}, {args.num_envs} envs, jax {jax.__version__}, medians of {args.repeats} (min-max):")
    base = statistics.median(results[("envpool_lite", "python loop")])
    for system, mode in runs:
        values = results[(system, mode)]
        med = statistics.median(values)
        print(f"  {system:12s} {mode:18s} {med:9,.0f} steps/s  ({min(values):,.0f}-{max(values):,.0f})  {med / base:.2f}x envpool_lite's Python loop")


if __name__ == "__main__":
    main()
