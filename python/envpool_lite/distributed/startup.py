"""Starting the workers: the Ray cluster joined (or a local one started),
K actors placed over contiguous blocks of the global env ids, each checked
once it has started (it runs this process's envpool_lite), and a channel
(channel.py) to each one on the driver's node.

``WorkerStartup`` is a part of ``DistributedPool`` (pool.py), whose
constructor calls ``_start_workers`` (faults.py calls ``_attach_channel``
again for a worker Ray has restarted): it reads the pool's ``_ray``,
``_num_envs``, ``_batch_size``, ``_sync``, ``_start_timeout`` and
``_node_id``, fills its ``_workers`` and ``_starts``, and calls its
``close()`` when a worker does not start.
"""

from __future__ import annotations

import math
import os
import time
from typing import TYPE_CHECKING, Any

import numpy as np

from envpool_lite import _core, _version
from envpool_lite.distributed import channel
from envpool_lite.distributed.link import WorkerLink
from envpool_lite.distributed.protocol import ChannelInfo
from envpool_lite.distributed.ring import Ring
from envpool_lite.distributed.worker import EnvPoolWorker
from envpool_lite.spec import EnvSpec

# A worker's start (a new process that imports envpool_lite and builds its
# envs, which for an env that starts an engine process takes seconds) may
# take this long, or worker_timeout if that is longer.
START_TIMEOUT_S = 120.0
CLOSE_WAIT_S = 5.0  # close() waits this long at most for Ray to see its workers dead
# The local cluster make() starts: a batch of up to 4 MiB travels inside the
# call's reply rather than through the object store (Ray's default limit is
# 100 KiB), which saves a store round trip per batch; and the workers run
# at the caller's priority (Ray's default niceness for its workers is 15,
# so a busy caller, a learner say, would take their CPU). A cluster started
# with `ray start` takes the same settings from its head node:
#   ray start --head --system-config='{"max_direct_call_object_size": 4194304, "worker_niceness": 0}'
LOCAL_CLUSTER_OPTIONS = {"include_dashboard": False, "_system_config": {"max_direct_call_object_size": 4 << 20, "worker_niceness": 0}}


def import_ray():
    """Ray, or an ImportError naming the extra that installs it."""
    try:
        import ray
    except ImportError as e:
        raise ImportError("num_workers > 0 spreads the pool over a Ray cluster and needs Ray: pip install 'envpool_lite[ray]'") from e
    return ray


def join_cluster(ray) -> None:
    """Unless this process has already joined one: join the cluster
    RAY_ADDRESS names, else start a local one."""
    if not ray.is_initialized():
        ray.init(**({} if os.environ.get("RAY_ADDRESS") else LOCAL_CLUSTER_OPTIONS), log_to_driver=True)


class WorkerStartup:
    _ray: Any
    _num_envs: int
    _batch_size: int
    _sync: bool
    _start_timeout: float
    _node_id: str  # this process's node: its workers get a channel
    _workers: list[WorkerLink]
    _starts: np.ndarray  # each worker's first env id

    if TYPE_CHECKING:  # declared for the type checker; DistributedPool defines it

        def close(self) -> None: ...

    def _start_workers(self, spec: EnvSpec, options: _core.PoolOptions, k: int) -> None:
        """K worker actors, each over its block of env ids and its share of
        the pool's options; then wait for them to start, and attach their
        channels. On any failure the pool is closed."""
        ray, n = self._ray, self._num_envs
        seeds = options.seeds
        actor = ray.remote(EnvPoolWorker).options(
            num_cpus=1,
            max_restarts=-1,  # Ray restarts a worker that dies ...
            max_task_retries=0,  # ... and its calls fail, so the driver knows
            scheduling_strategy="SPREAD",  # one per node, where it can
        )
        _wait_for_cpus(ray, k)
        starts = [n * w // k for w in range(k + 1)]
        try:
            for index in range(k):
                start, stop = starts[index], starts[index + 1]
                local_batch = stop - start if self._sync else min(stop - start, self._batch_size)
                # The worker's share of the pool's options: its envs keep their
                # global ids, and its node's cores are shared with its siblings.
                local = options.replace(num_envs=stop - start, batch_size=local_batch, seeds=seeds[start:stop], first_env_id=start, shares_cores=True)
                handle = actor.remote(spec.task_id, dict(spec.config), local)
                self._workers.append(WorkerLink(index, handle, start, stop, local_batch))
            self._starts = np.array(starts[:-1])
            self._describe_workers()
            for w in self._workers:
                self._attach_channel(w)
        except BaseException:
            self.close()
            raise

    def _describe_workers(self) -> None:
        """Wait for every worker to start; check that each runs this
        process's envpool_lite."""
        ray, k = self._ray, len(self._workers)
        refs = [w.handle.describe.remote() for w in self._workers]
        _, pending = ray.wait(refs, num_returns=len(refs), timeout=None if math.isinf(self._start_timeout) else self._start_timeout)
        if pending:
            late = [str(w) for w, r in zip(self._workers, refs) if r in pending]
            raise RuntimeError(f"{len(pending)} of {k} Ray workers did not start within {self._start_timeout:g} s ({', '.join(late)})")
        for w, r in zip(self._workers, refs):
            try:
                w.info = ray.get(r)
            except ray.exceptions.RayActorError as e:
                # Its envs failed to build: say why (the traceback's last line).
                cause = [line for line in str(e).splitlines() if line.strip()][-1]
                raise RuntimeError(f"{w} could not start on the Ray cluster: {cause}") from None
            if w.info.version != _version.__version__:
                raise RuntimeError(
                    f"{w} runs envpool_lite {w.info.version} on node {w.info.node_ip}, and this process runs envpool_lite {_version.__version__}: "
                    "every node of the Ray cluster needs the same version (install it there and restart the node's `ray start`)"
                )

    def _attach_channel(self, w: WorkerLink) -> None:
        """A channel to a worker on this process's node (channel.py); Ray
        calls for one on another node, or if the channel cannot be made
        (/dev/shm full, say)."""
        w.use_channel(None)
        if w.info is None or w.info.node_id != self._node_id or not channel.available():
            return
        try:
            ring = Ring.create(w.info.field_specs, w.batch_size, channel.slots_for(w.stop - w.start, w.batch_size))
        except OSError:
            return
        try:
            listener, address = channel.listen()
            try:
                opened = w.handle.open_channel.remote(w.epoch, ChannelInfo(address, ring.info))
                pid = self._ray.get(opened, timeout=None if math.isinf(self._start_timeout) else self._start_timeout)
                conn = channel.accept(listener, pid, timeout=CLOSE_WAIT_S)
            finally:
                listener.close()
        except Exception:
            ring.close(unlink=True)
            return  # Ray calls; a worker that died meanwhile fails on the first
        w.use_channel(channel.Channel(channel.Wire(conn), ring))


def _wait_for_cpus(ray, k: int) -> None:
    """A clear error now if the cluster has fewer than k free CPUs (a pool
    closed just now frees its CPUs within a moment)."""
    free = ray.available_resources().get("CPU", 0)
    for _ in range(20):
        if free >= k:
            return
        time.sleep(0.1)
        free = ray.available_resources().get("CPU", 0)
    raise RuntimeError(
        f"num_workers={k} needs {k} free CPUs in the Ray cluster (each worker reserves 1); it has {free:g} free "
        f"of {ray.cluster_resources().get('CPU', 0):g}: close other pools, use fewer workers, or add nodes (ray start --address=...)"
    )
