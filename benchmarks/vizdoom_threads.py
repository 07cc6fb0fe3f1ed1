"""ViZDoom's default num_threads against explicit thread counts.

Basic-v1, 8 envs, batch 4, envpool_lite only, at its default num_threads
(one per env for envs that wait on an engine process) and at 2, 4, 8 and 16
threads, interleaved, median of --repeats.

    python benchmarks/vizdoom_threads.py --repeats 5
"""

from __future__ import annotations

import argparse
import statistics

from fps_tasks import TASKS
from peers.common import Config
from peers.envpool_lite import run_envpool_lite


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--steps", type=int, default=2000)
    args = parser.parse_args()

    task = TASKS["Basic-v1"]
    threads = [0, 2, 4, 8, 16]  # 0: envpool_lite's default
    rates: dict[int, list[float]] = {t: [] for t in threads}
    for _ in range(args.repeats):
        for t in threads:
            rates[t].append(run_envpool_lite(task, Config(8, 4, t), args.steps))
    medians = {t: statistics.median(v) for t, v in rates.items()}
    print("steps/s:", {("default" if t == 0 else t): round(v) for t, v in medians.items()})
    best = max(v for t, v in medians.items() if t)
    print(f"default / best explicit thread count: {medians[0] / best:.3f}")


if __name__ == "__main__":
    main()
