"""make(..., num_workers=K): the pool spread over a real multi-node Ray
cluster, started once for this module on this machine (three nodes, each a
raylet of its own). The protocol, determinism across worker counts, faults
(a killed worker, a hung worker, an env that raises, Ctrl-C), cleanup, bad
input, the three faces and a short APPO run."""

from __future__ import annotations

import gc
import os
import re
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
import ray  # the [ray] extra: scripts/setup.sh installs it
from libcompat import NO_TORCH
from ray.cluster_utils import Cluster

import envpool_lite
from envpool_lite import distributed

NODES = 3
CPUS_PER_NODE = 2  # Ray's logical CPUs: each worker reserves one


@pytest.fixture(scope="module")
def cluster():
    c = Cluster(
        initialize_head=True,
        head_node_args={
            "num_cpus": CPUS_PER_NODE,
            "include_dashboard": False,
            "object_store_memory": 80 << 20,
            "_system_config": distributed.LOCAL_CLUSTER_OPTIONS["_system_config"],
        },
    )
    for _ in range(NODES - 1):
        c.add_node(num_cpus=CPUS_PER_NODE, object_store_memory=80 << 20)
    c.wait_for_nodes()
    ray.init(address=c.address, log_to_driver=False)
    yield c
    ray.shutdown()
    c.shutdown()


