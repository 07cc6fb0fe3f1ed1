"""The check every family's tests/<family>/test_state.py runs: an env saved
with get_state() and restored with set_state() goes on bit for bit.

check_roundtrip(task_id): run k steps, save every env, run m steps
recording everything, then restore
  - into the same pool, each env its own state;
  - with other_pool (two envs then): into the same pool, the two envs'
    states swapped, and into a fresh pool of another size (3 envs), at
    other env ids;
and replay the same actions: the row recv() returns after set_state() is
the row of the saved moment, and every later field (observation, reward,
terminated, truncated, every info field, SAME_STEP's final observation and
info) is == (NaN equal to NaN), env_id aside where the ids differ. With
the task's max_episode_steps set short (k + 4 by default), the m steps go
through a time-limit truncation and its auto-reset whatever the task.

check_async(task_id): the same in an async pool (batch_size < num_envs),
env by env: each env's own sequence of rows after its state was restored
equals the one it produced after the state was taken, whichever envs
shared its batches.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scope
from test_every_id import needed_options

import envpool_lite


def every_id(family: str, fresh_every: int = 4) -> list[tuple[str, bool]]:
    """(task_id, other_pool) for every id of a family: make test restores
    every id into its own pool (one env), and every fresh_every-th id (the
    first included) also swapped between two envs and into a fresh pool of
    another size; make test-full every id all three ways."""
    ids = envpool_lite.families.task_ids(family)
    return [(t, scope.FULL or i % fresh_every == 0) for i, t in enumerate(ids)]


def copy_out(x: Any) -> Any:
    """A deep copy of a batch (its arrays view the pool's memory, which the
    pool reuses)."""
    if isinstance(x, dict):
        return {k: copy_out(v) for k, v in x.items()}
    if isinstance(x, tuple):
        copied = tuple(copy_out(v) for v in x)
        return type(x)(*copied) if hasattr(x, "_fields") else copied  # a namedtuple (dm_env's TimeStep) stays one
    if isinstance(x, np.ndarray):
        if x.dtype == object:
            return np.array([copy_out(v) for v in x] + [None], dtype=object)[:-1]
        return x.copy()
    return x


def rows(x: Any, index: Any) -> Any:
    """Rows `index` of every array of a batch."""
    if isinstance(x, dict):
        return {k: rows(v, index) for k, v in x.items()}
    if isinstance(x, tuple):
        return tuple(rows(v, index) for v in x)
    if isinstance(x, np.ndarray) and x.ndim > 0:
        return x[index]
    return x


def assert_same(got: Any, want: Any, where: str, skip_env_ids: bool = False) -> None:
    """Every array ==, NaN equal to NaN; dicts key by key."""
    if isinstance(want, dict):
        keys = {k for k in want if not (skip_env_ids and k in ("env_id", "_env_id"))}
        got_keys = {k for k in got if not (skip_env_ids and k in ("env_id", "_env_id"))}
        assert got_keys == keys, f"{where}: keys {sorted(got_keys)} != {sorted(keys)}"
        for k in sorted(keys):
            assert_same(got[k], want[k], f"{where}[{k!r}]", skip_env_ids)
        return
    if isinstance(want, tuple):
        assert len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same(g, w, f"{where}[{i}]", skip_env_ids)
        return
    if want is None:
        assert got is None, f"{where}: {got!r} is not None"
        return
    if isinstance(want, np.ndarray) and want.dtype == object:
        assert got.shape == want.shape, where
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same(g, w, f"{where}[{i}]", skip_env_ids)
        return
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, f"{where}: dtype {got.dtype} != {want.dtype}"
    np.testing.assert_array_equal(got, want, err_msg=where, strict=True)


def _make(task_id: str, num_envs: int, options: dict, **face: Any):
    opts = {"seed": 11, **options, "num_envs": num_envs}
    return envpool_lite.make(task_id, env_type="gymnasium", **opts, **face)


def task_options(task_id: str, k: int, options: dict | None) -> dict:
    """The id's needed options, the caller's, and a short time limit."""
    opts = {**needed_options(task_id), **(options or {})}
    opts.pop("num_envs", None)
    defaults = envpool_lite._core.task_options(task_id)
    if "max_episode_steps" in defaults and "max_episode_steps" not in opts:
        opts["max_episode_steps"] = k + 4
    return opts


def check_roundtrip(
    task_id: str,
    k: int = 3,
    m: int = 10,
    options: dict | None = None,
    autoreset_mode: str = "next_step",
    render: bool = False,
    other_pool: bool = True,
) -> dict:
    """Save after k steps, record m, restore and replay (module docstring).
    Returns what it saw: {"dones": episode ends in the m steps, "bytes":
    the size of a state, "saved_at_end": whether the saved row ended an
    episode}, for callers that require an episode end."""
    opts = task_options(task_id, k, options)
    face = {"autoreset_mode": autoreset_mode}
    if render:
        face["render_mode"] = "rgb_array"
    # Without other_pool: one env, restored into its own pool (half the
    # cost of making the pool, which most of a sampled id's check is).
    n = 2 if other_pool else 1
    env = _make(task_id, n, opts, **face)
    try:
        env.action_space.seed(5)
        actions = [env.action_space.sample() for _ in range(k + m)]
        last = copy_out(env.reset())
        for a in actions[:k]:
            last = copy_out(env.step(a))
        states = env.get_state()
        assert len(states) == n and all(isinstance(s, bytes) for s in states)
        saved_at_end = len(last) == 5 and bool(np.any(last[2] | last[3]))
        frames = env.render(list(range(n))) if render else None
        record = [copy_out(env.step(a)) for a in actions[k:]]
        dones = int(sum(np.sum(r[2] | r[3]) for r in record))

        # The same pool, each env its own state.
        env.set_state(None, states)
        again = copy_out(env.recv())
        _check_row(again, last, f"{task_id}: the row after set_state")
        if render:
            assert_same(env.render(list(range(n))), frames, f"{task_id}: render() after set_state")
        for i, a in enumerate(actions[k:]):
            assert_same(copy_out(env.step(a)), record[i], f"{task_id}: step {k + i} after set_state")

        if other_pool:
            # The same pool, the states swapped between the envs.
            env.set_state([1, 0], [states[1], states[0]])
            swapped = copy_out(env.recv())
            _check_row(swapped, last, f"{task_id}: the row after a swapped set_state")
            for i, a in enumerate(actions[k:]):
                assert_same(copy_out(env.step(a)), record[i], f"{task_id}: step {k + i} after a swapped set_state")
    finally:
        env.close()

    if other_pool:
        # A fresh pool of 3 envs, the states at env ids 2 and 0.
        env = _make(task_id, 3, {**opts, "seed": 1000}, **face)
        try:
            env.reset()
            env.set_state([2, 0], states)
            moved = copy_out(env.recv())
            _check_row(moved, last, f"{task_id}: the row after set_state in another pool", skip_env_ids=True)
            assert list(moved[4]["env_id"]) == [2, 0]
            for i, a in enumerate(actions[k:]):
                out = copy_out(env.step(a, env_id=np.array([2, 0], np.int32)))
                assert_same(out, record[i], f"{task_id}: step {k + i} after set_state in another pool", skip_env_ids=True)
        finally:
            env.close()
    return {"dones": dones, "bytes": len(states[0]), "saved_at_end": saved_at_end}


def _check_row(got, want, where: str, skip_env_ids: bool = False) -> None:
    """A restored row against the saved one: a reset's (obs, info) or a
    step's five fields."""
    if len(want) == 2:  # saved right after reset(): obs and info
        want = (want[0], None, None, None, want[1])
    for i, name in enumerate(("obs", "reward", "terminated", "truncated", "info")):
        if want[i] is None:
            continue
        if name == "reward":
            np.testing.assert_array_equal(got[1], want[1], err_msg=where, strict=True)
            continue
        assert_same(got[i], want[i], f"{where}: {name}", skip_env_ids)


