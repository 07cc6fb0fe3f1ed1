"""envpool_lite's distributed pool (make(..., num_workers=K)) on a local Ray
cluster, or the cluster RAY_ADDRESS names: systems "ray_1" and "ray_2", not
in the default run (they need the [ray] extra and measure Ray's overhead
rather than a peer's)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from peers.common import CORES, Config, Skip
from peers.envpool_lite import run_envpool_lite

if TYPE_CHECKING:
    from envpool_lite.families import BenchmarkTask


def run_ray(num_workers: int, task: BenchmarkTask, cfg: Config, steps: int) -> float:
    """The same pool spread over num_workers Ray actors on this machine (a
    local Ray cluster, started once; or the cluster RAY_ADDRESS names, such
    as scripts/netns_cluster.sh's hosts). Each worker gets the config's threads,
    as each node of a cluster would use its own cores (sharing them out was
    slower here: 2 workers x 1 thread made 68% of the in-process pool's
    Pong-v5 64:16:2 against 72% with 2 x 2)."""
    if cfg.num_envs < num_workers:
        raise Skip(f"needs num_envs >= {num_workers}")
    try:
        import ray
    except ImportError:
        raise Skip("ray not installed (pip install 'envpool_lite[ray]')") from None
    if not ray.is_initialized():
        from envpool_lite.distributed import LOCAL_CLUSTER_OPTIONS

        if os.environ.get("RAY_ADDRESS"):  # a cluster of several hosts (scripts/netns_cluster.sh env)
            ray.init(log_to_driver=False)
        else:
            ray.init(**LOCAL_CLUSTER_OPTIONS, log_to_driver=False, num_cpus=max(CORES, num_workers))
    return run_envpool_lite(task, cfg, steps, num_workers)
