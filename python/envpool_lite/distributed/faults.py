"""What the driver does when a worker fails.

A worker whose process dies (or whose node is lost or cut off, or whose
channel closes), or that does not answer for ``worker_timeout`` seconds (it
is then killed), makes recv()
raise ``EnvStepError`` naming the env ids that were in flight on it. Ray
restarts the actor; every env of that worker resets on its next action, and
the other workers keep serving. Each failure starts a new epoch for the
worker (link.py): replies to calls of an older epoch are ignored, and the
first call of the new epoch makes the worker start a fresh pool. A worker
that Ray restarted while none of its calls were in flight answers the
driver's next call with ``Restarted``, which fails it the same way.

With ``checkpoint_every=N`` nothing is lost: the driver keeps each env's
last checkpoint (a state its worker takes every N rows of it) and the
commands sent since; the restarted worker's first request puts every env
back (set_state, then the commands replayed with their results dropped)
and sends the lost envs' last command again, so their rows come back as
the lost ones would have, and the run goes on as if nothing happened:
recv() just waits longer. A worker that fails again meanwhile is restored
the same way.

``FaultHandling`` is a part of ``DistributedPool`` (pool.py): it reads and
writes the pool's ``_workers``, ``_in_flight``, ``_buffer``, ``_buffered``,
``_timeout``, ``_start_timeout``, ``_sync``, ``_closed`` and ``_ray``, and
calls its ``_harvest`` and ``_read_channel`` (receiving.py), ``_call``
(sending.py) and ``_attach_channel`` (startup.py).
"""

from __future__ import annotations

import math
import time
from collections import deque
from typing import TYPE_CHECKING, Any, NoReturn

import numpy as np

from envpool_lite import _core
from envpool_lite.distributed.link import WorkerLink
from envpool_lite.distributed.protocol import Command, EnvFailed, Request, Restore

# Before a worker is declared hung, its reply gets this long to show up if
# the driver itself was away for more than _AWAY_S (stopped by SIGSTOP or a
# debugger, or busy outside recv()): the replies that arrived meanwhile may
# still be unread.
_GRACE_S = 0.25
_AWAY_S = 0.5


class Recovering(Exception):
    """A worker failed and its envs are being put back on its restarted
    process (checkpoint_every): recv() goes on waiting for their rows."""


