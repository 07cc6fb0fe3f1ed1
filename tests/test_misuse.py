"""Reliability, second round: concurrent misuse, exhaustion and silently wrong
inputs never crash, hang or lie.

Anything that could crash or hang the interpreter runs in its own process
(`_run`), with a time limit: a crash shows up as a non-zero return code with
the child's output, a hang as a timeout, not as a dead test run.
"""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import envpool_lite

VIZDOOM = "Basic-v1" in envpool_lite.list_all_envs()


def _run(code: str, timeout: float = 60) -> str:
    """Runs `code` in a fresh interpreter; returns its stdout, failing the
    test (with the child's output) if it crashed, hung or exited non-zero."""
    try:
        done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"hung for {timeout} s; output so far:\n{e.stdout}\n{e.stderr}")
    assert done.returncode == 0, f"exit code {done.returncode}\nstdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    return done.stdout


# --- crashes ----------------------------------------------------------------


@pytest.mark.alone
def test_close_from_another_thread_while_stepping_never_crashes():
    # recv()'s own thread may be stepping an env when close() comes: close()
    # must wait for it (it used to free the envs under it and segfault).
    out = _run(
        """
        import threading, time, numpy as np, envpool_lite
        for trial in range(12):
            env = envpool_lite.make("Dummy-v0", num_envs=4, num_threads=2, step_sleep_us=20000 + 5000 * (trial % 3))
            env.reset()
            errors = []
            def stepper():
                try:
                    for _ in range(1000):
                        env.step(np.zeros(4, np.int32))
                except RuntimeError as e:
                    errors.append(str(e))
            t = threading.Thread(target=stepper)
            t.start()
            time.sleep(0.01 + 0.013 * trial)
            start = time.monotonic()
            env.close()
            took = time.monotonic() - start
            t.join(10)
            assert not t.is_alive(), "the stepping thread hangs after close()"
            assert len(errors) == 1 and "closed" in errors[0], errors
            assert took < 1.0, took  # at most one step of the slowest env (0.1 s) and a join
        print("ok")
        """
    )
    assert out.strip() == "ok"


def test_thread_creation_failure_raises_instead_of_aborting():
    # Address space capped so that thread stacks cannot be mapped: the pool
    # must raise (naming num_threads), not terminate the interpreter.
    out = _run(
        """
        import resource, numpy as np, envpool_lite
        envpool_lite.make("Dummy-v0", num_envs=2).close()
        vm = int([l for l in open("/proc/self/status") if l.startswith("VmSize")][0].split()[1]) * 1024
        resource.setrlimit(resource.RLIMIT_AS, (vm + 100 * 2**20, resource.RLIM_INFINITY))
        for num_envs in (1, 256):  # workers, then env builders
            try:
                envpool_lite.make("Dummy-v0", num_envs=num_envs, num_threads=256)
                print("no error")
            except RuntimeError as e:
                assert "num_threads" in str(e), e
                print("raised")
        resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        env = envpool_lite.make("Dummy-v0", num_envs=4)
        env.reset()
        assert env.step(np.zeros(4, np.int32))[0].shape == (4, 4)
        print("usable")
        """
    )
    assert out.split() == ["raised", "raised", "usable"]


# --- one caller at a time -----------------------------------------------------


def _slow_pool(**kwargs):
    env = envpool_lite.make("Dummy-v0", num_envs=2, num_threads=1, step_sleep_us=150000, **kwargs)
    env.reset()
    env.send(np.zeros(2, np.int32))  # both in flight for at least 0.15 s
    return env


