"""What saving and restoring env states costs (get_state / set_state), per
env and per family, and what checkpoint_every costs a pool over Ray.

Per task: a pool of --num-envs envs (one thread: the cost of one core),
stepped a few random steps, then get_state() of every env and
set_state() of every env followed by the recv() that returns their rows,
each timed --repeats times; the median per env is reported, with a state's
size in bytes. Runs are interleaved across tasks and repeated --runs times;
the table shows the median of the runs' medians.

The checkpoint cost: Pong-v5, 64 envs, batch_size 16, through 2 Ray workers
(async), steps/s with checkpoint_every off and at a few intervals, side by
side in one run, each the median of --runs runs.

    python benchmarks/state_cost.py                  # both, about 3 minutes
    python benchmarks/state_cost.py --tasks Pong-v5,CartPole-v1 --no-checkpoint
    python benchmarks/state_cost.py --out results/state_cost.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np

import envpool_lite

TASKS = [
    "Pong-v5",
    "HalfCheetah-v5",
    "CheetahRun-v1",
    "FetchPush-v4",
    "MetaWorld/Reach-v3",
    "LunarLander-v3",
    "BipedalWalker-v3",
    "MiniGrid-DoorKey-8x8-v0",
    "BabyAI-BossLevel-v0",
    "highway-v0",
    "connect_four",
    "go_19x19",
    "BigfishEasy-v0",
    "CartPole-v1",
]


def one_task(task_id: str, num_envs: int, repeats: int) -> dict:
    env = envpool_lite.make(task_id, env_type="gymnasium", num_envs=num_envs, num_threads=1, seed=0)
    try:
        env.action_space.seed(0)
        env.reset()
        for _ in range(10):
            env.step(env.action_space.sample())
        get, put = [], []
        for _ in range(repeats):
            t0 = time.perf_counter()
            states = env.get_state()
            t1 = time.perf_counter()
            env.set_state(None, states)
            env.recv()
            t2 = time.perf_counter()
            get.append((t1 - t0) / num_envs)
            put.append((t2 - t1) / num_envs)
        return {"bytes": len(states[0]), "get_us": statistics.median(get) * 1e6, "set_us": statistics.median(put) * 1e6}
    finally:
        env.close()


def checkpoint_fps(every: int, seconds: float) -> float:
    env = envpool_lite.make("Pong-v5", num_envs=64, batch_size=16, num_workers=2, checkpoint_every=every, seed=0)
    try:
        env.async_reset()
        rng = np.random.default_rng(0)
        steps, t0 = 0, None
        while True:
            obs, rew, term, trunc, info = env.recv()
            ids = info["env_id"]
            env.send(rng.integers(0, 6, len(ids)).astype(np.int32), ids)
            if t0 is None and steps >= 2000:  # warm up
                t0, steps = time.perf_counter(), 0
            steps += len(ids)
            if t0 is not None and time.perf_counter() - t0 >= seconds:
                return steps / (time.perf_counter() - t0)
    finally:
        env.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", default=",".join(TASKS), help="comma-separated task ids")
    parser.add_argument("--num-envs", type=int, default=16, help="envs per pool")
    parser.add_argument("--repeats", type=int, default=20, help="timed get/set rounds per run")
    parser.add_argument("--runs", type=int, default=3, help="runs, interleaved across tasks; the median is reported")
    parser.add_argument("--every", default="0,1000,100,20", help="checkpoint_every values to compare (0: off)")
    parser.add_argument("--seconds", type=float, default=8.0, help="timed seconds per checkpoint run")
    parser.add_argument("--no-checkpoint", action="store_true", help="skip the Ray checkpoint measurement")
    parser.add_argument("--out", help="write the results as JSON to this file")
    args = parser.parse_args()

    tasks = [t for t in args.tasks.split(",") if t in envpool_lite.list_all_envs()]
    runs: dict[str, list[dict]] = {t: [] for t in tasks}
    for _ in range(args.runs):
        for t in tasks:
            runs[t].append(one_task(t, args.num_envs, args.repeats))
    results: dict = {"tasks": {}, "num_envs": args.num_envs, "runs": args.runs}
    print(f"get_state / set_state per env ({args.num_envs} envs, one thread; median of {args.runs} runs of {args.repeats}):\n")
    print("| task | family | state (bytes) | get_state (µs/env) | set_state + recv (µs/env) |")
    print("|---|---|---:|---:|---:|")
    for t in tasks:
        r = {k: statistics.median(run[k] for run in runs[t]) for k in ("bytes", "get_us", "set_us")}
        results["tasks"][t] = r
        family = envpool_lite.families.family_of(t)
        print(f"| {t} | {family} | {r['bytes']:,.0f} | {r['get_us']:.1f} | {r['set_us']:.1f} |")

    if not args.no_checkpoint:
        every = [int(e) for e in args.every.split(",")]
        fps: dict[int, list[float]] = {e: [] for e in every}
        for _ in range(args.runs):
            for e in every:
                fps[e].append(checkpoint_fps(e, args.seconds))
        base = statistics.median(fps[every[0]])
        print("\nPong-v5, 64 envs, batch_size 16, 2 Ray workers (async), steps/s:\n")
        print("| checkpoint_every | steps/s (median) | min-max | vs off |")
        print("|---:|---:|---:|---:|")
        results["checkpoint"] = {}
        for e in every:
            m = statistics.median(fps[e])
            results["checkpoint"][e] = fps[e]
            print(f"| {e or 'off'} | {m:,.0f} | {min(fps[e]):,.0f}-{max(fps[e]):,.0f} | {m / base:.3f} |")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
