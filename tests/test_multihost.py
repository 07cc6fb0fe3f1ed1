"""make(..., num_workers=K) on a Ray cluster of three hosts joined by a real
network (scripts/netns_cluster.sh): the head on a bridge in this machine's
own network namespace (this process is the driver), and two worker hosts,
each a network namespace with its own address and one veth pair. The
workers' replies cross TCP over the veth pairs, and the faults are those of
a network: a host's processes killed, its link cut and restored, a host
that comes back, and a driver that stalls.

For each fault: recv() returns or raises EnvStepError within worker_timeout
plus MARGIN_S, never hangs; every env of the other host keeps the
trajectory it has in an in-process pool (the determinism test, re-run
around the fault); and after close() and the cluster's teardown no process
and no /dev/shm entry is left.

Every loop here is bounded in count and in time. Needs root and iproute2
(scripts/setup.sh installs it): `make test` runs as root."""

from __future__ import annotations

import os
import queue
import secrets
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import psutil
import pytest

# Ray reads its authentication settings once, when it is imported: this
# module's cluster's token is in the environment before that (make test runs
# this file in a pytest process of its own).
TOKEN = secrets.token_hex(32)
os.environ.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=TOKEN)
import ray  # noqa: E402  (the [ray] extra: scripts/setup.sh installs it)

import envpool_lite  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "netns_cluster.sh"
PREFIX = "eplt"  # this module's names and subnet, apart from a cluster a person started
SUBNET = "10.78.0"
HEAD_IP = f"{SUBNET}.1"
HOST_IP = {"w1": f"{SUBNET}.2", "w2": f"{SUBNET}.3"}
TIMEOUT_S = 2.0  # worker_timeout of the fault tests
MARGIN_S = 1.5  # recv() reports a fault within worker_timeout plus this
TASK, NUM_ENVS, BATCH = "CartPole-v1", 8, 4
STEPS = 60  # steps each env takes before and after a fault

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("ip") is None, reason="network namespaces need root and iproute2")


def cluster_cmd(*args: str, check: bool = True) -> str:
    env = dict(os.environ, NETNS_PREFIX=PREFIX, NETNS_SUBNET=SUBNET, NETNS_RAY_PORT="6391", NETNS_RAY_TOKEN=TOKEN, PY=sys.executable)
    out = subprocess.run(["bash", str(SCRIPT), *args], env=env, capture_output=True, text=True, timeout=120)
    if check and out.returncode != 0:
        raise RuntimeError(f"netns_cluster.sh {' '.join(args)} failed: {out.stderr[-2000:]}")
    return out.stdout.strip()


def shm_entries() -> set[str]:
    return set(os.listdir("/dev/shm"))


def cluster_pids() -> list[int]:
    """Every process of this module's cluster: its hosts' namespaces and the
    head's processes (its directory or its address on their command line:
    Ray's client server names only the address)."""
    pids = []
    for p in psutil.process_iter(["cmdline"]):
        if any(f"envpool_lite_netns_{PREFIX}" in a or a == f"--address={HEAD_IP}:6391" for a in p.info["cmdline"] or []):
            pids.append(p.pid)
    for host in HOST_IP:
        out = subprocess.run(["ip", "netns", "pids", PREFIX + host], capture_output=True, text=True)
        pids += [int(x) for x in out.stdout.split()]
    return pids


@pytest.fixture(scope="module")
def hosts():
    if ray.is_initialized():
        ray.shutdown()
    shm_before = shm_entries()
    address = cluster_cmd("up")
    os.environ["RAY_ADDRESS"] = address  # for the driver in its own process
    try:
        ray.init(address=address, _node_ip_address=HEAD_IP, log_to_driver=False)
        deadline = time.monotonic() + 60
        while sum(n["Alive"] for n in ray.nodes()) < 3:
            assert time.monotonic() < deadline, "the worker hosts did not join"
            time.sleep(0.2)
        yield
    finally:
        ray.shutdown()
        cluster_cmd("down")
        os.environ.pop("RAY_ADDRESS", None)
    assert cluster_pids() == []
    left = shm_entries() - shm_before
    assert not left, f"/dev/shm entries left behind: {sorted(left)}"


def veth_rx_bytes(host: str) -> int:
    """Bytes the bridge received from the host (its veth's far end sent them)."""
    return int(Path(f"/sys/class/net/{PREFIX}{host}-h/statistics/rx_bytes").read_text())


