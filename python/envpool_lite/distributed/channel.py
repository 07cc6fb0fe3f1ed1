"""The same-node data plane: a channel between the driver and a worker that
runs on the driver's node, so that stepping makes no Ray call at all.

A Ray call costs the driver about 0.3 ms of CPU and 0.6 ms of wall time
even when it carries nothing, and a batch's bytes in Ray's reply another
1.5 ms of CPU for 1.35 MB (16 stacked frames of 84 x 84 x 3 x 4) here. A
pool that steps every few milliseconds pays that on every batch. So on its
own node a worker is served through two things the driver and the worker
share:

- a **wire**: a Unix stream socket (abstract name: no file), carrying small
  pickled messages. Driver to worker: `Request` (resets and actions to
  queue) and `Free` (a slot read). Worker to driver: `RingBatch` (a batch is
  in that slot) and `EnvFailed`. A worker whose process dies closes it, so
  the driver learns of the death at once;
- a **ring** (ring.py): a file in /dev/shm cut into slots of one batch each.

The worker runs a thread of its own (``EnvPoolWorker.open_channel``) that
queues whatever requests have come, then, while it has envs in flight and
a free slot, takes the next batch from its pool, writes it into a free slot
and names the slot on the wire. The driver copies the rows out of the slot
when it reads the message and hands the slot back with `Free`. Rows exist
only for envs the driver sent, so at most num_envs rows are ever on their
way (the back-pressure), and a worker with no free slot waits for one.

Ray still starts and places the workers, restarts one that dies and
carries ``describe()``, ``render()`` and the channel's opening; workers on
other nodes answer Ray calls (pool.py).
"""

from __future__ import annotations

import os
import pickle
import select
import socket
import struct
import time
import uuid
from collections import deque
from typing import Any

from envpool_lite.distributed import ring
from envpool_lite.distributed.ring import Ring

_LENGTH = struct.Struct("<I")  # each message: its length, then its pickle
_SOCKET_BUFFER = 1 << 20
MAX_SLOTS = 8


def slots_for(num_envs: int, batch_size: int) -> int:
    """Slots in a worker's ring: enough for every batch its envs can fill
    (num_envs // batch_size of them unread at once), and one more so that the
    worker can write the next while the driver reads one; 8 at most."""
    return max(2, min(MAX_SLOTS, num_envs // max(1, batch_size) + 1))


class Wire:
    """Whole messages (pickles) over a connected stream socket. Reads never
    block: ``next()`` returns a message or None; ``wait()`` blocks until one
    may be there."""

    def __init__(self, sock: socket.socket):
        for option in (socket.SO_SNDBUF, socket.SO_RCVBUF):
            try:
                sock.setsockopt(socket.SOL_SOCKET, option, _SOCKET_BUFFER)
            except OSError:
                pass
        sock.setblocking(False)
        self.sock = sock
        self._inbox = bytearray()
        self._messages: deque = deque()
        self.eof = False

    def fileno(self) -> int:
        return self.sock.fileno()

    @property
    def pending(self) -> bool:
        """Whether whole messages were read and not yet taken."""
        return bool(self._messages)

    def send(self, message: Any, timeout: float | None = None) -> None:
        """Send one message; TimeoutError if the peer takes none of it for
        `timeout` seconds, OSError (BrokenPipeError, ...) if it is gone."""
        data = pickle.dumps(message, protocol=5)
        view = memoryview(_LENGTH.pack(len(data)) + data)
        deadline = None if timeout is None else time.monotonic() + timeout
        while view:
            try:
                view = view[self.sock.send(view) :]
            except BlockingIOError:
                remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
                if not select.select([], [self.sock], [], remaining)[1]:
                    raise TimeoutError("the channel's peer took no data") from None

    def next(self) -> Any:
        """The next whole message, None if none has arrived; EOFError once
        the peer has closed and every message it sent has been read."""
        if not self._messages:
            self._read()
        if self._messages:
            return self._messages.popleft()
        if self.eof:
            raise EOFError("the channel was closed by its peer")
        return None

    def wait(self, timeout: float | None) -> bool:
        """Whether a message (or the peer's close) may be read, waiting up to
        `timeout` seconds for one."""
        if self._messages or self.eof:
            return True
        return bool(select.select([self.sock], [], [], timeout)[0])

    def close(self) -> None:
        """Shut down, then close: the shutdown wakes a thread of this process
        that waits on the socket, and the peer reads the end."""
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()

    def _read(self) -> None:
        while not self.eof:
            try:
                chunk = self.sock.recv(1 << 20)
            except BlockingIOError:
                break
            except OSError:  # reset by a peer that died
                chunk = b""
            if not chunk:
                self.eof = True
                break
            self._inbox += chunk
        start = 0
        while len(self._inbox) - start >= _LENGTH.size:
            (n,) = _LENGTH.unpack_from(self._inbox, start)
            if len(self._inbox) - start - _LENGTH.size < n:
                break
            begin = start + _LENGTH.size
            self._messages.append(pickle.loads(self._inbox[begin : begin + n]))
            start = begin + n
        del self._inbox[:start]


class Channel:
    """The driver's end: the wire and the ring (which the driver owns)."""

    def __init__(self, wire: Wire, ring: Ring):
        self.wire, self.ring = wire, ring
        self.broken = ""  # why the driver gave up sending on it (the hang check fails the worker)

    def close(self) -> None:
        """Closing the wire ends the worker's thread; the ring file goes."""
        self.wire.close()
        self.ring.close(unlink=True)


def listen() -> tuple[socket.socket, str]:
    """A listening socket with a fresh abstract name (Linux: no file)."""
    name = f"\0envpool_lite_channel_{os.getpid()}_{uuid.uuid4().hex[:12]}"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(name)
    listener.listen(1)
    return listener, name


def accept(listener: socket.socket, pid: int, timeout: float) -> socket.socket:
    """The worker's connection, checked to come from its process `pid`."""
    listener.settimeout(timeout)
    conn, _ = listener.accept()
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    peer_pid = struct.unpack("3i", creds)[0]
    if peer_pid != pid:
        conn.close()
        raise ConnectionError(f"the channel was opened by pid {peer_pid}, not the worker's pid {pid}")
    return conn


def connect(name: str) -> socket.socket:
    """The worker's side: connect to the driver's listening socket."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(name)
    except OSError:
        sock.close()
        raise
    return sock


def available() -> bool:
    """Whether this machine can make channels (Linux's abstract sockets and
    the shared-memory directory)."""
    return hasattr(socket, "AF_UNIX") and hasattr(socket, "SO_PEERCRED") and ring.available()
