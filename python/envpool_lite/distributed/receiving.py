"""Receiving: recv() waits on the Ray calls in flight and on the channels
that owe rows, takes each worker's batches as they come (a reply, or the
rows of a ring's slot), and returns the first batch_size rows buffered as
one batch: in async mode in the order they came, in sync mode in the order
they were sent.

``Receiving`` is a part of ``DistributedPool`` (pool.py): it reads and
writes the pool's ``_buffer``, ``_buffered``, ``_in_flight`` and
``_last_ids``, reads its ``_ray``, ``_workers``, ``_batch_size``, ``_sync``,
``_order``, ``_closed`` and ``in_flight``, calls ``_top_up`` (sending.py),
and leaves a worker that fails, hangs or was restarted to faults.py
(``_fail``, ``_env_failed``, ``_check_hangs``, ``_restarted``).
"""

from __future__ import annotations

import select
import time
from collections import deque
from typing import TYPE_CHECKING, Any, NoReturn

import numpy as np

from envpool_lite.distributed.faults import Recovering
from envpool_lite.distributed.link import WorkerLink
from envpool_lite.distributed.protocol import ENV_ID_FIELD, Batch, Command, EnvFailed, Free, Restarted, RingBatch

# recv() waits in slices this long, so that Ctrl-C and the hang check run.
_WAIT_SLICE_S = 0.1
# While it awaits both a channel and a Ray call, recv() looks at each in turn
# this often.
_MIXED_SLICE_S = 0.001