def gone(pids, within=15.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        alive = [p for p in pids if psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE]
        if not alive:
            return True
        time.sleep(0.1)
    return False


def rollout_sync(num_workers, steps=250, task="CartPole-v1", seed=7, num_envs=6):
    """Every field of every step, sync mode, fixed random actions."""
    env = envpool_lite.make(task, num_envs=num_envs, seed=seed, num_workers=num_workers)
    rng = np.random.default_rng(0)
    try:
        out = [env.reset()]
        for _ in range(steps):
            out.append(env.step(rng.integers(0, 2, num_envs)))
        out.append(env.reset(seed=1234))  # env i: seed 1234 + i
        for _ in range(20):
            out.append(env.step(rng.integers(0, 2, num_envs)))
    finally:
        env.close()
    return out


def test_sync_trajectories_do_not_depend_on_num_workers(cluster):
    """Env i is seeded seed + i wherever it runs: the same actions give the
    same trajectories (every field, bit for bit) with 0, 1 or 3 workers."""
    ref = rollout_sync(0)
    for k in (1, 3):
        got = rollout_sync(k)
        for t, (a, b) in enumerate(zip(ref, got)):
            for x, y in zip(a[:-1], b[:-1]):
                np.testing.assert_array_equal(x, y, err_msg=f"num_workers={k}, step {t}")
            assert a[-1].keys() == b[-1].keys()
            for key in ("env_id", "elapsed_step"):
                np.testing.assert_array_equal(a[-1][key], b[-1][key])
    assert sum(r[2].sum() for r in ref if len(r) == 5) > 0  # episodes ended (and reset) on the way


@pytest.mark.parametrize(("task", "num_envs"), [("FetchPush-v4", 4), ("Meta-World/MT10", 10)])
def test_workers_resolve_their_own_options_and_keep_env_ids(cluster, task, num_envs):
    """A MuJoCo family's internal options hold addresses in the process that
    filled them (numpy's loops): each worker fills its own. And an env that
    takes its place in the pool (Meta-World's benchmarks pick their task by
    it) gets its index in the whole pool on whichever worker it runs."""
    if task not in envpool_lite.list_all_envs():
        pytest.skip(f"{task} is not built in")
    pools = [envpool_lite.make(task, env_type="gymnasium", num_envs=num_envs, seed=3, num_workers=k) for k in (0, 2)]
    try:
        outs = [[p.reset()[0]] for p in pools]
        rng = np.random.default_rng(0)
        for _ in range(8):
            action = rng.uniform(-1, 1, (num_envs, *pools[0].single_action_space.shape)).astype(np.float32)
            for p, out in zip(pools, outs):
                out.append(p.step(action)[:2])
    finally:
        for p in pools:
            p.close()
    for t, (a, b) in enumerate(zip(*outs)):
        for x, y in zip(a if isinstance(a, tuple) else (a,), b if isinstance(b, tuple) else (b,)):
            x = x if not isinstance(x, dict) else x["observation"]
            y = y if not isinstance(y, dict) else y["observation"]
            np.testing.assert_array_equal(x, y, err_msg=f"{task} step {t}")


def per_env_trajectories(num_workers, num_envs=8, batch_size=3, recvs=120):
    """Async mode: an env's action depends only on its own (env_id,
    elapsed_step), so its trajectory cannot depend on arrival order."""
    env = envpool_lite.make("Dummy-v0", num_envs=num_envs, batch_size=batch_size, num_workers=num_workers, seed=11, step_sleep_us=300)
    traj = {i: [] for i in range(num_envs)}
    try:
        env.async_reset()
        for _ in range(recvs):
            obs, rew, term, trunc, info = env.recv()
            ids = info["env_id"]
            for j, i in enumerate(ids):
                traj[int(i)].append((obs[j].tolist(), float(rew[j]), bool(term[j]), bool(trunc[j]), int(info["elapsed_step"][j]), int(info["lives"][j])))
            env.send((ids * 7 + info["elapsed_step"]) % 5, ids)
    finally:
        env.close()
    return traj


def test_async_per_env_trajectories_do_not_depend_on_num_workers(cluster):
    ref = per_env_trajectories(0)
    got = per_env_trajectories(3)
    for i in ref:
        n = min(len(ref[i]), len(got[i]))
        assert n >= 20
        assert ref[i][:n] == got[i][:n], f"env {i}"


def test_async_protocol_every_env_back_once_per_send(cluster):
    """12 envs over 3 workers (on different nodes), batches of 4: every
    recv() returns 4 distinct envs that were sent, each exactly once per send,
    with global env ids."""
    env = envpool_lite.make("Dummy-v0", num_envs=12, batch_size=4, num_workers=3, step_sleep_us=500)
    try:
        workers = env.workers
        assert [list(w["env_ids"]) for w in workers] == [list(range(0, 4)), list(range(4, 8)), list(range(8, 12))]
        assert len({w["node_id"] for w in workers}) >= 2  # spread over nodes
        assert len({w["pid"] for w in workers}) == 3
        env.async_reset()
        outstanding = set(range(12))
        returned = np.zeros(12, int)
        for _ in range(150):
            obs, rew, term, trunc, info = env.recv()
            ids = info["env_id"].tolist()
            assert len(ids) == 4 and len(set(ids)) == 4
            assert set(ids) <= outstanding
            outstanding -= set(ids)
            returned[ids] += 1
            # obs[:, 0] is the env's seed: the row is really that env's
            np.testing.assert_array_equal(obs[:, 0], 42 + np.array(ids))
            env.send(np.ones(4, np.int32), ids)
            outstanding |= set(ids)
        assert (returned > 20).all()  # every worker served
        while env._pool.in_flight:
            env.recv()
        assert sum(w["steps"] for w in env.workers) == 12 + 150 * 4
    finally:
        env.close()


def test_sync_mode_order_and_partial_sends(cluster):
    env = envpool_lite.make("Dummy-v0", num_envs=6, num_workers=2, step_sleep_us=200)
    try:
        obs, info = env.reset()
        np.testing.assert_array_equal(info["env_id"], np.arange(6))
        # a send of every env comes back in env id order, whatever the order given
        order = np.array([5, 0, 3, 1, 4, 2])
        obs, rew, term, trunc, info = env.step(order % 3, order)
        np.testing.assert_array_equal(info["env_id"], np.arange(6))
        np.testing.assert_array_equal(obs[:, 3], np.arange(6) % 3)  # env i got action i % 3
        # a send of some comes back in the order sent
        obs, rew, term, trunc, info = env.step(np.zeros(3, np.int32), np.array([4, 1, 3]))
        np.testing.assert_array_equal(info["env_id"], [4, 1, 3])
    finally:
        env.close()


def test_gym_and_dm_faces(cluster):
    env = envpool_lite.make("CartPole-v1", env_type="gym", num_envs=4, num_workers=2)
    ref = envpool_lite.make("CartPole-v1", env_type="gym", num_envs=4)
    try:
        np.testing.assert_array_equal(env.reset(), ref.reset())
        a, b = env.step(np.ones(4, np.int32)), ref.step(np.ones(4, np.int32))
        for x, y in zip(a[:3], b[:3]):
            np.testing.assert_array_equal(x, y)
        assert a[3].keys() == b[3].keys()
    finally:
        env.close()
        ref.close()
    env = envpool_lite.make("CartPole-v1", env_type="dm", num_envs=4, batch_size=2, num_workers=2)
    try:
        ts = env.reset()
        assert ts.observation.obs.shape == (2, 4) and (ts.step_type == 0).all()
        ts = env.step(np.zeros(2, np.int32), ts.observation.env_id)
        assert ts.reward.dtype == np.float32 and len(ts.observation.env_id) == 2
    finally:
        env.close()


def test_bad_input_raises_before_sending_and_leaves_the_pool_usable(cluster):
    env = envpool_lite.make("CartPole-v1", num_envs=4, batch_size=2, num_workers=2)
    try:
        env.async_reset()
        obs, rew, term, trunc, info = env.recv()
        ids = info["env_id"]
        bad = [
            (ValueError, "shape", lambda: env.send(np.zeros(3, np.int32), ids)),
            (ValueError, "out of range", lambda: env.send(np.array([0, 2]), ids)),
            (TypeError, "dtype", lambda: env.send(np.array(["a", "b"]), ids)),
            (ValueError, "out of range", lambda: env.send(np.zeros(2, np.int32), [0, 9])),
            (ValueError, "appears twice", lambda: env.send(np.zeros(2, np.int32), [ids[0], ids[0]])),
            (ValueError, "not awaiting", lambda: env.send(np.zeros(2, np.int32), sorted(set(range(4)) - set(ids.tolist())))),
            (TypeError, "integers", lambda: env.send(np.zeros(2, np.int32), [0.5, 1.5])),
            (TypeError, "timeout", lambda: env.recv(timeout="1")),
            (ValueError, "timeout", lambda: env.recv(timeout=float("nan"))),
        ]
        for exc, match, call in bad:
            with pytest.raises(exc, match=match):
                call()
            assert env._pool.in_flight == 2, match  # nothing was sent
        env.send(np.zeros(2, np.int32), ids)
        for _ in range(2):
            env.recv()
        with pytest.raises(RuntimeError, match="no env in flight"):
            env.recv()
    finally:
        env.close()
    env = envpool_lite.make("Pendulum-v1", num_envs=2, num_workers=1)
    try:
        env.reset()
        with pytest.raises(ValueError, match="finite"):
            env.step(np.array([[np.nan], [0.0]], np.float32))
        env.step(np.zeros((2, 1), np.float32))
    finally:
        env.close()
    with pytest.raises(RuntimeError, match="worker 1 .* could not start.*seeded 44 failed to start"):
        envpool_lite.make("Dummy-v0", num_envs=4, num_workers=2, fail_on_build_seed=44)
    with pytest.raises(ValueError, match="num_workers"):
        envpool_lite.make("CartPole-v1", num_envs=2, num_workers=3)
    for bad_timeout in (0, -1.0, float("nan")):
        with pytest.raises(ValueError, match="worker_timeout"):
            envpool_lite.make("CartPole-v1", num_envs=2, num_workers=1, worker_timeout=bad_timeout)
    with pytest.raises(RuntimeError, match="free CPUs"):
        envpool_lite.make("CartPole-v1", num_envs=64, num_workers=NODES * CPUS_PER_NODE + 1)
    with pytest.raises(RuntimeError, match="closed"):
        env.step(np.zeros(2, np.int32))


def test_a_worker_of_another_version_is_refused_naming_both(cluster, monkeypatch):
    """The workers run the envpool_lite installed on their nodes; one that is
    not this process's version: a clear error at make(), naming both, and
    no worker left running."""
    real = envpool_lite.__version__
    monkeypatch.setattr(envpool_lite._version, "__version__", "0.0.1.dev0")  # the driver's
    before = ray.available_resources().get("CPU", 0)
    with pytest.raises(RuntimeError, match=rf"worker 0 .* runs envpool_lite {re.escape(real)} on node [0-9.]+, and this process runs envpool_lite 0\.0\.1\.dev0"):
        envpool_lite.make("CartPole-v1", num_envs=4, num_workers=2)
    deadline = time.monotonic() + 10
    while ray.available_resources().get("CPU", 0) < before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert ray.available_resources().get("CPU", 0) == before  # both workers were stopped


def ring_files() -> set[str]:
    return {f for f in os.listdir("/dev/shm") if f.startswith("envpool_lite_ring_")}


def test_a_worker_on_the_drivers_node_sends_its_batches_through_shared_memory(cluster):
    """The worker on this process's node writes its batches into a ring in
    /dev/shm (the reply only names the slot); the workers of the other nodes
    answer through Ray. The trajectories are the in-process pool's; a worker
    that dies gets a new ring once restarted; close() removes them all."""
    before = ring_files()
    head = cluster.head_node.node_id
    env = envpool_lite.make("CartPole-v1", num_envs=6, batch_size=2, seed=5, num_workers=3)
    ref = envpool_lite.make("CartPole-v1", num_envs=6, batch_size=2, seed=5)
    try:
        transports = {w["node_id"] == head: w["transport"] for w in env.workers}
        assert transports == {True: "shared memory", False: "ray"}, env.workers
        local = next(w for w in env.workers if w["node_id"] == head)
        assert len(ring_files() - before) == 1

        def per_env(pool, batches):
            """Until every env has 60 rows (the local worker answers many
            times faster than the Ray workers), `batches` at most."""
            traj = {i: [] for i in range(6)}
            t = np.zeros(6, int)
            pool.async_reset()
            for _ in range(batches):
                if t.min() >= 60:
                    break
                obs, rew, term, trunc, info = pool.recv()
                ids = info["env_id"]
                for j, i in enumerate(ids.tolist()):
                    traj[i].append((obs[j].tobytes(), rew[j], term[j], trunc[j], info["elapsed_step"][j]))
                t[ids] += 1
                pool.send(((ids + t[ids]) % 2).astype(np.int32), ids)
            return traj  # every env in flight

        got, want = per_env(env, 20_000), per_env(ref, 20_000)
        for i in range(6):
            n = min(len(got[i]), len(want[i]))
            assert n > 50 and got[i][:n] == want[i][:n], i
        first = ring_files() - before
        os.kill(local["pid"], signal.SIGKILL)
        deadline = time.monotonic() + 60
        restarted = False
        while not restarted:
            assert time.monotonic() < deadline, f"the worker was not restarted: {env.workers}"
            try:
                obs, rew, term, trunc, info = env.recv()
                env.send(np.zeros(len(info["env_id"]), np.int32), info["env_id"])
            except envpool_lite.EnvStepError as e:
                env.send(np.zeros(len(e.env_ids), np.int32), e.env_ids)
            w = env.workers[local["worker"]]
            restarted = w["failures"] == 1 and w["pid"] != local["pid"] and w["steps"] > local["steps"] + 10
        now = ring_files() - before
        assert len(now) == (1 if env.workers[local["worker"]]["node_id"] == head else 0) and not (now & first)
    finally:
        env.close()
        ref.close()
    assert ring_files() == before


def test_faults_of_the_worker_on_the_drivers_node(cluster):
    """The worker served through a channel: its process stopped (SIGSTOP)
    is reported within worker_timeout and killed, and Ray's new process
    serves its envs, which start new episodes (through a new channel if it
    is on this node again); killed while idle, its channel's end reports it
    on the next step, at once. The other workers never fail, and close()
    leaves no ring behind."""
    before = ring_files()
    head = cluster.head_node.node_id

    def fault_then_new_episodes(env, inject, match, within):
        local = next(w for w in env.workers if w["node_id"] == head)
        assert local["transport"] == "shared memory"
        mine = set(local["env_ids"])

        def step():
            obs, rew, term, trunc, info = env.step(np.zeros(6, np.int32))
            return dict(zip(info["env_id"].tolist(), info["elapsed_step"].tolist()))

        env.reset()
        for _ in range(3):
            step()
        t0 = time.monotonic()
        inject(local["pid"])
        with pytest.raises(envpool_lite.EnvStepError, match=match.format(local["worker"])) as exc:
            step()
        took = time.monotonic() - t0
        assert took < within, took
        assert mine <= set(exc.value.env_ids) and set(exc.value.env_ids) <= set(range(6))
        elapsed = step()  # waits for Ray's new process
        assert all(elapsed[i] == 0 for i in mine) and all(elapsed[i] > 0 for i in set(range(6)) - mine), elapsed
        w = env.workers[local["worker"]]
        assert w["pid"] != local["pid"] and w["failures"] == 1 and gone([local["pid"]])
        assert w["transport"] == ("shared memory" if w["node_id"] == head else "ray"), w  # Ray may move it
        assert all(o["failures"] == 0 for o in env.workers if o["worker"] != local["worker"])
        assert len(ring_files() - before) == sum(o["node_id"] == head for o in env.workers)
        return took

    timings = []
    for inject, match, within in [
        (lambda pid: os.kill(pid, signal.SIGSTOP), "worker {}.*worker_timeout", 1.0 + 1.5),
        (lambda pid: os.kill(pid, signal.SIGKILL), "worker {}.*channel closed", 1.0),
    ]:
        env = envpool_lite.make("Dummy-v0", num_envs=6, num_workers=3, worker_timeout=1.0, episode_length=1000, max_episode_steps=100000)
        try:
            timings.append(fault_then_new_episodes(env, inject, match, within))
        finally:
            env.close()
        assert ring_files() == before
    print(f"channel worker: stopped, reported after {timings[0]:.2f} s; killed, after {timings[1]:.2f} s")


def test_recv_timeout_then_the_results_still_arrive(cluster):
    env = envpool_lite.make("Dummy-v0", num_envs=2, num_workers=2, step_sleep_us=400_000)
    try:
        env.reset()
        env.send(np.zeros(2, np.int32))
        t = time.monotonic()
        with pytest.raises(TimeoutError):
            env.recv(timeout=0.1)
        assert time.monotonic() - t < 1.0
        obs, *_ = env.recv()
        np.testing.assert_array_equal(obs[:, 2], 1)
    finally:
        env.close()


def test_an_env_that_raises_names_its_global_env_id(cluster):
    env = envpool_lite.make("Dummy-v0", num_envs=4, num_workers=2, fail_on_step=2)
    try:
        env.reset()
        env.step(np.zeros(4, np.int32))
        with pytest.raises(envpool_lite.EnvStepError, match="failed on step 2") as exc:
            env.step(np.zeros(4, np.int32))
        assert sorted(exc.value.env_ids) == [0, 1, 2, 3]
        assert sorted(exc.value.dropped_env_ids) == [0, 1, 2, 3]
        obs, *_ = env.step(np.zeros(4, np.int32))  # they reset on their next action
        np.testing.assert_array_equal(obs[:, 2], 0)
    finally:
        env.close()


def test_a_killed_worker_is_reported_restarted_and_its_envs_reset(cluster):
    """SIGKILL one worker's process mid-run: within seconds recv() raises
    EnvStepError naming the envs that were in flight on it; the other workers
    keep serving; Ray restarts it and its envs reset on their next action."""
    env = envpool_lite.make("Dummy-v0", num_envs=9, batch_size=3, num_workers=3, step_sleep_us=2000, episode_length=1000, max_episode_steps=100000)
    try:
        victim = env.workers[1]
        env.async_reset()
        for _ in range(30):
            obs, rew, term, trunc, info = env.recv()
            env.send(np.zeros(3, np.int32), info["env_id"])
        os.kill(victim["pid"], signal.SIGKILL)
        t0 = time.monotonic()
        served_meanwhile = set()
        with pytest.raises(envpool_lite.EnvStepError, match="worker 1") as exc:
            for _ in range(1000):
                obs, rew, term, trunc, info = env.recv()
                served_meanwhile.update(info["env_id"].tolist())
                env.send(np.zeros(3, np.int32), info["env_id"])
        detected = time.monotonic() - t0
        assert detected < 10.0, detected
        lost = exc.value.env_ids
        assert lost and set(lost) <= set(victim["env_ids"])
        # the lost envs await an action again: send them one, they reset
        env.send(np.zeros(len(lost), np.int32), lost)
        seen = {}
        deadline = time.monotonic() + 60  # Ray restarts it in a second or two
        while set(seen) != set(victim["env_ids"]) and time.monotonic() < deadline:
            obs, rew, term, trunc, info = env.recv()
            for j, i in enumerate(info["env_id"].tolist()):
                if i in victim["env_ids"] and i not in seen:
                    seen[i] = int(info["elapsed_step"][j])
            env.send(np.zeros(3, np.int32), info["env_id"])
        assert set(seen) == set(victim["env_ids"])
        assert all(v == 0 for v in seen.values()), seen  # each started a new episode
        after = env.workers[1]
        assert after["pid"] != victim["pid"] and after["failures"] == 1
        assert env.workers[0]["failures"] == env.workers[2]["failures"] == 0
    finally:
        pids = [w["pid"] for w in env.workers]
        env.close()
    assert gone(pids)


def test_a_worker_killed_while_idle_is_reported_on_its_next_call(cluster):
    """SIGKILL a worker while none of its calls are in flight (sync mode,
    between steps) and let Ray restart it: the next step must not be served
    silently by fresh envs. It raises EnvStepError naming the worker's envs,
    and on the step after they start new episodes."""
    env = envpool_lite.make("Dummy-v0", num_envs=6, num_workers=3, episode_length=1000, max_episode_steps=100000)
    try:
        victim = env.workers[1]
        env.reset()
        for _ in range(5):
            obs, rew, term, trunc, info = env.step(np.zeros(6, np.int32))
        assert (info["elapsed_step"] == 5).all()
        os.kill(victim["pid"], signal.SIGKILL)
        handle = env._pool._workers[1].handle
        deadline = time.monotonic() + 60
        while True:  # until Ray has restarted it, so the next call reaches the new process
            try:
                if ray.get(handle.describe.remote(), timeout=5).pid != victim["pid"]:
                    break
            except (ray.exceptions.RayActorError, ray.exceptions.GetTimeoutError):
                pass
            assert time.monotonic() < deadline, "Ray did not restart the worker"
            time.sleep(0.1)
        with pytest.raises(envpool_lite.EnvStepError, match="worker 1.*restarted") as exc:
            env.step(np.zeros(6, np.int32))
        assert set(victim["env_ids"]) <= set(exc.value.env_ids)
        obs, rew, term, trunc, info = env.step(np.zeros(6, np.int32))
        elapsed = dict(zip(info["env_id"].tolist(), info["elapsed_step"].tolist()))
        assert all(elapsed[i] == 0 for i in victim["env_ids"]), elapsed  # new episodes
        assert all(elapsed[i] == 7 for i in set(range(6)) - set(victim["env_ids"])), elapsed
        assert env.workers[1]["failures"] == 1 and env.workers[1]["pid"] != victim["pid"]
    finally:
        pids = [w["pid"] for w in env.workers]
        env.close()
    assert gone(pids)


def test_a_lost_node_is_reported_and_its_workers_move(cluster):
    """Take a node out of the cluster (its raylet and every process on it
    killed): recv() raises EnvStepError for each worker that was on it,
    naming its envs in flight; Ray restarts those workers on the nodes left,
    their envs reset on their next action, and the other workers never fail."""
    env = envpool_lite.make("Dummy-v0", num_envs=6, batch_size=2, num_workers=3, step_sleep_us=2000, episode_length=1000, max_episode_steps=100000)
    head = cluster.head_node.node_id
    try:
        lost_node = next(w["node_id"] for w in env.workers if w["node_id"] != head)
        victims = {w["worker"]: w for w in env.workers if w["node_id"] == lost_node}
        victim_envs = {i for w in victims.values() for i in w["env_ids"]}
        node = next(n for n in cluster.list_all_nodes() if n.node_id == lost_node)
        env.async_reset()
        for _ in range(20):
            obs, rew, term, trunc, info = env.recv()
            env.send(np.zeros(2, np.int32), info["env_id"])
        cluster.remove_node(node, allow_graceful=False)
        t0 = time.monotonic()
        errors, seen = [], {}
        deadline = t0 + 90
        while (len(errors) < len(victims) or set(seen) != victim_envs) and time.monotonic() < deadline:
            try:
                obs, rew, term, trunc, info = env.recv()
            except envpool_lite.EnvStepError as e:
                errors.append((time.monotonic() - t0, e))
                assert e.env_ids and set(e.env_ids) <= victim_envs, e
                env.send(np.zeros(len(e.env_ids), np.int32), e.env_ids)  # they await an action
                continue
            for j, i in enumerate(info["env_id"].tolist()):
                if i in victim_envs and errors and i not in seen:
                    seen[i] = int(info["elapsed_step"][j])
            env.send(np.zeros(2, np.int32), info["env_id"])
        assert len(errors) == len(victims), [str(e) for _, e in errors]
        assert errors[0][0] < 60.0
        assert set(seen) == victim_envs and all(v == 0 for v in seen.values()), seen  # new episodes
        for w in env.workers:
            if w["worker"] in victims:
                assert w["node_id"] != lost_node and w["failures"] == 1
            else:
                assert w["failures"] == 0
        print(f"node loss: {len(victims)} worker(s) reported after {', '.join(f'{t:.1f}' for t, _ in errors)} s")
    finally:
        env.close()
        cluster.add_node(num_cpus=CPUS_PER_NODE, object_store_memory=80 << 20)  # the next tests keep 3 nodes
        cluster.wait_for_nodes()


def test_a_hung_worker_is_reported_within_worker_timeout(cluster):
    """Worker 1's envs take 0.8 s a step (Dummy sleeps step_sleep_us times
    1 + seed % 4); with worker_timeout=0.5 it is reported, killed and
    restarted, while worker 0 (0.2 s steps) keeps serving."""
    env = envpool_lite.make("Dummy-v0", num_envs=4, batch_size=1, num_workers=2, seed=[0, 4, 3, 7], step_sleep_us=200_000, worker_timeout=0.5)
    try:
        env.async_reset()
        t0 = time.monotonic()
        with pytest.raises(envpool_lite.EnvStepError, match="worker_timeout") as exc:
            for _ in range(100):
                obs, rew, term, trunc, info = env.recv()
                assert info["env_id"][0] in (0, 1) or info["elapsed_step"][0] == 0  # resets are quick
                env.send(np.zeros(1, np.int32), info["env_id"])
        assert time.monotonic() - t0 < 3.0
        assert set(exc.value.env_ids) <= {2, 3} and exc.value.env_ids
        assert env.workers[1]["failures"] == 1
    finally:
        env.close()


def test_ctrl_c_interrupts_a_blocked_recv(cluster):
    env = envpool_lite.make("Dummy-v0", num_envs=2, num_workers=2, step_sleep_us=300_000)
    try:
        env.reset()
        env.send(np.zeros(2, np.int32))
        timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        t0 = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            env.recv()
        assert time.monotonic() - t0 < 0.6
        obs, *_ = env.recv()  # still usable: the results arrive
        np.testing.assert_array_equal(obs[:, 2], 1)
    finally:
        env.close()


def test_close_and_garbage_collection_stop_every_worker(cluster):
    env = envpool_lite.make("CartPole-v1", num_envs=4, num_workers=3)
    pids = [w["pid"] for w in env.workers]
    env.close()
    env.close()  # idempotent
    assert gone(pids)
    env = envpool_lite.make("CartPole-v1", num_envs=4, num_workers=2, batch_size=2)
    env.async_reset()
    pids = [w["pid"] for w in env.workers]
    del env
    gc.collect()
    assert gone(pids)


def test_interpreter_exit_stops_every_worker(cluster):
    script = textwrap.dedent(
        """
        import envpool_lite
        env = envpool_lite.make("CartPole-v1", num_envs=4, batch_size=2, num_workers=2)
        env.async_reset()
        print(*[w["pid"] for w in env.workers], flush=True)
        """
    )
    out = subprocess.run([sys.executable, "-c", script], env={**os.environ, "RAY_ADDRESS": cluster.address}, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    pids = [int(p) for p in out.stdout.split()]
    assert len(pids) == 2 and gone(pids)


def test_missing_ray_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match=r"envpool_lite\[ray\]"):
        envpool_lite.make("CartPole-v1", num_envs=2, num_workers=1)


def test_the_in_process_pool_does_not_import_ray():
    script = "import sys, envpool_lite; envpool_lite.make('CartPole-v1', num_envs=2).reset(); assert 'ray' not in sys.modules"
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)


