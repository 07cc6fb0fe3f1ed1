"""How a distributed pool's batches travel on one node, measured side by side.

    python benchmarks/distributed_paths.py                # Pong-v5 64/16, then the round trips
    python benchmarks/distributed_paths.py --help

1. Steps/s of the in-process pool (2 threads) against 2 workers x 1 thread
   whose batches come through a channel (channel.py: the same-node path) and
   through Ray calls (the path to other nodes, forced here by patching the
   channel off), interleaved, medians of --repeats; with the overhead per
   batch beyond the in-process pool's and the caller's CPU per batch.
2. One round trip to an actor on this node that returns a Pong batch of 16
   (451 KB): an actor call, a Ray Compiled Graph of it, and the channel.

docs/scaling-out.md has the figures. Needs the [ray] extra; run it alone.
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time

import numpy as np
import ray

import envpool_lite
from envpool_lite.distributed import LOCAL_CLUSTER_OPTIONS, channel
from envpool_lite.distributed.ring import Ring

BATCH_SHAPE = (16, 4, 84, 84)  # Pong-v5's batch of 16 observations, uint8


def steps_per_second(task: str, num_envs: int, batch: int, steps: int, path: str) -> tuple[float, float]:
    """(steps/s, the caller's CPU ms per batch) of one measurement."""
    workers = 0 if path == "in-process" else 2
    env = envpool_lite.make(task, num_envs=num_envs, batch_size=batch, num_threads=2 if workers == 0 else 1, num_workers=workers)
    try:
        if workers:
            want = "shared memory" if path == "channel" else "ray"
            assert all(w["transport"] == want for w in env.workers), env.workers
        env.async_reset()
        action = np.zeros(batch, np.int32)
        for _ in range(30):  # warm up
            *_, info = env.recv()
            env.send(action, info["env_id"])
        batches = steps // batch
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(batches):
            *_, info = env.recv()
            env.send(action, info["env_id"])
        return batches * batch / (time.perf_counter() - t0), (time.process_time() - c0) / batches * 1e3
    finally:
        env.close()


def compare_paths(args) -> None:
    available = channel.available
    results: dict[str, list[tuple[float, float]]] = {"in-process": [], "channel": [], "ray calls": []}
    try:
        for _ in range(args.repeats):
            for path in results:
                channel.available = available if path == "channel" else (lambda: False)  # type: ignore[assignment]
                results[path].append(steps_per_second(args.task, args.num_envs, args.batch_size, args.steps, path))
    finally:
        channel.available = available  # type: ignore[assignment]
    base = statistics.median(s for s, _ in results["in-process"])
    print(f"{args.task} {args.num_envs}/{args.batch_size}: in-process 2 threads, 2 workers x 1 thread; medians of {args.repeats}")
    for path, runs in results.items():
        sps = statistics.median(s for s, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        overhead = (args.batch_size / sps - args.batch_size / base) * 1e3
        spread = f"{min(s for s, _ in runs):,.0f}-{max(s for s, _ in runs):,.0f}"
        print(f"  {path:10s} {sps:9,.0f} steps/s ({sps / base:.2f}x, {spread})  overhead/batch {overhead:5.2f} ms  caller CPU/batch {cpu:.2f} ms")


@ray.remote
class Stepper:
    """Answers a batch of actions with a Pong-sized batch."""

    def __init__(self):
        self.batch = np.zeros(BATCH_SHAPE, np.uint8)

    def step(self, actions):
        return self.batch

    def open(self, address: str, info) -> int:
        ring = Ring(info, [("obs", "uint8", BATCH_SHAPE[1:])], BATCH_SHAPE[0], create=False)
        wire = channel.Wire(channel.connect(address))

        def serve():
            try:
                while True:
                    wire.wait(None)
                    while wire.next() is not None:
                        ring.views[0][0][:] = self.batch
                        wire.send(0)
            except (EOFError, OSError):
                pass

        threading.Thread(target=serve, daemon=True).start()
        return os.getpid()


def timed(name: str, fn, n: int) -> None:
    """Print the median wall ms and the mean caller CPU ms of n calls."""
    wall = []
    c0 = time.process_time()
    for _ in range(n):
        t = time.perf_counter()
        fn()
        wall.append(time.perf_counter() - t)
    print(f"  {name:16s} {statistics.median(wall) * 1e3:.3f} ms  {(time.process_time() - c0) / n * 1e3:.3f} ms")


def compare_round_trips(n: int) -> None:
    from ray.dag import InputNode

    actions = np.zeros(BATCH_SHAPE[0], np.int32)
    print(f"one round trip returning {np.prod(BATCH_SHAPE):,} bytes, {n} times (median wall, mean caller CPU):")
    actor = Stepper.remote()
    ray.get(actor.step.remote(actions))
    timed("actor call", lambda: ray.get(actor.step.remote(actions)), n)
    with InputNode() as inp:
        dag = actor.step.bind(inp)
    compiled = dag.experimental_compile(_buffer_size_bytes=1 << 20)  # room for the batch in its channel
    try:
        ray.get(compiled.execute(actions))
        timed("compiled graph", lambda: ray.get(compiled.execute(actions)), n)
    finally:
        compiled.teardown()
    server = Stepper.remote()
    ring = Ring.create([("obs", "uint8", BATCH_SHAPE[1:])], BATCH_SHAPE[0], 2)
    listener, address = channel.listen()
    pid = ray.get(server.open.remote(address, ring.info))
    wire = channel.Wire(channel.accept(listener, pid, 5.0))
    listener.close()

    def round_trip():
        wire.send(actions)
        while wire.next() is None:
            wire.wait(None)
        return ring.views[0][0].copy()

    try:
        timed("channel", round_trip, n)
    finally:
        wire.close()
        ring.close(unlink=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", default="Pong-v5")
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--steps", type=int, default=6000, help="steps per measurement")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--round-trips", type=int, default=2000, help="round trips per kind (0: skip them)")
    args = parser.parse_args()
    ray.init(**LOCAL_CLUSTER_OPTIONS, log_to_driver=False, num_cpus=2)
    compare_paths(args)
    if args.round_trips:
        compare_round_trips(args.round_trips)


if __name__ == "__main__":
    main()