def wait_for_nodes(alive: int, within: float = 60.0) -> None:
    deadline = time.monotonic() + within
    while sum(n["Alive"] for n in ray.nodes()) != alive:
        assert time.monotonic() < deadline, f"the cluster did not reach {alive} live nodes within {within} s"
        time.sleep(0.2)


class Driver:
    """Steps an async pool with actions that depend only on (env, step), and
    records each env's trajectory: the same in any pool, whatever order the
    batches come in."""

    def __init__(self, env):
        self.env, self.t = env, np.zeros(NUM_ENVS, int)
        self.traj: dict[int, list] = {i: [] for i in range(NUM_ENVS)}
        self.failed: set[int] = set()
        self.errors: list[tuple[float, envpool_lite.EnvStepError]] = []
        env.async_reset()

    def actions(self, ids) -> np.ndarray:
        return ((ids * 7 + self.t[ids]) % 3 % 2).astype(np.int32)

    def batch(self) -> bool:
        """One recv() and its send(); False if recv() raised EnvStepError."""
        try:
            obs, rew, term, trunc, info = self.env.recv()
        except envpool_lite.EnvStepError as e:
            self.errors.append((time.monotonic(), e))
            self.failed.update(e.env_ids)
            ids = np.asarray(e.env_ids)
            self.env.send(self.actions(ids), ids)  # they await an action again
            return False
        ids = info["env_id"]
        for j, i in enumerate(ids.tolist()):
            self.traj[i].append((obs[j].tobytes(), float(rew[j]), bool(term[j]), bool(trunc[j])))
        self.t[ids] += 1
        self.env.send(self.actions(ids), ids)
        return True

    def until(self, done, within: float) -> None:
        deadline = time.monotonic() + within
        while not done():
            assert time.monotonic() < deadline, "no progress"
            self.batch()

    def survivors_steps(self, envs) -> int:
        return min(len(self.traj[i]) for i in envs)


def reference(steps: int) -> dict[int, list]:
    """Each env's trajectory in the in-process pool, same seed and actions."""
    env = envpool_lite.make(TASK, num_envs=NUM_ENVS, batch_size=BATCH, seed=3)
    d = Driver(env)
    d.until(lambda: min(len(v) for v in d.traj.values()) >= steps, within=60)
    env.close()
    return d.traj


def make_pool(**options):
    """A pool with one worker on each worker host (none on the head). Ray
    may place both on one host while a host that a fault touched is still
    settling back into the cluster: then the pool is closed and made again,
    for up to 30 s."""
    deadline = time.monotonic() + 30
    while True:
        env = envpool_lite.make(TASK, num_envs=NUM_ENVS, batch_size=BATCH, seed=3, num_workers=2, worker_timeout=TIMEOUT_S, **options)
        hosts = {w["node_ip"] for w in env.workers}
        if hosts == set(HOST_IP.values()) or time.monotonic() > deadline:
            break
        env.close()
        time.sleep(1.0)
    try:
        assert hosts == set(HOST_IP.values()), env.workers
        # The hosts share this machine's /dev/shm, but a worker on another
        # node than the driver's sends its batches over the network.
        assert all(w["transport"] == "ray" for w in env.workers), env.workers
    except AssertionError:
        env.close()
        raise
    return env


def host_of(env, worker: int) -> str:
    ip = env.workers[worker]["node_ip"]
    return next(h for h, a in HOST_IP.items() if a == ip)


def fault_reported_after(d: Driver, fault: str, host: str, victims: set[int]) -> float:
    """Every env takes STEPS steps, then `netns_cluster.sh fault host`: the
    seconds until recv() raised EnvStepError for (some of) the victims'
    envs, at most worker_timeout plus the margin."""
    d.until(lambda: d.survivors_steps(range(NUM_ENVS)) >= STEPS, within=60)
    t0 = time.monotonic()
    cluster_cmd(fault, host)
    d.until(lambda: bool(d.errors), within=TIMEOUT_S + MARGIN_S + 5)
    took = d.errors[0][0] - t0
    assert took <= TIMEOUT_S + MARGIN_S, took
    assert set(d.errors[0][1].env_ids) <= victims
    return took


def check_survivors(d: Driver, ref: dict, victims: set[int]) -> None:
    survivors = set(range(NUM_ENVS)) - victims
    assert not (d.failed & survivors), d.failed
    for i in survivors:
        n = min(len(d.traj[i]), len(ref[i]))
        assert n >= STEPS and d.traj[i][:n] == ref[i][:n], f"env {i} left its trajectory"