def test_appo_trains_on_the_cluster_through_a_worker_failure(cluster, tmp_path, monkeypatch):
    """trainers/appo.py --num-workers 2: it trains, logs each worker, and
    carries on when one worker's process is killed mid-run (the lost envs
    start new episodes; their partial trajectories are dropped). The kill
    comes early: a worker killed between its calls is reported when its
    restarted process answers (a second or two here), and the run must
    last longer than that: from the kill until Ray has restarted the
    worker, the trainer's recv() waits (worker 0 alone could otherwise
    serve every remaining batch before the failure shows, as it did once
    on a loaded CI machine)."""
    torch = pytest.importorskip("torch", reason=NO_TORCH)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "trainers"))
    import appo

    pools, killed = [], []
    make = envpool_lite.make
    monkeypatch.setattr(appo.envpool_lite, "make", lambda *a, **kw: pools.append(make(*a, **kw)) or pools[-1])

    gate = threading.Event()
    gate.set()

    def kill_worker_1_mid_run():
        import ray

        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if pools and not pools[0]._pool.closed and pools[0].workers[1]["steps"] > 100:
                raw = pools[0]._pool
                recv = raw.recv

                def gated_recv(timeout=None, recv=recv):
                    gate.wait(120)
                    return recv(timeout)

                raw.recv = gated_recv
                gate.clear()
                pid = pools[0].workers[1]["pid"]
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                while time.monotonic() < deadline:  # until the restarted process answers
                    try:
                        if ray.get(raw._workers[1].handle.describe.remote(), timeout=10).pid != pid:
                            break
                    except (ray.exceptions.ActorUnavailableError, ray.exceptions.RayActorError, ray.exceptions.GetTimeoutError):
                        time.sleep(0.05)
                gate.set()
                return
            time.sleep(0.01)

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    killer = threading.Thread(target=kill_worker_1_mid_run, daemon=True)
    try:
        cfg = appo.Config(
            env_id="CartPole-v1", num_envs=8, env_batch_size=4, num_workers=2, rollout=16, batch_rollouts=8,
            total_steps=16 * 8 * 24, device="cpu", progress=False, tensorboard=False, plot=False, checkpoint_every=0,
            run_dir=str(tmp_path),
        )  # fmt: skip
        killer.start()
        r = appo.train(cfg)
    finally:
        torch.set_num_threads(threads)
        killer.join()
    assert killed, "worker 1 was not killed mid-run"
    assert r["updates"] == 24 and r["global_step"] == 3072
    assert [w["failures"] for w in r["workers"]] == [0, 1]
    assert r["workers"][1]["pid"] != killed[0]  # restarted, and it served again
    assert len(r["finished"]) > 0


