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
     see LOCAL_CLUSTER_OPTIONS; Ray's default is 100 KiB), Ray carries it
     across the network (gRPC may copy it once more on receipt), ray.get
     deserializes the arrays in place, and recv() assembles batch_size
     rows into new arrays (one copy, unless one batch is the whole result).
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

Faults: faults.py.
"""

from __future__ import annotations

import math
import os
import select
import threading
import time
from collections import deque
from typing import Any

import numpy as np

from envpool_lite import _core, _version
from envpool_lite.distributed import channel
from envpool_lite.distributed.faults import FaultHandling
from envpool_lite.distributed.link import Call, WorkerLink
from envpool_lite.distributed.protocol import ENV_ID_FIELD, Batch, ChannelInfo, EnvFailed, Free, Request, Restarted, RingBatch
from envpool_lite.distributed.ring import Ring
from envpool_lite.distributed.worker import EnvPoolWorker
from envpool_lite.spec import EnvSpec

# Requests each worker keeps in flight to hide the network's latency.
REQUESTS_PER_WORKER = 2
# recv() waits in slices this long, so that Ctrl-C and the hang check run.
_WAIT_SLICE_S = 0.1
# While it awaits both a channel and a Ray call, recv() looks at each in turn
# this often.
_MIXED_SLICE_S = 0.001
# A worker's start (a new process that imports envpool_lite and builds its
# envs, which for an env that starts an engine process takes seconds) may
# take this long, or worker_timeout if that is longer.
_START_TIMEOUT_S = 120.0
_CLOSE_WAIT_S = 5.0  # close() waits this long at most for Ray to see its workers dead
# The local cluster make() starts: a batch of up to 4 MiB travels inside the
# call's reply rather than through the object store (Ray's default limit is
# 100 KiB), which saves a store round trip per batch; and the workers run
# at the caller's priority (Ray's default niceness for its workers is 15,
# so a busy caller, a learner say, would take their CPU). A cluster started
# with `ray start` takes the same settings from its head node:
#   ray start --head --system-config='{"max_direct_call_object_size": 4194304, "worker_niceness": 0}'
LOCAL_CLUSTER_OPTIONS = {"include_dashboard": False, "_system_config": {"max_direct_call_object_size": 4 << 20, "worker_niceness": 0}}


def import_ray():
    """Ray, or an ImportError naming the extra that installs it."""
    try:
        import ray
    except ImportError as e:
        raise ImportError("num_workers > 0 spreads the pool over a Ray cluster and needs Ray: pip install 'envpool_lite[ray]'") from e
    return ray


class DistributedPool(FaultHandling):
    """``_core.EnvPool``'s interface over K Ray actors."""

    def __init__(self, spec: EnvSpec, options: _core.PoolOptions):
        ray = import_ray()
        self._ray = ray
        config = spec.config
        self._spec = spec
        self._num_envs = n = options.num_envs
        self._batch_size = options.batch_size
        self._timeout = float(config["worker_timeout"])
        self._start_timeout = max(self._timeout, _START_TIMEOUT_S)
        self._sync = self._batch_size == n
        self._lock = threading.Lock()
        self._closed = False
        self._last_look = time.monotonic()
        self._workers: list[WorkerLink] = []
        k = config["num_workers"]
        if not ray.is_initialized():
            # Joins the cluster RAY_ADDRESS names, else starts a local one.
            ray.init(**({} if os.environ.get("RAY_ADDRESS") else LOCAL_CLUSTER_OPTIONS), log_to_driver=True)
        self._node_id = ray.get_runtime_context().get_node_id()  # workers here get a channel (channel.py)
        # Actions are checked here, before anything is sent.
        self._converter = _core.ActionConverter(spec.task)
        seeds = options.seeds
        actor = ray.remote(EnvPoolWorker).options(
            num_cpus=1,
            max_restarts=-1,  # Ray restarts a worker that dies ...
            max_task_retries=0,  # ... and its calls fail, so the driver knows
            scheduling_strategy="SPREAD",  # one per node, where it can
        )
        _wait_for_cpus(ray, k)
        starts = [n * w // k for w in range(k + 1)]
        try:
            for index in range(k):
                start, stop = starts[index], starts[index + 1]
                local_batch = stop - start if self._sync else min(stop - start, self._batch_size)
                # The worker's share of the pool's options: its envs keep their
                # global ids, and its node's cores are shared with its siblings.
                local = options.replace(num_envs=stop - start, batch_size=local_batch, seeds=seeds[start:stop], first_env_id=start, shares_cores=True)
                handle = actor.remote(spec.task_id, dict(spec.config), local)
                self._workers.append(WorkerLink(index, handle, start, stop, local_batch))
            self._starts = np.array(starts[:-1])
            self._describe_workers()
            for w in self._workers:
                self._attach_channel(w)
        except BaseException:
            self.close()
            raise
        info = self._workers[0].info
        assert info is not None
        self.field_names = info.field_names
        self.field_specs = info.field_specs
        self._in_flight = np.zeros(n, bool)  # sent, not yet returned by recv()
        self._order = np.zeros(n, np.int64)  # sync mode: the order rows come back in
        self._buffer: deque[Batch] = deque()  # received batches not yet returned
        self._buffered = 0
        self._last_ids = np.arange(n, dtype=np.int32)

    def _describe_workers(self) -> None:
        """Wait for every worker to start; check that each runs this
        process's envpool_lite."""
        ray, k = self._ray, len(self._workers)
        refs = [w.handle.describe.remote() for w in self._workers]
        ready, pending = ray.wait(refs, num_returns=len(refs), timeout=None if math.isinf(self._start_timeout) else self._start_timeout)
        if pending:
            late = [str(w) for w, r in zip(self._workers, refs) if r in pending]
            raise RuntimeError(f"{len(pending)} of {k} Ray workers did not start within {self._start_timeout:g} s ({', '.join(late)})")
        for w, r in zip(self._workers, refs):
            try:
                w.info = ray.get(r)
            except ray.exceptions.RayActorError as e:
                # Its envs failed to build: say why (the traceback's last line).
                cause = [line for line in str(e).splitlines() if line.strip()][-1]
                raise RuntimeError(f"{w} could not start on the Ray cluster: {cause}") from None
            if w.info.version != _version.__version__:
                raise RuntimeError(
                    f"{w} runs envpool_lite {w.info.version} on node {w.info.node_ip}, and this process runs envpool_lite {_version.__version__}: "
                    "every node of the Ray cluster needs the same version (install it there and restart the node's `ray start`)"
                )

    def _attach_channel(self, w: WorkerLink) -> None:
        """A channel to a worker on this process's node (channel.py); Ray
        calls for one on another node, or if the channel cannot be made
        (/dev/shm full, say)."""
        w.use_channel(None)
        if w.info is None or w.info.node_id != self._node_id or not channel.available():
            return
        try:
            ring = Ring.create(w.info.field_specs, w.batch_size, channel.slots_for(w.stop - w.start, w.batch_size))
        except OSError:
            return
        try:
            listener, address = channel.listen()
            try:
                opened = w.handle.open_channel.remote(w.epoch, ChannelInfo(address, ring.info))
                pid = self._ray.get(opened, timeout=None if math.isinf(self._start_timeout) else self._start_timeout)
                conn = channel.accept(listener, pid, timeout=_CLOSE_WAIT_S)
            finally:
                listener.close()
        except Exception:
            ring.close(unlink=True)
            return  # Ray calls; a worker that died meanwhile fails on the first
        w.use_channel(channel.Channel(channel.Wire(conn), ring))

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
                self._ray.wait(probes, num_returns=len(probes), timeout=_CLOSE_WAIT_S)
            except Exception:
                pass

    # --- beyond _core.EnvPool ------------------------------------------
    def workers(self) -> list[dict]:
        """Where each worker runs and what it has done: pid, node_id, node_ip,
        env ids, steps (rows received), failures, busy_s (its calls' time),
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

    def _submit(self, ids: np.ndarray, actions: np.ndarray | None = None, seeds: np.ndarray | None = None, reset: bool = False) -> None:
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
            if reset:
                sent = dict(reset_ids=local, reset_seeds=None if seeds is None else seeds[mask].tolist())
            else:
                assert actions is not None
                sent = dict(actions=actions[mask], action_ids=local)
            if w.probe is not None:
                w.deferred.append(sent)  # sent once it has restarted
            else:
                self._call(w, w.request(**sent))
        self._in_flight[ids] = True

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

    def _recv(self, timeout: float | None):
        ray = self._ray
        in_flight = self.in_flight
        if in_flight == 0:
            raise RuntimeError("recv() with no env in flight: call send() or async_reset() first")
        target = min(self._batch_size, in_flight)
        deadline = None if timeout is None else time.monotonic() + timeout
        while self._buffered < target:
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
                ready_refs, _ = ray.wait(list(pending), num_returns=1, timeout=0.0 if channels else wait_s)
                if ready_refs:
                    progressed = True
                    w = pending[ready_refs[0]]
                    self._restarted(w) if w.probe is not None else self._harvest(w)
            if channels:
                ready = [w for w in channels if w.channel is not None and w.channel.wire.pending]
                if not ready:
                    fds = {w.channel.wire.fileno(): w for w in channels if w.channel is not None}
                    wait = 0.0 if progressed else min(wait_s, _MIXED_SLICE_S) if pending else wait_s
                    try:
                        ready = [fds[fd] for fd in select.select(list(fds), [], [], wait)[0]]
                    except (ValueError, OSError):
                        continue  # a channel closed under us: close() on another thread (checked above)
                for w in ready:
                    if w.channel is not None:
                        progressed |= self._read_channel(w)
            # Every time round, not only when nothing is ready: the other
            # workers' replies must not hide one that hangs.
            self._check_hangs()
            if progressed:
                continue
            if deadline is not None and time.monotonic() >= deadline:
                raise TimeoutError(f"recv() timed out after {timeout} s")
        return self._assemble(target)

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
            self._buffer.append(batch)
            self._buffered += message.rows

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


def _wait_for_cpus(ray, k: int) -> None:
    """A clear error now if the cluster has fewer than k free CPUs (a pool
    closed just now frees its CPUs within a moment)."""
    free = ray.available_resources().get("CPU", 0)
    for _ in range(20):
        if free >= k:
            return
        time.sleep(0.1)
        free = ray.available_resources().get("CPU", 0)
    raise RuntimeError(
        f"num_workers={k} needs {k} free CPUs in the Ray cluster (each worker reserves 1); it has {free:g} free "
        f"of {ray.cluster_resources().get('CPU', 0):g}: close other pools, use fewer workers, or add nodes (ray start --address=...)"
    )


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
