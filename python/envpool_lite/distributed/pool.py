"""DistributedPool: ``_core.EnvPool``'s interface over K worker actors
(worker.py), so the gymnasium, gym and dm_env faces work on it unchanged.

How a batch travels (and every copy an observation makes):
  1. the env writes it into its worker's state buffer (as in-process: no copy);
  2. a worker on the driver's node (channel.py) copies the batch into a slot
     of the ring it shares with the driver, and names the slot on the
     channel's socket; the driver copies the rows out when it reads that
     (two copies in all, no Ray call while stepping);
  3. a worker on another node answers a Ray call: its reply serializes the
     batch (one copy, into the reply itself when it is smaller than Ray's
     max_direct_call_object_size: 4 MiB on the local cluster make() starts,
     see startup.py's LOCAL_CLUSTER_OPTIONS; Ray's default is 100 KiB), Ray
     carries it across the network (gRPC may copy it once more on receipt),
     ray.get deserializes the arrays in place, and recv() assembles
     batch_size rows into new arrays (one copy, unless one batch is the
     whole result).
Each worker returns whole batches (its own batch_size rows). A worker on
another node keeps up to REQUESTS_PER_WORKER requests in flight so the
network latency overlaps the stepping; a request only asks for results of
envs already sent, so at most num_envs rows are ever on their way (the
back-pressure). A channel's worker steps whatever it has been sent, into
the ring's free slots, which the same bound holds to.

Ordering: a worker is a sequential Ray actor, so its calls run in the order
they were submitted; the driver therefore knows how many rows each call
returns (the worker's recv() takes min(worker batch, envs in flight)). A
channel's messages arrive in the order they were sent.

The pool is made of parts, each a class of its own that DistributedPool
inherits (as faults.py's); read them in this order:
  startup.py    the cluster joined, the workers placed and checked, a
                channel attached to each one on this node;
  sending.py    send()'s env ids checked and split per worker, and the
                requests that carry them;
  receiving.py  recv(): the batches collected, and assembled in async or
                sync order;
  faults.py     what the driver does when a worker dies, hangs or is cut off.
This module holds the pool's state, made in DistributedPool's constructor,
and ``_core.EnvPool``'s interface (send, recv, render, close, ...), one
caller at a time.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from typing import Any

import numpy as np

from envpool_lite import _core
from envpool_lite.distributed.faults import FaultHandling
from envpool_lite.distributed.link import WorkerLink
from envpool_lite.distributed.protocol import Batch, Command
from envpool_lite.distributed.receiving import Receiving
from envpool_lite.distributed.sending import Sending
from envpool_lite.distributed.startup import CLOSE_WAIT_S, START_TIMEOUT_S, WorkerStartup, import_ray, join_cluster
from envpool_lite.spec import EnvSpec


class DistributedPool(WorkerStartup, Sending, Receiving, FaultHandling):
    """``_core.EnvPool``'s interface over K Ray actors."""

    def __init__(self, spec: EnvSpec, options: _core.PoolOptions):
        ray = import_ray()
        self._ray = ray
        config = spec.config
        self._num_envs = n = options.num_envs
        self._batch_size = options.batch_size
        self._timeout = float(config["worker_timeout"])
        self._start_timeout = max(self._timeout, START_TIMEOUT_S)
        self._sync = self._batch_size == n
        self._lock = threading.Lock()
        self._closed = False
        self._last_look = time.monotonic()
        self._workers: list[WorkerLink] = []
        k = config["num_workers"]
        join_cluster(ray)
        self._node_id = ray.get_runtime_context().get_node_id()  # workers here get a channel (channel.py)
        # Actions are checked here, before anything is sent.
        self._converter = _core.ActionConverter(spec.task)
        self._start_workers(spec, options, k)
        info = self._workers[0].info
        assert info is not None
        self.field_names = info.field_names
        self.field_specs = info.field_specs
        self._in_flight = np.zeros(n, bool)  # sent, not yet returned by recv()
        self._order = np.zeros(n, np.int64)  # sync mode: the order rows come back in
        self._buffer: deque[Batch] = deque()  # received batches not yet returned
        self._buffered = 0
        self._last_ids = np.arange(n, dtype=np.int32)
        # checkpoint_every=N: each env's commands since its last checkpoint,
        # that checkpoint's state first (faults.py replays them on a
        # restarted worker); None when off.
        self._task, self._options = spec.task, options
        self._logs: list[list[Command]] | None = [[] for _ in range(n)] if config["checkpoint_every"] > 0 else None

    # --- _core.EnvPool's interface -------------------------------------
    @property
    def num_envs(self) -> int:
        return self._num_envs

    @property
    def batch_size(self) -> int:
        return self._batch_size

    @property
    def num_threads(self) -> int:
        return sum(w.info.num_threads for w in self._workers if w.info is not None)

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def in_flight(self) -> int:
        return int(self._in_flight.sum())

    def send(self, action: Any, env_id: Any = None) -> None:
        with self._entry("send"):
            ids = self._ids(env_id)
            actions = self._converter.convert(action, len(ids))
            self._submit(ids, actions=actions)

    def send_reset(self, env_id: Any = None, seeds: Any = None) -> None:
        with self._entry("reset"):
            ids = np.arange(self._num_envs, dtype=np.int64) if env_id is None else self._ids(env_id)
            if seeds is not None:
                seeds = np.asarray(seeds, np.uint64)
                if len(seeds) != len(ids):
                    raise ValueError("need one seed per env id")
            self._submit(ids, seeds=seeds, reset=True)

    def recv(self, timeout: Any = None):
        with self._entry("recv"):
            timeout = _timeout_s(timeout)
            try:
                return self._recv(timeout)
            except _core.EnvStepError as err:
                self._sync_drop(err)
                raise

    def step(self, action: Any, env_id: Any = None, timeout: Any = None):
        self.send(action, env_id)
        return self.recv(timeout)

    def render(self, env_id: Any) -> np.ndarray:
        return self._per_worker("render", env_id)

    def render_state(self, env_id: Any) -> np.ndarray:
        return self._per_worker("render_state", env_id)

    def get_state(self, env_id: Any) -> list[bytes]:
        """Each env's state, asked of the worker that holds it."""
        with self._entry("get_state"):
            ids = self._ids(env_id)
            states: list[bytes] = [b""] * len(ids)
            owner = self._owner(ids)
            refs = []
            for w in self._workers:
                mask = owner == w.index
                if mask.any():
                    if w.probe is not None or w.dead:
                        raise RuntimeError(f"cannot get the state of env {ids[mask][0]}: {w} is being restarted; ask again after recv()")
                    refs.append((np.flatnonzero(mask), w.handle.get_state.remote((ids[mask] - w.start).astype(np.int32))))
            for where, ref in refs:
                for i, s in zip(where, _unwrap(self._ray, ref)):
                    states[i] = s
            return states

    def set_state(self, env_id: Any, states: Any) -> None:
        """The envs put back (checked here first: a bad state is a
        ValueError and nothing is sent); their rows come with recv()."""
        with self._entry("set_state"):
            ids = self._ids(env_id)
            _core.check_states(self._task, self._options, ids.astype(np.int32).tolist(), states)
            self._submit(ids, states=list(states))

    def close(self) -> None:
        """Stops every worker actor (idempotent; any thread)."""
        self._closed = True
        workers, self._workers = self._workers, []
        probes = []
        for w in workers:
            w.drop_channel()
            try:
                self._ray.kill(w.handle, no_restart=True)
                probes.append(w.handle.describe.remote())
            except Exception:
                pass  # Ray itself is shut down: its actors went with it
        if probes:
            # A call to a killed actor fails once Ray has it dead: wait for
            # that (briefly), so that its CPU is free when close() returns.
            try:
                self._ray.wait(probes, num_returns=len(probes), timeout=CLOSE_WAIT_S)
            except Exception:
                pass

    # --- beyond _core.EnvPool ------------------------------------------
    def workers(self) -> list[dict]:
        """Where each worker runs and what it has done: pid, node_id, node_ip,
        env ids, steps (rows received), failures, recovered (failures whose
        envs were put back: checkpoint_every), busy_s (its calls' time),
        and how its batches travel ("shared memory": a channel on this
        node, else "ray")."""
        return [
            {
                "worker": w.index,
                "pid": w.info.pid if w.info else None,
                "node_id": w.info.node_id if w.info else None,
                "node_ip": w.info.node_ip if w.info else None,
                "env_ids": range(w.start, w.stop),
                "batch_size": w.batch_size,
                "steps": w.steps,
                "failures": w.failures,
                "recovered": w.recovered,
                "busy_s": w.busy_s,
                "transport": "shared memory" if w.channel is not None else "ray",
            }
            for w in self._workers
        ]

    # --- the driver's bookkeeping --------------------------------------
    def _entry(self, what: str):
        if self._closed:
            raise RuntimeError("the env pool is closed")
        return _Entry(self._lock, what)

    def _per_worker(self, method: str, env_id: Any) -> np.ndarray:
        """render / render_state: each worker draws its own envs."""
        with self._entry(method):
            ids = self._in_range(env_id)
            busy = ids[self._in_flight[ids]]
            if busy.size:
                raise RuntimeError(f"cannot render env {busy[0]}: it is being stepped (sent and not yet received); render it after recv() returns it")
            owner = self._owner(ids)
            out = None
            for w in self._workers:
                mask = owner == w.index
                if mask.any():
                    part = self._ray.get(getattr(w.handle, method).remote((ids[mask] - w.start).astype(np.int32)))
                    if out is None:
                        out = np.empty((len(ids), *part.shape[1:]), part.dtype)
                    out[mask] = part
            assert out is not None  # ids is not empty
            return out


def _unwrap(ray, ref):
    """ray.get, with an error the worker raised re-raised as itself (a
    ValueError stays a ValueError)."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as e:
        cause = e.as_instanceof_cause()
        raise (cause.cause if getattr(cause, "cause", None) is not None else cause) from None


class _Entry:
    """One caller at a time, as the in-process pool's EntryGate."""

    def __init__(self, lock: threading.Lock, what: str):
        self._lock, self._what = lock, what

    def __enter__(self):
        if not self._lock.acquire(blocking=False):
            raise RuntimeError(f"{self._what}() while another call is inside the pool (another thread, or a signal handler): one caller at a time")
        return self

    def __exit__(self, *exc):
        self._lock.release()


def _timeout_s(timeout: Any) -> float | None:
    """recv(timeout=) as the in-process pool reads it."""
    if timeout is None:
        return None
    if isinstance(timeout, (bool, np.bool_)) or not isinstance(timeout, (int, float, np.integer, np.floating)):
        raise TypeError(f"timeout must be a number of seconds or None, got {type(timeout).__name__}")
    t = float(timeout)
    if not t >= 0:
        raise ValueError(f"timeout must be >= 0 seconds or None, got {timeout}")
    return None if math.isinf(t) else t