def test_a_cleanrl_script_runs_on_it_by_changing_only_make(cluster, monkeypatch):
    """trainers/cleanrl_ppo_gym.py (CleanRL's PPO, gym API, sync mode) with
    num_workers=2 added to its make() call: it runs, and since every env's
    trajectory is the same wherever it runs, so is the whole training (the
    same episode returns as in-process)."""
    torch = pytest.importorskip("torch", reason=NO_TORCH)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "trainers"))
    import cleanrl_ppo_gym

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    args = cleanrl_ppo_gym.Args(total_timesteps=2048, num_envs=4, num_steps=128)
    try:
        local = cleanrl_ppo_gym.train(args)
        make = envpool_lite.make
        monkeypatch.setattr(cleanrl_ppo_gym.envpool_lite, "make", lambda *a, **kw: make(*a, **kw, num_workers=2))
        remote = cleanrl_ppo_gym.train(args)
    finally:
        torch.set_num_threads(threads)
    assert len(local) > 20
    assert remote == local


def test_render_draws_each_env_on_its_worker(cluster):
    """render(): Atari draws in its worker; classic control's state comes
    from its worker and is drawn here. Frames equal the in-process pool's."""
    for task in ("Pong-v5", "CartPole-v1"):
        frames = []
        for k in (0, 2):
            env = envpool_lite.make(task, num_envs=4, num_workers=k, render_mode="rgb_array", seed=3)
            try:
                env.reset()
                env.step(np.ones(4, np.int32))
                frames.append(env.render(np.array([3, 0, 2])))
            finally:
                env.close()
        assert frames[0].shape[0] == 3 and frames[0].dtype == np.uint8
        np.testing.assert_array_equal(frames[0], frames[1], err_msg=task)