def _in_background(fn):
    result = {}

    def run():
        try:
            result["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - reported to the test
            result["error"] = e

    t = threading.Thread(target=run)
    t.start()
    time.sleep(0.05)  # it is now blocked inside recv()
    return t, result


@pytest.mark.parametrize("call", ["recv", "send", "step", "reset", "async_reset"])
def test_a_second_caller_while_recv_blocks_gets_a_clear_error(call):
    env = _slow_pool()
    t, result = _in_background(env.recv)
    actions = np.zeros(2, np.int32)
    calls = {
        "recv": lambda: env.recv(),
        "send": lambda: env.send(actions, np.array([0, 1])),
        "step": lambda: env.step(actions, np.array([0, 1])),
        "reset": lambda: env.reset(np.array([0])),
        "async_reset": lambda: env.async_reset(),
    }
    with pytest.raises(RuntimeError, match="another thread"):
        calls[call]()
    t.join(10)
    # The blocked recv() was not disturbed: it returns both envs.
    assert "error" not in result, result
    assert sorted(result["value"][4]["env_id"]) == [0, 1]
    assert env.step(actions)[0].shape == (2, 4)  # and the pool goes on
    env.close()


def test_render_while_recv_blocks():
    env = envpool_lite.make("Pong-v5", num_envs=4, num_threads=1, render_mode="rgb_array", frame_skip=1000)
    env.reset()
    env.send(np.zeros(4, np.int32))
    # With a timeout recv() only waits: one worker steps the four envs in
    # turn, 1,000 frames each (a quarter of a second at least).
    t, result = _in_background(lambda: env.recv(timeout=60))
    assert t.is_alive()
    with pytest.raises(RuntimeError, match="another thread"):
        env.render(np.array([0]))
    t.join(30)
    assert "error" not in result, result
    assert env.render(np.array([0])).shape[0] == 1
    env.close()


@pytest.mark.alone
def test_close_from_another_thread_wakes_a_blocked_recv_promptly():
    env = _slow_pool()
    # With a timeout recv() only waits (it does not step envs itself), so it
    # is asleep when close() comes.
    t, result = _in_background(lambda: env.recv(timeout=30))
    start = time.monotonic()
    env.close()
    t.join(10)
    assert time.monotonic() - start < 1.0
    assert isinstance(result.get("error"), RuntimeError) and "closed" in str(result["error"])
    with pytest.raises(RuntimeError, match="closed"):
        env.step(np.zeros(2, np.int32))
    env.close()  # idempotent


def test_signal_handler_that_calls_recv_or_close_during_recv():
    out = _run(
        """
        import signal, numpy as np, envpool_lite
        env = envpool_lite.make("Dummy-v0", num_envs=2, num_threads=1, step_sleep_us=200000)
        env.reset()
        # recv() with a timeout leaves every step to the workers and waits,
        # polling for signals: the handlers run inside it.
        signal.signal(signal.SIGALRM, lambda *a: env.recv())
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        try:
            env.send(np.zeros(2, np.int32))
            env.recv(timeout=10)
        except RuntimeError as e:
            assert "same thread" in str(e), e
            print("reentry rejected")
        # The interrupted step's results are still there to collect.
        assert sorted(env.recv()[4]["env_id"]) == [0, 1]
        signal.signal(signal.SIGALRM, lambda *a: env.close())
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        try:
            env.send(np.zeros(2, np.int32))
            env.recv(timeout=10)
        except RuntimeError as e:
            assert "closed" in str(e), e
            print("closed in handler")
        try:
            env.step(np.zeros(2, np.int32))
        except RuntimeError as e:
            assert "closed" in str(e), e
            print("stays closed")
        """
    )
    assert out.split("\n")[:3] == ["reentry rejected", "closed in handler", "stays closed"]


@pytest.mark.alone
def test_forked_child_gets_a_clear_error_and_the_parent_is_unaffected():
    out = _run(
        """
        import os, time, numpy as np, envpool_lite
        env = envpool_lite.make("Dummy-v0", num_envs=4, batch_size=2, num_threads=2, step_sleep_us=20000)
        env.reset()
        env.send(np.zeros(2, np.int32))  # some envs in flight across the fork
        pid = os.fork()
        if pid == 0:
            start = time.monotonic()
            for call in (env.recv, lambda: env.step(np.zeros(2, np.int32)), env.reset):
                try:
                    call()
                    os._exit(3)
                except RuntimeError as e:
                    if "fork" not in str(e):
                        os._exit(4)
            env.close()  # lets go of the parent's envs without touching them
            del env
            child = envpool_lite.make("Dummy-v0", num_envs=2)  # a new pool works
            child.reset()
            os._exit(0 if time.monotonic() - start < 5 else 5)
        _, status = os.waitpid(pid, 0)
        print("child", os.waitstatus_to_exitcode(status))
        got = sorted(np.concatenate([env.recv()[4]["env_id"] for _ in range(2)]))
        assert got == [0, 1, 2, 3], got
        print("parent ok")
        """
    )
    assert out.split("\n")[:2] == ["child 0", "parent ok"]


# --- bounded waits ------------------------------------------------------------


@pytest.mark.parametrize(
    "task,option,value",
    [
        ("Pong-v5", "noop_max", 10**9),
        ("Pong-v5", "frame_skip", 10**6),
        ("Pong-v5", "img_width", 100000),
        ("Pong-v5", "img_height", 100000),
        ("Pong-v5", "stack_num", 10**5),
        ("Dummy-v0", "step_sleep_us", 10**9),
        ("Dummy-v0", "build_sleep_us", 10**9),
        ("Dummy-v0", "lives", 10**9),
    ],
)
def test_absurd_options_are_rejected_at_make(task, option, value):
    with pytest.raises(ValueError, match=option):
        envpool_lite.make(task, **{option: value})


@pytest.mark.skipif(not VIZDOOM, reason="ViZDoom not built")
@pytest.mark.parametrize("option,value", [("frame_skip", 10**6), ("engine_timeout", 1e9), ("img_width", 100000), ("weapon_duration", 2**40)])
def test_absurd_vizdoom_options_are_rejected_at_make(option, value):
    with pytest.raises(ValueError, match=option):
        envpool_lite.make("Basic-v1", **{option: value})


@pytest.mark.alone
def test_building_stops_at_the_first_env_that_fails():
    # 64 envs of 0.1 s each on 2 threads would take 3.2 s to build in full.
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="seeded 3 failed to start"):
        envpool_lite.make("Dummy-v0", num_envs=64, num_threads=2, seed=0, build_sleep_us=100000, fail_on_build_seed=3)
    assert time.monotonic() - start < 1.5


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(task_id="CartPole-v1", num_envs=10**9), "num_envs must be in"),
        (dict(task_id="CartPole-v1", num_threads=10**6), "num_threads must be in"),
        (dict(task_id="Pong-v5", num_envs=500000, img_height=2048, img_width=2048), "output buffers"),
    ],
)
def test_sizes_are_checked_before_allocating(kwargs, match):
    start = time.monotonic()
    with pytest.raises(ValueError, match=match):
        envpool_lite.make(**kwargs)
    assert time.monotonic() - start < 10