def check_async(task_id: str, recvs: int = 12, options: dict | None = None, num_envs: int = 4, batch_size: int = 2) -> None:
    """An async pool: each env's own rows after set_state equal its rows
    after get_state (module docstring)."""
    opts = task_options(task_id, 4, options)
    env = _make(task_id, num_envs, opts, batch_size=batch_size)
    try:
        space = env.single_action_space

        def action(env_id: int, count: int):
            space.seed(int(env_id) * 100_003 + int(count))
            return space.sample()

        counts = [0] * num_envs
        env.async_reset()

        def recv_and_send(record: dict | None, only: set | None = None):
            out = copy_out(env.recv())
            ids = out[4]["env_id"]
            for row, i in enumerate(ids):
                counts[i] += 1
                if record is not None and i in record:
                    record[i].append(rows(out, row))
            send = [i for i in ids if only is None or i in only]
            if send:
                env.send(np.stack([action(i, counts[i]) for i in send]), np.array(send, np.int32))
            return ids

        for _ in range(recvs // 2):
            recv_and_send(None)
        # The envs of one batch await an action: save them, then send.
        out = copy_out(env.recv())
        saved_ids = [int(i) for i in out[4]["env_id"]]
        saved_rows = {i: rows(out, row) for row, i in enumerate(saved_ids)}
        for i in saved_ids:
            counts[i] += 1
        states = env.get_state(np.array(saved_ids, np.int32))
        saved_counts = {i: counts[i] for i in saved_ids}
        env.send(np.stack([action(i, counts[i]) for i in saved_ids]), np.array(saved_ids, np.int32))
        record: dict = {i: [] for i in saved_ids}
        for _ in range(recvs):
            recv_and_send(record)
        while env._pool.in_flight:  # every env awaits an action again
            out = copy_out(env.recv())
            for row, i in enumerate(out[4]["env_id"]):
                counts[i] += 1
                if i in record:
                    record[i].append(rows(out, row))

        env.set_state(np.array(saved_ids, np.int32), states)
        for i in saved_ids:
            counts[i] = saved_counts[i] - 1
        replay: dict = {i: [] for i in saved_ids}
        first: dict = {}
        while any(len(replay[i]) < len(record[i]) for i in saved_ids):
            out = copy_out(env.recv())
            ids = [int(i) for i in out[4]["env_id"]]
            send = []
            for row, i in enumerate(ids):
                counts[i] += 1
                if i not in first:
                    first[i] = rows(out, row)
                else:
                    replay[i].append(rows(out, row))
                if len(replay[i]) < len(record[i]):
                    send.append(i)
            if send:
                env.send(np.stack([action(i, counts[i]) for i in send]), np.array(send, np.int32))
        while env._pool.in_flight:
            env.recv()
        for i in saved_ids:
            assert_same(first[i], saved_rows[i], f"{task_id}: async env {i}, the row after set_state")
            for n, (got, want) in enumerate(zip(replay[i], record[i])):
                assert_same(got, want, f"{task_id}: async env {i}, row {n} after set_state")
    finally:
        env.close()