def test_close_from_another_thread_ends_a_blocked_recv(cluster):
    env = envpool_lite.make("Dummy-v0", num_envs=2, num_workers=2, step_sleep_us=500_000)
    env.reset()
    env.send(np.zeros(2, np.int32))
    pids = [w["pid"] for w in env.workers]
    threading.Timer(0.3, env.close).start()
    t0 = time.monotonic()
    with pytest.raises(RuntimeError, match="closed"):
        env.recv()
    assert time.monotonic() - t0 < 8.0
    assert gone(pids)


# --- env states over the cluster (get_state / set_state, checkpoint_every) ---


def test_states_move_between_workers_and_the_in_process_pool(cluster):
    """get_state asks each env's worker; the bytes equal the in-process
    pool's for the same steps, and set_state puts states taken on workers
    into an in-process pool and back (the next recv() returns the saved
    rows, then stepping goes on bit for bit)."""
    pools = [envpool_lite.make("CartPole-v1", num_envs=6, seed=7, num_workers=k) for k in (0, 3)]
    try:
        rng = np.random.default_rng(1)
        for p in pools:
            p.reset()
        for _ in range(12):
            a = rng.integers(0, 2, 6)
            for p in pools:
                p.step(a)
        local, remote = (p.get_state() for p in pools)
        assert local == remote  # same build, same steps: the same bytes
        actions = [rng.integers(0, 2, 6) for _ in range(30)]
        want = [tuple(np.copy(x) for x in pools[0].step(a)[:4]) for a in actions]
        for p, states in ((pools[0], remote), (pools[1], local)):
            p.set_state(None, states)  # every env its own
            p.recv()
            for t, a in enumerate(actions):
                got = p.step(a)[:4]
                for x, y in zip(got, want[t]):
                    np.testing.assert_array_equal(x, y, err_msg=f"step {t}")
        with pytest.raises(ValueError, match="is corrupted"):
            pools[1].set_state([0], [local[0][:-9] + bytes([local[0][-9] ^ 1]) + local[0][-8:]])
        pools[1].step(np.zeros(6, np.int64))  # nothing was sent: the pool goes on
    finally:
        for p in pools:
            p.close()