def test_envs_that_cannot_fit_in_memory_fail_before_building():
    # Atari envs take 0.5-1 MiB each: 4 per MiB available cannot fit. The
    # child's address space is capped, so a broken check fails fast there
    # instead of filling this machine's memory.
    out = _run(
        """
        import resource, time, envpool_lite
        available = int([l for l in open("/proc/meminfo") if l.startswith("MemAvailable")][0].split()[1]) // 1024
        resource.setrlimit(resource.RLIMIT_AS, (8 * 2**30, resource.RLIM_INFINITY))
        start = time.monotonic()
        try:
            envpool_lite.make("Pong-v5", num_envs=min(2**20, 4 * available), batch_size=1000)
        except ValueError as e:
            assert "for its envs" in str(e) and "num_envs" in str(e), e
            print("raised", time.monotonic() - start < 10)
        """,
        timeout=120,
    )
    assert out.strip() == "raised True"


# --- never silently wrong -------------------------------------------------------


def _pair(task, **kwargs):
    a, b = envpool_lite.make(task, num_envs=2, **kwargs), envpool_lite.make(task, num_envs=2, **kwargs)
    a.reset()
    b.reset()
    return a, b


@pytest.mark.parametrize("dtype", [">f4", ">f8", "<f8", np.float16])
def test_non_native_or_other_float_actions_act_as_their_values(dtype):
    ours, ref = _pair("Pendulum-v1")
    action = np.array([[1.5], [-0.75]])
    for _ in range(3):
        got, want = ours.step(action.astype(dtype))[0], ref.step(action.astype(np.float32))[0]
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", [">i4", ">i8", ">u2", np.uint64, np.int8])
def test_non_native_int_actions_act_as_their_values(dtype):
    ours, ref = _pair("CartPole-v1")
    for action in ([1, 0], [0, 1], [1, 1]):
        got = ours.step(np.array(action, dtype))
        want = ref.step(np.array(action, np.int32))
        np.testing.assert_array_equal(got[0], want[0])