def test_workers_run_on_the_worker_hosts_and_batches_cross_tcp(hosts):
    """One worker per worker host; every env's trajectory is the in-process
    pool's; and what the driver received crossed each host's veth pair."""
    ref = reference(STEPS * 3)
    env = make_pool()
    try:
        rx = {h: veth_rx_bytes(h) for h in HOST_IP}
        d = Driver(env)
        d.until(lambda: d.survivors_steps(range(NUM_ENVS)) >= STEPS * 3, within=60)
        check_survivors(d, ref, set())
        for w in env.workers:
            h = host_of(env, w["worker"])
            sent = sum(len(d.traj[i]) for i in w["env_ids"]) * 4 * 4  # float32 observations of 4
            assert veth_rx_bytes(h) - rx[h] >= sent, (h, veth_rx_bytes(h) - rx[h], sent)
        pids = [w["pid"] for w in env.workers]
    finally:
        env.close()
    deadline = time.monotonic() + 15
    while any(psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE for p in pids):
        assert time.monotonic() < deadline, "a worker process outlived close()"
        time.sleep(0.1)


def test_a_host_whose_processes_are_killed_then_comes_back(hosts):
    """SIGKILL every process of one worker host (its raylet and the worker):
    recv() raises EnvStepError for that worker's envs within worker_timeout
    plus the margin; Ray restarts the worker on the other host; the other
    host's envs never leave their trajectories. Then the host comes back
    (Ray started on it again) and a new pool uses it."""
    ref = reference(STEPS * 3)
    env = make_pool()
    try:
        victim = 0
        h = host_of(env, victim)
        victims = set(env.workers[victim]["env_ids"])
        d = Driver(env)
        took = fault_reported_after(d, "kill", h, victims)
        survivors = set(range(NUM_ENVS)) - victims
        d.until(lambda: d.survivors_steps(survivors) >= STEPS * 2, within=30)  # the other host serves meanwhile
        # The restarted worker serves again, from the other host.
        before = {i: len(d.traj[i]) for i in victims}
        d.until(lambda: all(len(d.traj[i]) > before[i] + 5 for i in victims), within=120)
        assert env.workers[victim]["node_ip"] != HOST_IP[h] and env.workers[victim]["failures"] == 1
        check_survivors(d, ref, victims)
        print(f"host kill: reported after {took:.2f} s")
    finally:
        env.close()
    cluster_cmd("rejoin", h)
    wait_for_nodes(3)
    env = make_pool()  # both hosts again
    try:
        d = Driver(env)
        d.until(lambda: d.survivors_steps(range(NUM_ENVS)) >= STEPS, within=60)
    finally:
        env.close()


def test_a_host_cut_off_then_restored(hosts):
    """Take one worker host's link down for longer than worker_timeout:
    recv() keeps serving the other host's envs and raises EnvStepError for
    the cut host's envs within worker_timeout plus the margin. The link
    comes back before Ray's health check gives the node up: the worker is
    restarted and its envs start new episodes; the other host's envs never
    leave their trajectories."""
    ref = reference(STEPS * 4)
    env = make_pool()
    try:
        victim = 1
        h = host_of(env, victim)
        victims = set(env.workers[victim]["env_ids"])
        survivors = set(range(NUM_ENVS)) - victims
        d = Driver(env)
        try:
            took = fault_reported_after(d, "cut", h, victims)
            progress = d.survivors_steps(survivors)
            d.until(lambda: d.survivors_steps(survivors) >= progress + STEPS, within=30)  # the other host serves meanwhile
        finally:
            cluster_cmd("restore", h)
        before = {i: len(d.traj[i]) for i in victims}
        d.until(lambda: all(len(d.traj[i]) > before[i] + 5 for i in victims), within=120)
        check_survivors(d, ref, victims)
        print(f"link cut: reported after {took:.2f} s")
    finally:
        env.close()
    wait_for_nodes(3)


def test_checkpoint_every_a_host_killed_mid_episode_loses_nothing(hosts):
    """checkpoint_every=5: every process of one worker host killed mid-run.
    No error: the worker is restarted on the other host, its envs restored
    from their checkpoints and their steps since replayed, and every env,
    the lost host's included, keeps the in-process pool's trajectory."""
    ref = reference(STEPS * 2)
    env = make_pool(checkpoint_every=5)
    try:
        h = host_of(env, 0)
        victims = list(env.workers[0]["env_ids"])
        d = Driver(env)
        d.until(lambda: d.survivors_steps(range(NUM_ENVS)) >= STEPS, within=60)
        before = {i: len(d.traj[i]) for i in victims}
        t0 = time.monotonic()
        cluster_cmd("kill", h)
        d.until(lambda: all(len(d.traj[i]) > before[i] + 1 for i in victims), within=120)
        took = time.monotonic() - t0
        d.until(lambda: d.survivors_steps(range(NUM_ENVS)) >= STEPS * 2, within=120)
        assert not d.errors, d.errors
        assert env.workers[0]["recovered"] == 1 and env.workers[0]["node_ip"] != HOST_IP[h]
        check_survivors(d, ref, set())
        print(f"host kill with checkpoint_every=5: the lost envs stepped again after {took:.2f} s")
    finally:
        env.close()
    cluster_cmd("rejoin", h)
    wait_for_nodes(3)