def rollout_with_kills(kill_at, steps=60, num_workers=2, checkpoint_every=5, task="CartPole-v1", **options):
    """Sync mode, fixed random actions; worker 1's process killed (SIGKILL)
    before each step in kill_at. Returns every field of every step, and the
    pids killed."""
    rings = ring_files()
    env = envpool_lite.make(task, num_envs=6, seed=7, num_workers=num_workers, checkpoint_every=checkpoint_every, **options)
    rng = np.random.default_rng(0)
    killed = []
    try:
        out = [env.reset()]
        for t in range(steps):
            if t in kill_at:
                pid = env.workers[1]["pid"]
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            out.append(env.step(rng.integers(0, 2, 6)))
        workers = env.workers
    finally:
        pids = [w["pid"] for w in env.workers]
        env.close()
    assert gone(pids)
    assert ring_files() == rings  # no shared-memory ring left behind
    return out, killed, workers


def assert_same_rollout(ref, got):
    for t, (a, b) in enumerate(zip(ref, got)):
        for x, y in zip(a[:-1], b[:-1]):
            np.testing.assert_array_equal(x, y, err_msg=f"step {t}")
        for key in ("env_id", "elapsed_step"):
            np.testing.assert_array_equal(a[-1][key], b[-1][key], err_msg=f"step {t}")


