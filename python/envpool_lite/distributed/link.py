"""The driver's view of one worker: its actor handle, its env ids, the calls
it has in flight (oldest first: a Ray actor runs its calls in the order they
were submitted), its epoch, and, after a failure, the probe that tells when
Ray has restarted it."""

from __future__ import annotations

import time
from collections import deque

from envpool_lite.distributed.protocol import Request, WorkerInfo
from envpool_lite.distributed.ring import Ring


class Call:
    """One ``run`` call in flight: the rows it returns are known when it is
    made (the worker's recv() takes min(its batch, its envs in flight))."""

    __slots__ = ("ref", "rows", "epoch", "slot", "submitted")

    def __init__(self, ref, rows: int, epoch: int, slot: int | None):
        self.ref, self.rows, self.epoch, self.slot, self.submitted = ref, rows, epoch, slot, time.monotonic()


class WorkerLink:
    def __init__(self, index: int, handle, start: int, stop: int, batch_size: int):
        self.index, self.handle, self.start, self.stop, self.batch_size = index, handle, start, stop, batch_size
        self.calls: deque[Call] = deque()
        self.uncollected = 0  # rows on the worker no call has asked for yet
        self.epoch = 0
        self.fresh = True  # no call of this epoch sent yet
        self.last_progress = time.monotonic()
        self.info: WorkerInfo | None = None
        # After a failure: a describe() call that answers once Ray has
        # restarted the actor; requests wait in `deferred` until it does
        # (a call to an actor that is restarting fails at once).
        self.probe = None
        self.deferred: list[dict] = []  # each a request's resets or actions (request()'s arguments)
        # The same-node data plane (ring.py): the ring of this epoch, and its
        # slots no call in flight holds.
        self.ring: Ring | None = None
        self.free_slots: list[int] = []
        self.dead = ""  # why Ray could not restart it
        self.steps = 0  # rows received
        self.failures = 0
        self.busy_s = 0.0  # time its calls took, submission to harvest

    def request(self, reset_ids=None, reset_seeds=None, actions=None, action_ids=None) -> Request:
        """The next request to this worker (its epoch, whether it is the
        epoch's first, and a free slot of its ring if it has one)."""
        first, self.fresh = self.fresh, False
        ring = self.ring.info if first and self.ring is not None else None
        slot = self.free_slots.pop() if self.free_slots else None
        return Request(self.epoch, first, reset_ids, reset_seeds, actions, action_ids, ring, slot)

    def use_ring(self, ring: Ring | None) -> None:
        """This epoch's ring (None: every batch in the reply)."""
        self.drop_ring()
        self.ring = ring
        self.free_slots = [] if ring is None else list(range(ring.info.slots))

    def drop_ring(self) -> None:
        if self.ring is not None:
            self.ring.close(unlink=True)
        self.ring, self.free_slots = None, []

    def new_epoch(self) -> None:
        """Forget every call in flight: their replies will be ignored. The
        ring goes too (the old process may still write into it): the pool
        makes a new one once the worker has restarted."""
        self.drop_ring()
        self.calls.clear()
        self.deferred.clear()
        self.uncollected = 0
        self.epoch += 1
        self.fresh = True
        self.failures += 1
        self.last_progress = time.monotonic()

    def __repr__(self) -> str:
        return f"worker {self.index} (envs {self.start}..{self.stop - 1})"
