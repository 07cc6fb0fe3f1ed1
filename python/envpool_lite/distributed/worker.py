"""The worker: one Ray actor that runs an ordinary in-process pool (async
mode) over a contiguous block of the global env ids, [offset, offset + n).
It answers the driver's requests (protocol.py) with batches whose env ids
are global: through Ray's replies (``run``), or, on the driver's node,
through a channel served by a thread of its own (``open_channel``,
channel.py)."""

from __future__ import annotations

import os
import sys
import threading
import traceback
from typing import Any

import numpy as np

from envpool_lite import _core, _version
from envpool_lite.distributed import channel
from envpool_lite.distributed.protocol import ENV_ID_FIELD, Batch, ChannelInfo, Command, EnvFailed, Free, Reply, Request, Restarted, Restore, RingBatch, WorkerInfo
from envpool_lite.distributed.ring import Ring
from envpool_lite.spec import make_spec

_STOP_WAIT_S = 5.0  # an old channel's thread gets this long to end


class EnvPoolWorker:
    """A Ray actor (the driver wraps it with ``ray.remote``)."""

    def __init__(self, task_id: str, config: dict, options: _core.PoolOptions):
        # The task made here, not in the driver: a family's internal options
        # can be addresses in the process that filled them (numpy's loops,
        # which some families call). The pool's options are the driver's
        # (the worker's share of them: its envs, seeds and first env id).
        self._task = make_spec(task_id, **config).task
        self._options = options
        self._pool = _core.EnvPool(self._task, options)  # every env resets on its first action
        offset, batch_size = options.first_env_id, options.batch_size
        self._offset = offset
        self._batch_size = batch_size
        self._epoch: int | None = None  # the driver's epoch this pool serves (None: a fresh pool serves any)
        # checkpoint_every=N: each env's rows since its last checkpoint.
        self._checkpoint_every = int(config.get("checkpoint_every", 0))
        self._since = np.zeros(options.num_envs, np.int64)
        # The channel's thread and the Ray calls (render) take turns at the pool.
        self._lock = threading.Lock()
        self._server: threading.Thread | None = None
        self._wire: channel.Wire | None = None

    def describe(self) -> WorkerInfo:
        import ray

        context = ray.get_runtime_context()
        return WorkerInfo(
            pid=os.getpid(),
            node_id=context.get_node_id(),
            node_ip=ray.util.get_node_ip_address(),
            version=_version.__version__,
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
            self._new_epoch(request.epoch)
        self._queue(request)
        if not self._pool.in_flight:  # a Restore whose envs all await an action
            return Batch(tuple(np.empty((0, *shape), dtype) for _, dtype, shape in self._pool.field_specs))
        try:
            fields = self._pool.recv(None)
        except _core.EnvStepError as e:
            return self._failed(e)
        states = self._checkpoint(fields[ENV_ID_FIELD])
        fields[ENV_ID_FIELD][:] += self._offset
        return Batch(fields, states=states)

    def open_channel(self, epoch: int, info: ChannelInfo) -> int:
        """Serve the driver's epoch `epoch` through a channel (channel.py):
        connect to its socket, map its ring, and start the thread that
        serves it. Returns this process's pid."""
        self._stop_server()
        if epoch != self._epoch:
            self._new_epoch(epoch)
        ring = Ring(info.ring, list(self._pool.field_specs), self._batch_size, create=False)
        try:
            wire = channel.Wire(channel.connect(info.address))
        except BaseException:
            ring.close()
            raise
        self._wire = wire
        self._server = threading.Thread(target=self._serve, args=(wire, ring), name="envpool_lite-channel", daemon=True)
        self._server.start()
        return os.getpid()

    def _serve(self, wire: channel.Wire, ring: Ring) -> None:
        """The channel's loop: queue the requests that came, then, while envs
        are in flight and a slot is free, write the pool's next batch into a
        slot and name it. Ends when the driver closes the wire."""
        free = list(range(ring.info.slots))
        in_flight = 0
        try:
            while True:
                if not (in_flight and free):
                    wire.wait(None)  # nothing to do until the driver says something
                with self._lock:
                    in_flight += self._take(wire, free)
                if not (in_flight and free):
                    continue
                with self._lock:
                    try:
                        fields = self._pool.recv(None)
                    except _core.EnvStepError as e:
                        in_flight -= len(e.dropped_env_ids)
                        wire.send(self._failed(e))
                        continue
                    rows = len(fields[ENV_ID_FIELD])
                    in_flight -= rows
                    states = self._checkpoint(fields[ENV_ID_FIELD])
                    # The actions that came meanwhile go to the pool first, so
                    # its threads step them while this one copies the batch.
                    in_flight += self._take(wire, free)
                    slot = free.pop()
                    for view, field in zip(ring.views[slot], fields):
                        view[:rows] = field
                    ring.views[slot][ENV_ID_FIELD][:rows] += self._offset
                wire.send(RingBatch(slot, rows, states))
        except (EOFError, OSError):
            pass  # the driver closed the channel (or went away)
        except BaseException:
            # Anything else: closing the wire tells the driver, which fails
            # this worker and opens a new channel (a new epoch, a new pool).
            traceback.print_exc(file=sys.stderr)
        finally:
            wire.close()
            ring.close()

    def _take(self, wire: channel.Wire, free: list[int]) -> int:
        """Act on every message that has come (slots handed back, requests
        queued in the pool); returns the envs the requests sent."""
        sent = 0
        while (message := wire.next()) is not None:
            if isinstance(message, Free):
                free.append(message.slot)
            else:
                self._queue(message)
                sent += len(message.sent_ids)
        return sent

    def _stop_server(self) -> None:
        """End the previous channel's thread (the driver has given up on it)."""
        if self._wire is not None:
            self._wire.close()
        if self._server is not None:
            self._server.join(_STOP_WAIT_S)
        self._server, self._wire = None, None

    def _new_epoch(self, epoch: int) -> None:
        if self._epoch is not None:
            # The driver gave up on this worker's earlier calls: a new pool,
            # as a restarted worker has (what they left in flight is
            # dropped, and every env resets on its next action).
            with self._lock:
                self._pool.close()
                self._pool = _core.EnvPool(self._task, self._options)
        self._since[:] = 0
        self._epoch = epoch

    def _queue(self, request: Request) -> None:
        if request.restore is not None:
            self._restore(request.restore)
        if request.reset_ids is not None:
            self._pool.send_reset(request.reset_ids, request.reset_seeds)
        if request.action_ids is not None:
            self._pool.send(request.actions, request.action_ids)
        if request.state_ids is not None:
            self._pool.set_state(request.state_ids, request.states)

    def _checkpoint(self, ids: np.ndarray) -> dict[int, bytes] | None:
        """checkpoint_every=N: the state of each env of this batch (local
        ids) whose N-th row since its last checkpoint this is, taken now,
        while it awaits its next action; global ids."""
        if self._checkpoint_every <= 0:
            return None
        self._since[ids] += 1
        due = ids[self._since[ids] >= self._checkpoint_every]
        if not due.size:
            return None
        self._since[due] = 0
        states = self._pool.get_state(due)
        return {int(i) + self._offset: s for i, s in zip(due, states)}

    def _restore(self, restore: Restore) -> None:
        """A fresh pool's envs put back where the lost worker's were: each
        env's log replayed command by command (its results dropped), all
        envs' k-th commands at once; then the pending envs' last commands
        sent, their rows left for recv() (protocol.Restore)."""
        pool, pending = self._pool, {int(i) for i in restore.pending}
        logs = {int(i): log for i, log in restore.logs.items()}
        replayed = {i: len(log) - (1 if i in pending else 0) for i, log in logs.items()}
        for k in range(max(replayed.values(), default=0)):
            self._send_commands(pool, {i: logs[i][k] for i in logs if k < replayed[i]})
            while pool.in_flight:
                try:
                    pool.recv(None)
                except _core.EnvStepError:
                    pass  # the lost worker's env raised here too; its result was dropped then
        self._send_commands(pool, {i: logs[i][-1] for i in pending if logs.get(i)})

    @staticmethod
    def _send_commands(pool, commands: dict[int, Command]) -> None:
        """One command per env: the resets (with and without a seed), the
        steps and the states, each kind in one call."""
        by_kind: dict[str, list[tuple[int, Any]]] = {}
        for i, (kind, value) in sorted(commands.items()):
            key = "reset_seeded" if kind == "reset" and value is not None else kind
            by_kind.setdefault(key, []).append((i, value))
        for key, items in by_kind.items():
            ids = np.array([i for i, _ in items], np.int32)
            values = [v for _, v in items]
            if key == "reset":
                pool.send_reset(ids, None)
            elif key == "reset_seeded":
                pool.send_reset(ids, values)
            elif key == "step":
                pool.send(np.stack(values), ids)
            else:
                pool.set_state(ids, values)

    def get_state(self, env_ids: np.ndarray) -> list[bytes]:
        with self._lock:
            return self._pool.get_state(env_ids)

    def _failed(self, e: _core.EnvStepError) -> EnvFailed:
        off = self._offset
        return EnvFailed(str(e), [i + off for i in e.env_ids], [i + off for i in e.dropped_env_ids])

    def render(self, env_ids: np.ndarray) -> np.ndarray:
        with self._lock:
            return self._pool.render(env_ids)

    def render_state(self, env_ids: np.ndarray) -> np.ndarray:
        with self._lock:
            return self._pool.render_state(env_ids)