def test_checkpoint_every_a_worker_killed_twice_loses_nothing(cluster):
    """checkpoint_every=5: worker 1 killed between two steps, and its
    restarted process killed again at the next step: no error, and every
    field of every step equals the run without faults (its envs were
    restored from their checkpoints and their steps since replayed)."""
    ref, _, _ = rollout_with_kills(kill_at=(), num_workers=0, checkpoint_every=0)
    got, killed, workers = rollout_with_kills(kill_at=(23, 24))
    assert len(killed) == 2 and killed[0] != killed[1]
    assert workers[1]["failures"] == workers[1]["recovered"] == 2
    assert workers[0]["failures"] == 0
    assert_same_rollout(ref, got)
    assert sum(r[2].sum() for r in ref if len(r) == 5) > 0  # episodes ended on the way


def test_checkpoint_every_a_worker_killed_mid_step_loses_nothing(cluster):
    """A worker killed while its envs are being stepped (slow steps): their
    rows are lost in flight, and come back from the restored worker."""
    options = dict(task="Dummy-v0", step_sleep_us=200_000, episode_length=9, max_episode_steps=1000)
    ref, _, _ = rollout_with_kills(kill_at=(), steps=20, num_workers=0, checkpoint_every=0, **options)
    env = envpool_lite.make("Dummy-v0", num_envs=6, seed=7, num_workers=2, checkpoint_every=4, step_sleep_us=200_000, episode_length=9, max_episode_steps=1000)
    rng = np.random.default_rng(0)
    try:
        got = [env.reset()]
        victim = env.workers[1]["pid"]
        for t in range(20):
            a = rng.integers(0, 2, 6)
            if t == 11:
                env.send(a)
                time.sleep(0.1)  # inside the step's 0.2 s
                os.kill(victim, signal.SIGKILL)
                got.append(env.recv())
            else:
                got.append(env.step(a))
        assert env.workers[1]["recovered"] == 1 and env.workers[1]["pid"] != victim
    finally:
        pids = [w["pid"] for w in env.workers]
        env.close()
    assert gone(pids)
    assert_same_rollout(ref, got)


