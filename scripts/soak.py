"""Soak test: long runs with flat memory, and many create/close cycles that
leak nothing (threads, file descriptors, child processes, /dev/shm entries).

    .venv/bin/python scripts/soak.py            # the full soak (10^7 CartPole steps, 10^6 Pong steps, 500 cycles per family)
    .venv/bin/python scripts/soak.py --short    # the CI version (tests/test_soak.py runs it)

Exits non-zero if a check fails; prints the figures either way.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

import numpy as np
import psutil

import envpool_lite

# One representative task per family; a family whose tasks are not built is skipped.
FAMILIES = {
    "classic_control": "CartPole-v1",
    "atari": "Pong-v5",
    "vizdoom": "Basic-v1",
}


def rss_mb() -> float:
    return psutil.Process().memory_info().rss / 2**20


def resources() -> dict[str, int]:
    """What a leak would grow: threads, open fds, children, /dev/shm entries."""
    proc = psutil.Process()
    shm = Path("/dev/shm")
    return {
        "threads": proc.num_threads(),
        "fds": proc.num_fds(),
        "children": len(proc.children(recursive=True)),
        "shm": len(list(shm.iterdir())) if shm.exists() else 0,
    }


def long_run(task: str, steps: int, num_envs: int, batch_size: int) -> dict:
    """Steps `task` asynchronously; RSS measured after a warm-up tenth and at
    the end."""
    env = envpool_lite.make(task, num_envs=num_envs, batch_size=batch_size, seed=0)
    space = env.spec.action_space
    rng = np.random.default_rng(0)
    env.async_reset()
    info = env.recv()[-1]
    done_steps = 0
    warm = steps // 10
    rss_warm = None
    start = time.perf_counter()
    while done_steps < steps:
        actions = rng.integers(0, space.n, batch_size).astype(np.int32)
        env.send(actions, info["env_id"])
        info = env.recv()[-1]
        done_steps += batch_size
        if rss_warm is None and done_steps >= warm:
            gc.collect()
            rss_warm = rss_mb()
    elapsed = time.perf_counter() - start
    gc.collect()
    rss_end = rss_mb()
    blocks = env._pool.blocks_allocated
    env.close()
    growth = (rss_end - rss_warm) / rss_warm
    return {
        "task": task,
        "steps": done_steps,
        "seconds": round(elapsed, 1),
        "steps_per_s": round(done_steps / elapsed),
        "rss_warm_mb": round(rss_warm, 1),
        "rss_end_mb": round(rss_end, 1),
        "rss_growth": round(growth, 4),
        "blocks_allocated": blocks,
        "ok": growth < 0.05,
    }


def cycles(task: str, count: int) -> dict:
    """Creates, steps and closes a pool `count` times; resources must return
    to where they started."""

    def once():
        env = envpool_lite.make(task, num_envs=2, batch_size=1, num_threads=2, seed=0)
        env.async_reset()
        info = env.recv()[-1]
        space = env.single_action_space  # ViZDoom's Basic-v1: a float32 button vector
        env.send(np.zeros((1, *space.shape), space.dtype), info["env_id"])
        env.recv()
        env.close()

    once()  # first-use costs (imports, lazy init) are not leaks
    gc.collect()
    before = resources()
    start = time.perf_counter()
    for _ in range(count):
        once()
    gc.collect()
    time.sleep(0.2)  # let exiting children be reaped
    after = resources()
    leaks = {k: after[k] - before[k] for k in before if after[k] > before[k]}
    return {"task": task, "cycles": count, "seconds": round(time.perf_counter() - start, 1), "before": before, "after": after, "ok": not leaks, "leaks": leaks}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--short", action="store_true", help="the CI version: fewer steps and cycles")
    args = parser.parse_args(argv)
    available = set(envpool_lite.list_all_envs())
    families = {f: t for f, t in FAMILIES.items() if t in available}
    skipped = sorted(set(FAMILIES) - set(families))

    steps = {"CartPole-v1": 10**6 if args.short else 10**7, "Pong-v5": 2 * 10**4 if args.short else 10**6}
    n_cycles = 50 if args.short else 500
    results = []
    for task, n in steps.items():
        if task in available:
            r = long_run(task, n, num_envs=64 if task == "CartPole-v1" else 16, batch_size=32 if task == "CartPole-v1" else 8)
            results.append(r)
            print(f"long run   {r}", flush=True)
    for family, task in families.items():
        # Engine processes start slowly: the short run makes fewer of them.
        r = cycles(task, 10 if (args.short and family == "vizdoom") else n_cycles)
        results.append(r)
        print(f"cycles     {family}: {r}", flush=True)
    if skipped:
        print(f"skipped families (not built): {', '.join(skipped)}")
    ok = all(r["ok"] for r in results)
    print("soak: OK" if ok else "soak: FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
