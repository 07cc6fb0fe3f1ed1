"""The worker: one Ray actor that runs an ordinary in-process pool (async
mode) over a contiguous block of the global env ids, [offset, offset + n).
It answers the driver's requests (protocol.py) with batches whose env ids
are global."""

from __future__ import annotations

import os

import numpy as np

from envpool_lite import _core
from envpool_lite.distributed.protocol import ENV_ID_FIELD, Batch, EnvFailed, Reply, Request, Restarted, RingBatch, WorkerInfo
from envpool_lite.distributed.ring import Ring
from envpool_lite.spec import make_spec


class EnvPoolWorker:
    """A Ray actor (the driver wraps it with ``ray.remote``)."""

    def __init__(self, task_id: str, config: dict, seeds: list, batch_size: int, num_threads: int, thread_affinity_offset: int, same_step_autoreset: bool, render: bool, offset: int):
        # The env's options resolved here, not in the driver: a family's
        # internal options can be addresses in the process that filled them
        # (numpy's loops, which some families call).
        env_options = make_spec(task_id, **config).env_options
        self._args = (task_id, env_options, seeds, len(seeds), batch_size, num_threads, thread_affinity_offset, same_step_autoreset, render, offset)
        self._pool = _core.EnvPool(*self._args)  # every env resets on its first action
        self._offset = offset
        self._batch_size = batch_size
        self._epoch: int | None = None  # the driver's epoch this pool serves (None: a fresh pool serves any)
        self._ring: Ring | None = None  # the driver's ring, on the driver's node (ring.py)

    def describe(self) -> WorkerInfo:
        import ray

        import envpool_lite

        context = ray.get_runtime_context()
        return WorkerInfo(
            pid=os.getpid(),
            node_id=context.get_node_id(),
            node_ip=ray.util.get_node_ip_address(),
            version=envpool_lite.__version__,
            field_names=list(self._pool.field_names),
            field_specs=list(self._pool.field_specs),
            num_threads=self._pool.num_threads,
        )

    def run(self, request: Request) -> Reply:
        """Queue the request's resets and actions, then return the next batch."""
        if request.epoch != self._epoch:
            if not request.first:
                # Ray restarted this worker while none of the driver's calls
                # were in flight on it. Say so rather than serve fresh envs.
                return Restarted(os.getpid())
            if self._epoch is not None:
                # The driver gave up on this worker's earlier calls: a new
                # pool, as a restarted worker has (what they left in flight
                # is dropped, and every env resets on its next action).
                self._pool.close()
                self._pool = _core.EnvPool(*self._args)
            self._epoch = request.epoch
            self._map_ring(request)
        if request.reset_ids is not None:
            self._pool.send_reset(request.reset_ids, request.reset_seeds)
        if request.action_ids is not None:
            self._pool.send(request.actions, request.action_ids)
        try:
            fields = self._pool.recv(None)
        except _core.EnvStepError as e:
            off = self._offset
            return EnvFailed(str(e), [i + off for i in e.env_ids], [i + off for i in e.dropped_env_ids])
        fields[ENV_ID_FIELD][:] += self._offset
        if request.slot is not None and self._ring is not None and len(self._ring.views[request.slot]) == len(fields):
            rows = len(fields[ENV_ID_FIELD])
            for view, field in zip(self._ring.views[request.slot], fields):
                view[:rows] = field
            return RingBatch(request.slot, rows)
        return Batch(fields)

    def _map_ring(self, request: Request) -> None:
        """An epoch's first call says which ring (if any) this epoch's
        batches go through."""
        if self._ring is not None:
            self._ring.close()
            self._ring = None
        if request.ring is not None:
            try:
                self._ring = Ring(request.ring, list(self._pool.field_specs), self._batch_size, create=False)
            except OSError:
                self._ring = None  # not this node's file after all: every batch in the reply

    def render(self, env_ids: np.ndarray) -> np.ndarray:
        return self._pool.render(env_ids)

    def render_state(self, env_ids: np.ndarray) -> np.ndarray:
        return self._pool.render_state(env_ids)
