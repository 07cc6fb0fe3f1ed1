"""The single-env round trip against the single-thread limit, interleaved.

One env, one worker thread, batch 1 (EnvPool's send/recv loop) against the
same env stepped in a tight C++ loop on one thread, alternated pair by pair
so that machine noise hits both alike; prints the medians and the median of
the per-pair ratios. With --envpool, EnvPool's pool runs in the same pairs.

    python benchmarks/single_env.py --task Pong-v5 --steps 1000 --repeats 11 --envpool
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import envpool_lite
from envpool_lite import _core


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--task", default="Pong-v5")
    parser.add_argument("--steps", type=int, default=1000, help="steps per measurement")
    parser.add_argument("--repeats", type=int, default=11, help="interleaved pairs")
    parser.add_argument("--envpool", action="store_true", help="measure EnvPool's pool too")
    args = parser.parse_args()

    options = envpool_lite.make_spec(args.task).env_options
    pools = {"envpool_lite": envpool_lite.make(args.task, num_envs=1, batch_size=1, num_threads=1, seed=0)}
    if args.envpool:
        import envpool

        pools["envpool"] = envpool.make(args.task, env_type="gymnasium", num_envs=1, batch_size=1, num_threads=1, seed=0)
    n = pools["envpool_lite"].single_action_space.n
    actions = [np.array([a], np.int32) for a in np.random.default_rng(0).integers(0, n, 64)]
    for env in pools.values():
        env.async_reset()
        env.recv()
    rates: dict[str, list[float]] = {"limit": [], **{k: [] for k in pools}}
    for _ in range(args.repeats):
        rates["limit"].append(_core.single_thread_steps_per_second(args.task, options, args.steps))
        for name, env in pools.items():
            env_id = np.array([0], np.int32)
            start = time.perf_counter()
            for i in range(args.steps):
                env.send(actions[i % 64], env_id)
                env_id = env.recv()[-1]["env_id"]
            rates[name].append(args.steps / (time.perf_counter() - start))
    print("medians (steps/s):", {k: round(statistics.median(v)) for k, v in rates.items()})
    for name in pools:
        ratio = statistics.median(r / lim for r, lim in zip(rates[name], rates["limit"]))
        print(f"{name} / single-thread limit, median of {args.repeats} interleaved pairs: {ratio:.3f}")


if __name__ == "__main__":
    main()