def test_checkpoint_every_a_host_cut_off_loses_nothing(hosts):
    """checkpoint_every=5: one worker host's link cut for longer than
    worker_timeout, then restored. No error: the hung worker is killed and
    restarted, its envs restored and replayed, and every env keeps the
    in-process pool's trajectory."""
    ref = reference(STEPS * 3)
    env = make_pool(checkpoint_every=5)
    try:
        h = host_of(env, 1)
        victims = list(env.workers[1]["env_ids"])
        d = Driver(env)
        d.until(lambda: d.survivors_steps(range(NUM_ENVS)) >= STEPS, within=60)
        before = {i: len(d.traj[i]) for i in victims}
        try:
            cluster_cmd("cut", h)
            t0 = time.monotonic()
            d.until(lambda: time.monotonic() - t0 > TIMEOUT_S + MARGIN_S, within=30)
        finally:
            cluster_cmd("restore", h)
        d.until(lambda: all(len(d.traj[i]) > before[i] + 1 for i in victims), within=120)
        took = time.monotonic() - t0
        d.until(lambda: d.survivors_steps(range(NUM_ENVS)) >= STEPS * 3, within=120)
        assert not d.errors, d.errors
        assert env.workers[1]["recovered"] >= 1
        check_survivors(d, ref, set())
        print(f"link cut for {TIMEOUT_S + MARGIN_S:g} s with checkpoint_every=5: the lost envs stepped again after {took:.2f} s")
    finally:
        env.close()
    wait_for_nodes(3)


DRIVER = """
import os, sys, time, numpy as np, ray, envpool_lite
ray.init(address=os.environ["RAY_ADDRESS"], _node_ip_address="{head}", log_to_driver=False)
env = envpool_lite.make("{task}", num_envs={n}, batch_size={b}, seed=3, num_workers=2, worker_timeout={timeout})
env.async_reset()
steps = 0
while True:
    try:
        obs, rew, term, trunc, info = env.recv()
    except envpool_lite.EnvStepError as e:
        print("error", e, flush=True)
        break
    env.send(np.zeros(len(info["env_id"]), np.int32), info["env_id"])
    steps += 1
    if steps % 100 == 0:
        print("steps", steps, flush=True)
    if os.path.exists(sys.argv[1]):
        break
print("done", steps, flush=True)
env.close()
"""


class Lines:
    """A process's lines of output, each waited for at most `within` s."""

    def __init__(self, proc):
        self.queue: queue.Queue = queue.Queue()
        threading.Thread(target=lambda: [self.queue.put(line) for line in proc.stdout], daemon=True).start()

    def next(self, within: float) -> str:
        try:
            return self.queue.get(timeout=within)
        except queue.Empty:
            return ""


def test_a_driver_that_stalls_longer_than_worker_timeout_carries_on(hosts, tmp_path):
    """The head's client (a driver in its own process) is stopped (SIGSTOP)
    for three times worker_timeout, then continued: the workers answered
    meanwhile, so it carries on stepping, with no worker reported."""
    stop = tmp_path / "stop"
    code = textwrap.dedent(DRIVER.format(head=HEAD_IP, task=TASK, n=NUM_ENVS, b=BATCH, timeout=TIMEOUT_S))
    proc = subprocess.Popen([sys.executable, "-c", code, str(stop)], stdout=subprocess.PIPE, text=True)
    try:
        lines = Lines(proc)
        line = lines.next(within=60)  # the first 100 batches
        assert line.startswith("steps"), line
        proc.send_signal(signal.SIGSTOP)
        time.sleep(TIMEOUT_S * 3)
        proc.send_signal(signal.SIGCONT)
        after = [lines.next(within=30) for _ in range(3)]  # 300 more batches
        stop.touch()
        proc.wait(timeout=60)
        out = "".join(iter(lambda: lines.next(within=1), ""))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert all(x.startswith("steps") for x in after), after
    assert "error" not in out and "done" in out and proc.returncode == 0, out
