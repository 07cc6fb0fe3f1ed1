"""The driver's view of one worker: its actor handle, its env ids, how its
batches come (a channel on the driver's node, else Ray calls, whose calls
in flight it keeps oldest first: a Ray actor runs its calls in the order
they were submitted), its epoch, and, after a failure, the probe that tells
when Ray has restarted it."""

from __future__ import annotations

import time
from collections import deque

from envpool_lite.distributed.channel import Channel
from envpool_lite.distributed.protocol import Request, WorkerInfo


class Call:
    """One ``run`` call in flight: the rows it returns are known when it is
    made (the worker's recv() takes min(its batch, its envs in flight))."""

    __slots__ = ("ref", "rows", "epoch", "submitted")

    def __init__(self, ref, rows: int, epoch: int):
        self.ref, self.rows, self.epoch, self.submitted = ref, rows, epoch, time.monotonic()


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
        # On the driver's node (channel.py): this epoch's channel, the rows
        # sent through it and not yet back, and since when the oldest waits.
        self.channel: Channel | None = None
        self.outstanding = 0
        self.waiting_since = time.monotonic()
        self.dead = ""  # why Ray could not restart it
        self.steps = 0  # rows received
        self.failures = 0
        self.recovered = 0  # failures whose envs were put back (checkpoint_every)
        self.busy_s = 0.0  # time its calls took, submission to harvest

    def request(self, **sent) -> Request:
        """The next request to this worker (its epoch, and whether it is the
        epoch's first), carrying `sent` (Request's fields)."""
        first, self.fresh = self.fresh, False
        return Request(self.epoch, first, **sent)

    @property
    def awaited(self) -> bool:
        """Whether the driver awaits something from it (rows, or a restart)."""
        return self.probe is not None or bool(self.calls) or self.outstanding > 0

    def use_channel(self, channel: Channel | None) -> None:
        """This epoch's channel (None: Ray calls)."""
        self.drop_channel()
        self.channel = channel
        if channel is not None:
            self.fresh = False  # opening it began the epoch on the worker

    def drop_channel(self) -> None:
        if self.channel is not None:
            self.channel.close()
        self.channel, self.outstanding = None, 0

    def new_epoch(self) -> None:
        """Forget every call in flight: their replies will be ignored. The
        channel goes too (the old process may still write into its ring):
        the pool opens a new one once the worker has restarted."""
        self.drop_channel()
        self.calls.clear()
        self.deferred.clear()
        self.uncollected = 0
        self.epoch += 1
        self.fresh = True
        self.failures += 1
        self.last_progress = time.monotonic()

    def __repr__(self) -> str:
        return f"worker {self.index} (envs {self.start}..{self.stop - 1})"