def test_checkpoint_every_async_each_env_loses_nothing(cluster):
    """Async mode: each env's own sequence of rows equals the unfaulted
    run's, whichever envs shared its batches, through a worker's death."""

    def trajectories(num_workers, kill_at=None):
        env = envpool_lite.make("Dummy-v0", num_envs=8, batch_size=3, num_workers=num_workers, seed=11, step_sleep_us=300, checkpoint_every=3 if num_workers else 0)
        traj: dict = {i: [] for i in range(8)}
        try:
            env.async_reset()
            victims = list(env.workers[1]["env_ids"]) if num_workers else []
            at_kill: dict = {}
            deadline = time.monotonic() + 60
            r = 0
            # 150 batches, and with a kill until each of the lost worker's
            # envs has stepped 5 times after it (the other worker's envs
            # may fill many batches before the loss is seen).
            while r < 150 or (at_kill and not all(len(traj[i]) > at_kill[i] + 5 for i in victims)):
                assert time.monotonic() < deadline, "the lost envs did not step again"
                if r == kill_at:
                    at_kill = {i: len(traj[i]) for i in victims}
                    os.kill(env.workers[1]["pid"], signal.SIGKILL)
                r += 1
                obs, rew, term, trunc, info = env.recv()
                ids = info["env_id"]
                for j, i in enumerate(ids):
                    traj[int(i)].append((obs[j].tolist(), float(rew[j]), bool(term[j]), bool(trunc[j]), int(info["elapsed_step"][j])))
                env.send((ids * 7 + info["elapsed_step"]) % 5, ids)
            recovered = env.workers[1]["recovered"] if num_workers else 0
        finally:
            env.close()
        return traj, recovered

    ref, _ = trajectories(0)
    got, recovered = trajectories(2, kill_at=60)
    assert recovered == 1
    for i in ref:
        n = min(len(ref[i]), len(got[i]))
        assert n >= 20
        assert ref[i][:n] == got[i][:n], f"env {i}"
