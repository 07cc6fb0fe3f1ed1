"""Sending: the env ids a send() names, checked as the in-process pool checks
them; the worker that holds each (render() splits its ids the same way);
and the requests (protocol.py) that carry each worker's share of the
actions or resets: over its channel, or as Ray calls, of which a worker on
another node has up to REQUESTS_PER_WORKER in flight.

``Sending`` is a part of ``DistributedPool`` (pool.py): it reads the pool's
``_num_envs``, ``_sync``, ``_timeout``, ``_starts``, ``_workers`` and
``_last_ids``, and writes its ``_in_flight``, ``_order`` and (with
checkpoint_every) ``_logs``, each env's commands.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from envpool_lite.distributed.link import Call, WorkerLink
from envpool_lite.distributed.protocol import Command, Request

# Requests each worker keeps in flight to hide the network's latency.
REQUESTS_PER_WORKER = 2


class Sending:
    _num_envs: int
    _sync: bool
    _timeout: float
    _starts: np.ndarray  # each worker's first env id
    _workers: list[WorkerLink]
    _in_flight: np.ndarray  # sent, not yet returned by recv()
    _order: np.ndarray  # sync mode: the order rows come back in
    _last_ids: np.ndarray  # the env ids recv() returned last
    _logs: list[list[Command]] | None  # checkpoint_every: each env's commands since its checkpoint

    def _ids(self, env_id: Any) -> np.ndarray:
        """Global env ids, checked as the in-process pool checks them."""
        if env_id is None:
            ids = np.arange(self._num_envs, dtype=np.int64) if self._sync else self._last_ids.astype(np.int64)
        else:
            ids = self._in_range(env_id)
        uniq, counts = np.unique(ids, return_counts=True)
        if (counts > 1).any():
            raise ValueError(f"env_id {uniq[counts > 1][0]} appears twice")
        busy = ids[self._in_flight[ids]]
        if busy.size:
            raise ValueError(f"env_id {busy[0]} is not awaiting an action: it was sent and not yet received")
        return ids

    def _in_range(self, env_id: Any) -> np.ndarray:
        """env_id as int64 ids, each an integer in [0, num_envs)."""
        arr = np.asarray(env_id)
        if arr.ndim > 1:
            raise ValueError("env_id must be 1-D")
        arr = arr.reshape(-1)
        if arr.size and arr.dtype.kind not in "iu":
            raise TypeError(f"env_id must be integers, got dtype {arr.dtype}")
        bad = arr[(arr < 0) | (arr >= self._num_envs)] if arr.dtype.kind == "i" else arr[arr >= self._num_envs]
        if bad.size:
            raise ValueError(f"env_id {bad[0]} out of range [0, {self._num_envs})")
        return arr.astype(np.int64)

    def _owner(self, ids: np.ndarray) -> np.ndarray:
        """The index of the worker that holds each env."""
        return np.searchsorted(self._starts, ids, side="right") - 1

    def _submit(self, ids: np.ndarray, actions: np.ndarray | None = None, seeds: np.ndarray | None = None, reset: bool = False, states: list[bytes] | None = None) -> None:
        if self._sync:
            # As in-process: a send of every env comes back in env id order,
            # a send of some in the order sent.
            self._order[ids] = ids if len(ids) == self._num_envs else np.arange(len(ids))
        owner = self._owner(ids)
        for w in self._workers:
            if w.dead and (owner == w.index).any():
                raise RuntimeError(f"{w} is gone and Ray could not restart it ({w.dead}): close the pool and make a new one")
        for w in self._workers:
            mask = owner == w.index
            if not mask.any():
                continue
            local = (ids[mask] - w.start).astype(np.int32)
            sent: dict[str, Any]
            if reset:
                sent = dict(reset_ids=local, reset_seeds=None if seeds is None else seeds[mask].tolist())
            elif states is not None:
                sent = dict(state_ids=local, states=[states[i] for i in np.flatnonzero(mask)])
            else:
                assert actions is not None
                sent = dict(actions=actions[mask], action_ids=local)
            if w.probe is not None:
                w.deferred.append(sent)  # sent once it has restarted
            else:
                self._call(w, w.request(**sent))
        self._in_flight[ids] = True
        if self._logs is not None:  # checkpoint_every: what a restart replays
            for j, i in enumerate(ids.tolist()):
                if reset:
                    self._logs[i].append(("reset", None if seeds is None else int(seeds[j])))
                elif states is not None:
                    self._logs[i].append(("state", states[j]))
                else:
                    assert actions is not None
                    self._logs[i].append(("step", actions[j].copy()))

    def _call(self, w: WorkerLink, request: Request) -> None:
        """One request that sends resets or actions: over the worker's
        channel, or as a Ray call that brings a batch back."""
        sent = len(request.sent_ids)
        if w.channel is not None:
            if w.outstanding == 0:
                w.waiting_since = time.monotonic()
            w.outstanding += sent
            try:
                w.channel.wire.send(request, timeout=None if math.isinf(self._timeout) else self._timeout)
            except TimeoutError:
                w.channel.broken = f"took no request for worker_timeout={self._timeout:g} s"  # the hang check fails it
            except OSError:
                pass  # its process died: recv() reads the channel's end and fails it
            return
        rows = min(w.batch_size, w.uncollected + sent)
        w.uncollected += sent - rows
        w.calls.append(Call(w.handle.run.remote(request), rows, w.epoch))
        self._top_up(w)

    def _top_up(self, w: WorkerLink) -> None:
        """Keep REQUESTS_PER_WORKER calls in flight while the worker has rows
        no call has asked for."""
        while w.uncollected > 0 and len(w.calls) < REQUESTS_PER_WORKER:
            rows = min(w.batch_size, w.uncollected)
            w.uncollected -= rows
            w.calls.append(Call(w.handle.run.remote(w.request()), rows, w.epoch))