class FaultHandling:
    _ray: Any
    _workers: list[WorkerLink]
    _in_flight: np.ndarray
    _buffer: deque
    _buffered: int
    _timeout: float
    _start_timeout: float
    _sync: bool
    _closed: bool
    _last_look: float  # when _check_hangs last ran
    _logs: list[list[Command]] | None  # checkpoint_every: each env's commands since its checkpoint

    if TYPE_CHECKING:  # declared for the type checker; defined in receiving.py, sending.py and startup.py

        def _harvest(self, w: WorkerLink) -> None: ...

        def _read_channel(self, w: WorkerLink) -> bool: ...

        def _call(self, w: WorkerLink, request) -> None: ...

        def _attach_channel(self, w: WorkerLink) -> None: ...

    def _check_hangs(self) -> None:
        """Fail a worker that has not answered its oldest call within
        worker_timeout, or that Ray has not restarted within the start
        timeout."""
        now = time.monotonic()
        # This process itself was away (stopped, or not in recv()) since it
        # last looked: replies that came meanwhile may still be unread.
        grace = _GRACE_S if now - self._last_look > _AWAY_S else 0.0
        self._last_look = now
        for w in self._workers:
            if not w.awaited:
                continue  # nothing awaited from it
            if w.probe is not None:
                if now - w.last_progress > self._start_timeout:
                    self._kill_and_fail(w, f"was not restarted within {self._start_timeout:g} s")
            elif w.channel is not None:
                if w.channel.broken:
                    self._kill_and_fail(w, w.channel.broken)
                if now - max(w.last_progress, w.waiting_since) > self._timeout:
                    if w.channel.wire.wait(grace):
                        continue  # it has answered: this process was the one that stalled
                    self._kill_and_fail(w, f"did not answer within worker_timeout={self._timeout:g} s")
            elif now - max(w.last_progress, w.calls[0].submitted) > self._timeout:
                if self._ray.wait([w.calls[0].ref], timeout=grace)[0]:
                    continue  # it has answered: this process was the one that stalled
                self._kill_and_fail(w, f"did not answer within worker_timeout={self._timeout:g} s")

    def _env_failed(self, w: WorkerLink, reply: EnvFailed):
        """An env raised on worker w: the in-process pool's error, global ids."""
        self._in_flight[reply.dropped_env_ids] = False
        err = _core.EnvStepError(f"{w}: {reply.message}")
        err.env_ids, err.dropped_env_ids = reply.env_ids, reply.dropped_env_ids
        return err

    def _fail(self, w: WorkerLink, reason: str) -> NoReturn:
        """Worker w is gone: forget its calls, and raise EnvStepError naming
        the envs that were in flight on it; with checkpoint_every, restore
        its envs on the restarted worker instead (raises Recovering)."""
        if self._closed:  # close() on another thread killed it
            raise RuntimeError("the env pool was closed (by close() on another thread or in a signal handler) while recv() was waiting")
        buffered = set()
        for batch in self._buffer:
            buffered.update(batch.env_ids.tolist())
        ids = np.arange(w.start, w.stop)
        lost = [int(i) for i in ids[self._in_flight[w.start : w.stop]] if int(i) not in buffered]
        w.new_epoch()
        w.probe = w.handle.describe.remote()  # answers once Ray has restarted it
        if self._logs is not None:
            # The first request of the new epoch puts every env back: its
            # last checkpoint and the commands since, replayed; the lost
            # envs' last command is sent again, its row returned as the
            # lost one would have been. They stay in flight meanwhile.
            logs = {i - w.start: list(self._logs[i]) for i in range(w.start, w.stop) if self._logs[i]}
            pending = np.array([i - w.start for i in lost], np.int32)
            w.deferred.append(dict(restore=Restore(logs, pending)))
            w.recovered += 1
            raise Recovering(f"{w} {reason}")
        self._in_flight[lost] = False
        err = _core.EnvStepError(f"{w} {reason}; envs {span(lost)} were in flight on it and await an action again. Ray restarts the worker: each of its envs resets on its next action.")
        err.env_ids, err.dropped_env_ids = lost, list(lost)
        raise err

    def _restarted(self, w: WorkerLink) -> None:
        """w's probe answered: the new process is up (send what waited), or
        not yet (ask again), or Ray gave up on it."""
        ray = self._ray
        try:
            w.info = ray.get(w.probe)
        except ray.exceptions.ActorUnavailableError:
            time.sleep(0.05)  # still restarting
            w.probe = w.handle.describe.remote()
            return
        except ray.exceptions.RayActorError as e:
            w.dead = str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__
            waiting = sorted(int(i) + w.start for sent in w.deferred for i in Request(0, False, **sent).sent_ids)
            w.probe, w.deferred = None, []
            self._in_flight[waiting] = False
            err = _core.EnvStepError(f"{w} could not be restarted ({w.dead}); envs {span(waiting)} were not stepped. Close the pool and make a new one.")
            err.env_ids, err.dropped_env_ids = waiting, list(waiting)
            raise err from e
        w.probe = None
        w.last_progress = time.monotonic()
        self._attach_channel(w)  # a channel if the new process is on this node
        deferred, w.deferred = w.deferred, []
        for sent in deferred:
            self._call(w, w.request(**sent))

    def _sync_drop(self, err) -> None:
        """Sync mode: as in-process, the whole batch is dropped: wait for the
        other workers' rows of it, drop them, and name them too."""
        if not self._sync:
            return
        dropped = set(err.dropped_env_ids)
        timeout = None if math.isinf(self._timeout) else self._timeout
        for w in self._workers:
            while w.calls or (w.channel is not None and w.outstanding > 0):
                try:
                    if w.channel is not None:
                        if not (w.channel.wire.wait(timeout) and self._read_channel(w)):
                            self._kill_and_fail(w, f"did not answer within worker_timeout={self._timeout:g} s")
                    elif self._ray.wait([w.calls[0].ref], timeout=timeout)[0]:
                        self._harvest(w)
                    else:
                        self._kill_and_fail(w, f"did not answer within worker_timeout={self._timeout:g} s")
                except _core.EnvStepError as other:
                    err.env_ids = sorted(set(err.env_ids) | set(other.env_ids))
                    dropped.update(other.dropped_env_ids)
                except Recovering:
                    pass  # its envs come back on the restarted worker
        for batch in self._buffer:
            dropped.update(batch.env_ids.tolist())
        self._buffer.clear()
        self._buffered = 0
        self._in_flight[:] = False
        err.dropped_env_ids = sorted(dropped)

    def _kill_and_fail(self, w: WorkerLink, reason: str) -> None:
        """A worker that hangs: kill it (Ray starts a new one) and fail it."""
        try:
            self._ray.kill(w.handle, no_restart=False)
        except Exception:
            pass
        self._fail(w, reason + " (it was killed)")


def span(ids: list[int]) -> str:
    """A list of env ids as a short text: 3..17, or [2, 5, 9]."""
    if not ids:
        return "[]"
    if ids == list(range(ids[0], ids[-1] + 1)) and len(ids) > 3:
        return f"{ids[0]}..{ids[-1]}"
    return str(ids)