class Receiving:
    _ray: Any
    _workers: list[WorkerLink]
    _batch_size: int
    _sync: bool
    _closed: bool
    _in_flight: np.ndarray  # sent, not yet returned by recv()
    _order: np.ndarray  # sync mode: the order rows come back in
    _buffer: deque[Batch]  # received batches not yet returned
    _buffered: int  # their rows
    _last_ids: np.ndarray  # the env ids recv() returned last
    _logs: list[list[Command]] | None  # checkpoint_every: each env's commands since its checkpoint

    if TYPE_CHECKING:  # declared for the type checker; defined in pool.py, sending.py and faults.py

        @property
        def in_flight(self) -> int: ...

        def _top_up(self, w: WorkerLink) -> None: ...

        def _check_hangs(self) -> None: ...

        def _restarted(self, w: WorkerLink) -> None: ...

        def _fail(self, w: WorkerLink, reason: str) -> NoReturn: ...

        def _env_failed(self, w: WorkerLink, reply: EnvFailed): ...

    def _recv(self, timeout: float | None):
        in_flight = self.in_flight
        if in_flight == 0:
            raise RuntimeError("recv() with no env in flight: call send() or async_reset() first")
        target = min(self._batch_size, in_flight)
        deadline = None if timeout is None else time.monotonic() + timeout
        while self._buffered < target:
            try:
                self._recv_pass(in_flight, deadline, timeout)
            except Recovering:
                continue  # a worker is being restarted and its envs restored (faults.py)
        return self._assemble(target)

    def _recv_pass(self, in_flight: int, deadline: float | None, timeout: float | None) -> None:
        """One look at every worker: take what is ready, check for hangs."""
        ray = self._ray
        if self._closed:
            raise RuntimeError("the env pool was closed (by close() on another thread or in a signal handler) while recv() was waiting")
        channels = [w for w in self._workers if w.channel is not None and w.outstanding > 0]
        pending = {w.probe if w.probe is not None else w.calls[0].ref: w for w in self._workers if w.probe is not None or w.calls}
        if not pending and not channels:
            raise RuntimeError(f"internal error: {in_flight - self._buffered} env(s) in flight and no worker call to collect them")
        wait_s = _WAIT_SLICE_S
        if deadline is not None:
            wait_s = min(wait_s, max(0.0, deadline - time.monotonic()))
        progressed = False
        # Each pass takes what every worker has ready, Ray's replies first
        # (they took longer to come), so that no worker starves another.
        if pending:
            # Every worker whose reply is ready, not just the first: one that
            # always answers first (an async pool's other workers) must not
            # keep a failed one's reply, and its recovery, waiting.
            refs = list(pending)
            ready_refs, _ = ray.wait(refs, num_returns=len(refs), timeout=0.0)
            if not ready_refs and not channels:
                ready_refs, _ = ray.wait(refs, num_returns=1, timeout=wait_s)
            for ref in ready_refs:
                progressed = True
                w = pending[ref]
                self._restarted(w) if w.probe is not None else self._harvest(w)
        if channels:
            ready = [w for w in channels if w.channel is not None and w.channel.wire.pending]
            if not ready:
                fds = {w.channel.wire.fileno(): w for w in channels if w.channel is not None}
                wait = 0.0 if progressed else min(wait_s, _MIXED_SLICE_S) if pending else wait_s
                try:
                    ready = [fds[fd] for fd in select.select(list(fds), [], [], wait)[0]]
                except (ValueError, OSError):
                    return  # a channel closed under us: close() on another thread (checked next pass)
            for w in ready:
                if w.channel is not None:
                    progressed |= self._read_channel(w)
        # Every time round, not only when nothing is ready: the other
        # workers' replies must not hide one that hangs.
        self._check_hangs()
        if progressed:
            return
        if deadline is not None and time.monotonic() >= deadline:
            raise TimeoutError(f"recv() timed out after {timeout} s")

    def _harvest(self, w: WorkerLink) -> None:
        """Take worker w's oldest call, which is done."""
        ray = self._ray
        call = w.calls.popleft()
        try:
            reply = ray.get(call.ref)
        except (ray.exceptions.RayActorError, ray.exceptions.ObjectLostError) as e:
            if call.epoch == w.epoch:
                self._fail(w, f"was lost ({type(e).__name__}: the process died or its node left the cluster)")
            return
        except ray.exceptions.RayTaskError as e:
            if call.epoch == w.epoch:
                self._fail(w, f"raised {e}")
            return
        if call.epoch != w.epoch:
            return  # a reply to a call the driver gave up on
        if isinstance(reply, Restarted):
            self._fail(w, f"was restarted by Ray as pid {reply.pid} (its process died while none of its calls were in flight)")
        now = time.monotonic()
        w.busy_s += now - max(call.submitted, w.last_progress)
        w.last_progress = now
        self._top_up(w)
        if isinstance(reply, EnvFailed):
            raise self._env_failed(w, reply)
        w.steps += len(reply)
        self._checkpointed(reply.states)
        self._buffer.append(reply)
        self._buffered += len(reply)

    def _read_channel(self, w: WorkerLink) -> bool:
        """Take every message worker w's channel has brought; whether there
        was one."""
        if w.channel is None:
            return False  # closed by close() on another thread
        wire, got = w.channel.wire, False
        while True:
            try:
                message = wire.next()
            except EOFError:
                self._fail(w, "was lost: its channel closed (its process died or its thread failed; Ray has restarted it or will)")
            if message is None:
                return got
            got = True
            now = time.monotonic()
            w.busy_s += now - max(w.waiting_since, w.last_progress)
            w.last_progress = now
            if isinstance(message, EnvFailed):
                w.outstanding -= len(message.dropped_env_ids)
                raise self._env_failed(w, message)
            assert isinstance(message, RingBatch), message
            batch = Batch(tuple(v[: message.rows].copy() for v in w.channel.ring.views[message.slot]), owned=True)
            try:
                wire.send(Free(message.slot))
            except (OSError, TimeoutError):
                pass  # it died: the channel's end says so next
            w.outstanding -= message.rows
            w.steps += message.rows
            self._checkpointed(message.states)
            self._buffer.append(batch)
            self._buffered += message.rows

    def _checkpointed(self, states: dict[int, bytes] | None) -> None:
        """checkpoint_every: a worker took these envs' states at the rows it
        just sent (before any later command of theirs): each env's log
        starts again from its state."""
        if states and self._logs is not None:
            for i, state in states.items():
                self._logs[i] = [("state", state)]

    def _assemble(self, rows: int):
        """The first `rows` buffered rows as new arrays."""
        parts, need, owned = [], rows, True
        while need:
            batch = self._buffer[0]
            owned &= batch.owned
            n = len(batch)
            if n <= need:
                parts.append(batch.fields)
                self._buffer.popleft()
                need -= n
            else:
                parts.append(tuple(a[:need] for a in batch.fields))
                self._buffer[0] = Batch(tuple(a[need:] for a in batch.fields), batch.owned)
                need = 0
        self._buffered -= rows
        if len(parts) == 1 and owned:
            out = parts[0]  # the driver's own copies already: no second copy
        else:
            out = tuple(np.concatenate([p[f] for p in parts]) for f in range(len(parts[0])))
        ids = out[ENV_ID_FIELD]
        if self._sync and len(parts) > 1:
            order = np.argsort(self._order[ids], kind="stable")
            out = tuple(a[order] for a in out)
            ids = out[ENV_ID_FIELD]
        self._in_flight[ids] = False
        self._last_ids = ids.copy()
        return out