def test_big_endian_out_of_range_int_is_reported_as_its_value():
    env = envpool_lite.make("CartPole-v1", num_envs=2)
    env.reset()
    with pytest.raises(ValueError, match=r"action 7 out of range"):
        env.step(np.array([7, 0], ">i4"))


def test_float64_beyond_float32_is_rejected_not_made_inf():
    env = envpool_lite.make("Pendulum-v1", num_envs=2)
    env.reset()
    with pytest.raises(ValueError, match="1e\\+39 is not a finite float32"):
        env.step(np.array([[1e39], [0.0]]))
    assert env.step(np.zeros((2, 1), np.float32))[0].shape == (2, 3)


@pytest.mark.parametrize("dtype", [np.uint64, np.uint32])
def test_unsigned_ids_and_actions_are_reported_as_given(dtype):
    env = envpool_lite.make("CartPole-v1", num_envs=2)
    env.reset()
    big = np.iinfo(dtype).max
    with pytest.raises(ValueError, match=f"env_id {big} out of range"):
        env.step(np.zeros(1, np.int32), np.array([big], dtype))
    with pytest.raises(ValueError, match=f"action {big} out of range"):
        env.step(np.array([big, 0], dtype))


@pytest.mark.parametrize(
    "task,option,value",
    [
        ("Pong-v5", "stack_num", 2**32 + 5),
        ("Pong-v5", "frame_skip", 2**32 + 4),
        ("CartPole-v1", "max_episode_steps", 2**32 + 500),
        ("CartPole-v1", "max_episode_steps", 2**70),
        ("Pendulum-v1", "version", 2**32 + 1),
        ("Dummy-v0", "episode_length", -(2**32) + 10),
    ],
)
def test_int_options_are_range_checked_for_their_cpp_type(task, option, value):
    with pytest.raises(ValueError, match=option):
        envpool_lite.make(task, **{option: value})


@pytest.mark.parametrize(
    "task,option,value",
    [
        ("Pendulum-v1", "g", float("nan")),
        ("Pendulum-v1", "g", float("inf")),
        ("MountainCar-v0", "goal_velocity", float("nan")),
        ("Pong-v5", "repeat_action_probability", float("nan")),
        ("Pong-v5", "repeat_action_probability", 1.5),
    ],
)
def test_float_options_are_checked(task, option, value):
    with pytest.raises(ValueError, match=option):
        envpool_lite.make(task, **{option: value})


def test_pool_options_name_themselves():
    with pytest.raises(ValueError, match="thread_affinity_offset"):
        envpool_lite.make("CartPole-v1", thread_affinity_offset=2**40)
    with pytest.raises(ValueError, match="thread_affinity_offset"):
        envpool_lite.make("CartPole-v1", thread_affinity_offset=(os.cpu_count() or 1))
    env = envpool_lite.make("CartPole-v1", num_envs=2)
    env.reset()
    env.send(np.zeros(2, np.int32))
    with pytest.raises(TypeError, match="timeout"):
        env.recv(timeout="1")
    with pytest.raises(TypeError, match="timeout"):
        env.recv(timeout=True)
    with pytest.raises(ValueError, match="timeout"):
        env.recv(timeout=float("nan"))
    assert env.recv(timeout=float("inf"))[0].shape == (2, 4)  # no limit


@pytest.mark.skipif(not VIZDOOM, reason="ViZDoom not built")
@pytest.mark.parametrize("map_id", ["map02", "map99", "e1m1"])
def test_vizdoom_map_the_wad_lacks_raises(map_id):
    with pytest.raises(ValueError, match=f"map_id: map '{map_id}' is not in basic.wad"):
        envpool_lite.make("Basic-v1", map_id=map_id)


@pytest.mark.parametrize("env_type", ["gymnasium", "gym", "dm"])
@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle"])
def test_copy_and_pickle_raise_and_leave_the_pool_alone(env_type, how):
    env = envpool_lite.make("CartPole-v1", env_type=env_type, num_envs=2)
    env.reset()
    op = {"copy": copy.copy, "deepcopy": copy.deepcopy, "pickle": pickle.dumps}[how]
    with pytest.raises(TypeError, match=f"cannot {how} .*EnvPool\\('CartPole-v1'"):
        op(env)
    import gc

    gc.collect()  # a half-made copy must not close the original when collected
    env.step(np.zeros(2, np.int32))
    env.close()
