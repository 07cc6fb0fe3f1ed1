"""The rows of a channel (channel.py): a file in /dev/shm that the driver
and a worker on its node both map, cut into slots, each able to hold one
batch (every field, the worker's batch size in rows).

The worker writes a batch into a free slot and names the slot on the
channel's socket; the driver copies the rows out when it reads that, and
hands the slot back. The driver owns the file: it creates it, and removes
it when the worker fails (a new epoch gets a new channel and ring) and at
close(), or at the latest when its process ends.
"""

from __future__ import annotations

import mmap
import os
import uuid
import weakref

import numpy as np

from envpool_lite.distributed.protocol import RingInfo

DIRECTORY = "/dev/shm"


def _layout(field_specs: list, rows: int, slots: int) -> tuple[int, list[list[tuple[int, np.dtype, tuple]]]]:
    """Each slot's fields: (byte offset, dtype, shape), and the file's size."""
    offset, out = 0, []
    for _ in range(slots):
        fields = []
        for _, dtype, shape in field_specs:
            dt = np.dtype(dtype)
            shape = (rows, *shape)
            offset = -(-offset // 64) * 64  # each array on a cache line
            fields.append((offset, dt, shape))
            offset += dt.itemsize * int(np.prod(shape))
        out.append(fields)
    return max(offset, 1), out


class Ring:
    """One mapping of a ring file: ``views[slot][field]`` are its arrays."""

    def __init__(self, info: RingInfo, field_specs: list, rows: int, create: bool):
        self.info = info
        size, layout = _layout(field_specs, rows, info.slots)
        fd = os.open(info.path, os.O_RDWR | (os.O_CREAT | os.O_EXCL if create else 0), 0o600)
        try:
            if create:
                os.ftruncate(fd, size)
            self._mm: mmap.mmap | None = mmap.mmap(fd, size)
        finally:
            os.close(fd)
        self.views = [[np.frombuffer(self._mm, dt, int(np.prod(shape)), off).reshape(shape) for off, dt, shape in slot] for slot in layout]
        # The creator's file goes when the ring does, at the latest when the
        # interpreter ends.
        self._remove = weakref.finalize(self, _remove, info.path) if create else None

    @classmethod
    def create(cls, field_specs: list, rows: int, slots: int) -> Ring:
        path = os.path.join(DIRECTORY, f"envpool_lite_ring_{os.getpid()}_{uuid.uuid4().hex[:12]}")
        return cls(RingInfo(path, slots), field_specs, rows, create=True)

    def close(self, unlink: bool = False) -> None:
        self.views = []
        if self._mm is not None:
            try:
                self._mm.close()
            except BufferError:
                pass  # an array still views it: unmapped when that goes
            self._mm = None
        if unlink:
            if self._remove is not None:
                self._remove()
            else:
                _remove(self.info.path)


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def available() -> bool:
    """Whether this machine has the shared-memory directory."""
    return os.path.isdir(DIRECTORY) and os.access(DIRECTORY, os.W_OK)
