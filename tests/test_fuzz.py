"""A hypothesis state machine drives random sequences of make / send / recv /
step / reset / close with valid and invalid arguments against a model of
which envs are in flight. Invalid calls must raise a Python exception and
change nothing; valid ones must stay consistent (every env id sent comes
back exactly once); nothing may crash or hang (every recv has a timeout)."""

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule, run_state_machine_as_test

import envpool_lite

RECV_TIMEOUT = 10.0  # generous: a hang fails the test instead of the suite
BAD_INPUTS = {"count": 0}  # how many invalid calls the run tried


class PoolMachine(RuleBasedStateMachine):
    @initialize(
        task=st.sampled_from(["Dummy-v0", "CartPole-v1", "Pendulum-v1"]),
        num_envs=st.integers(1, 6),
        batch_frac=st.floats(0.1, 1.0),
        num_threads=st.integers(0, 3),
    )
    def make(self, task, num_envs, batch_frac, num_threads):
        self.batch_size = max(1, int(num_envs * batch_frac))
        self.env = envpool_lite.make(task, num_envs=num_envs, batch_size=self.batch_size, num_threads=num_threads, seed=0)
        self.num_envs = num_envs
        self.space = self.env.spec.action_space
        self.in_flight: set[int] = set()
        self.closed = False
        self.env.async_reset()
        self.in_flight = set(range(num_envs))

    # --- helpers -----------------------------------------------------------
    def actions(self, n, rng):
        if hasattr(self.space, "n"):
            return rng.integers(0, self.space.n, n).astype(np.int32)
        return rng.uniform(-3, 3, (n, *self.space.shape)).astype(np.float32)

    def awaiting(self):
        return sorted(set(range(self.num_envs)) - self.in_flight)

    def expect_error(self, call, errors=(ValueError, TypeError, RuntimeError)):
        BAD_INPUTS["count"] += 1
        before = self.env._pool.in_flight if not self.closed else None
        with pytest.raises(errors):
            call()
        if not self.closed:
            assert self.env._pool.in_flight == before  # nothing changed

    def received(self, info):
        ids = info["env_id"].tolist()
        assert len(ids) == len(set(ids)), "an env came back twice in one batch"
        assert set(ids) <= self.in_flight, "an env came back that was not sent"
        assert len(ids) == min(self.batch_size, len(self.in_flight))
        self.in_flight -= set(ids)
        return ids

    # --- valid calls -----------------------------------------------------
    @precondition(lambda self: not self.closed)
    @rule(data=st.data(), seed=st.integers(0, 2**16))
    def send_some(self, data, seed):
        awaiting = self.awaiting()
        if not awaiting:
            return
        ids = data.draw(st.lists(st.sampled_from(awaiting), min_size=1, unique=True))
        self.env.send(self.actions(len(ids), np.random.default_rng(seed)), np.array(ids))
        self.in_flight |= set(ids)

    @precondition(lambda self: not self.closed and self.in_flight)
    @rule()
    def recv(self):
        obs, rew, term, trunc, info = self.env.recv(timeout=RECV_TIMEOUT)
        ids = self.received(info)
        assert obs.shape[0] == rew.shape[0] == len(ids)
        assert rew.dtype == np.float32 and term.dtype == np.bool_

    @precondition(lambda self: not self.closed)
    @rule(data=st.data(), seed=st.integers(0, 2**16))
    def step_some(self, data, seed):
        awaiting = self.awaiting()
        if not awaiting:
            return
        ids = data.draw(st.lists(st.sampled_from(awaiting), min_size=1, unique=True))
        self.in_flight |= set(ids)
        obs, rew, term, trunc, info = self.env.step(self.actions(len(ids), np.random.default_rng(seed)), np.array(ids))
        self.received(info)

    @precondition(lambda self: not self.closed)
    @rule()
    def reset_all(self):
        obs, info = self.env.reset()
        self.in_flight = set(range(self.num_envs))
        self.received(info)
        assert (info["elapsed_step"] == 0).all()

    @precondition(lambda self: not self.closed)
    @rule(data=st.data())
    def reset_some(self, data):
        awaiting = self.awaiting()
        if not awaiting:
            return
        ids = data.draw(st.lists(st.sampled_from(awaiting), min_size=1, unique=True))
        self.in_flight |= set(ids)
        obs, info = self.env.reset(env_id=np.array(ids))
        self.received(info)

    @precondition(lambda self: not self.closed)
    @rule()
    def close(self):
        self.env.close()
        self.closed = True

    # --- invalid calls ---------------------------------------------------
    @precondition(lambda self: not self.closed)
    @rule(data=st.data())
    def send_invalid_ids(self, data):
        kind = data.draw(st.sampled_from(["range", "negative", "dup", "in_flight", "float"]))
        awaiting = self.awaiting()
        if kind == "range":
            ids = [self.num_envs + data.draw(st.integers(0, 5))]
        elif kind == "negative":
            ids = [-1 - data.draw(st.integers(0, 5))]
        elif kind == "dup" and awaiting:
            ids = [awaiting[0], awaiting[0]]
        elif kind == "in_flight" and self.in_flight:
            ids = [min(self.in_flight)]
        elif kind == "float":
            self.expect_error(lambda: self.env.send(self.actions(1, np.random.default_rng(0)), np.array([0.5])))
            return
        else:
            return
        self.expect_error(lambda: self.env.send(self.actions(len(ids), np.random.default_rng(0)), np.array(ids)))

    @precondition(lambda self: not self.closed)
    @rule(data=st.data())
    def send_invalid_actions(self, data):
        awaiting = self.awaiting()
        if not awaiting:
            return
        ids = np.array(awaiting[:1])
        discrete = hasattr(self.space, "n")
        kind = data.draw(st.sampled_from(["shape", "too_many", "nan", "range", "dtype", "object"]))
        if kind == "shape":
            action = np.zeros((1, 7), np.float32)
        elif kind == "too_many":
            action = self.actions(2, np.random.default_rng(0))
        elif kind == "nan":
            action = np.full((1, *self.space.shape), np.nan, np.float32) if not discrete else np.array([np.nan])
        elif kind == "range" and discrete:
            action = np.array([self.space.n + data.draw(st.integers(0, 100))])
        elif kind == "dtype":
            action = np.array(["x"])
        elif kind == "object":
            action = np.array([object()], dtype=object)
        else:
            return
        self.expect_error(lambda: self.env.send(action, ids))

    @precondition(lambda self: not self.closed and not self.in_flight)
    @rule()
    def recv_nothing_in_flight(self):
        self.expect_error(lambda: self.env.recv(timeout=RECV_TIMEOUT), RuntimeError)

    @precondition(lambda self: self.closed)
    @rule(call=st.sampled_from(["send", "recv", "step", "reset", "async_reset"]))
    def call_after_close(self, call):
        calls = {
            "send": lambda: self.env.send(np.zeros(1, np.int32), np.array([0])),
            "recv": lambda: self.env.recv(timeout=1.0),
            "step": lambda: self.env.step(np.zeros(1, np.int32), np.array([0])),
            "reset": lambda: self.env.reset(),
            "async_reset": lambda: self.env.async_reset(),
        }
        self.expect_error(calls[call], RuntimeError)

    @invariant()
    def model_matches_pool(self):
        if not self.closed:
            assert self.env._pool.in_flight == len(self.in_flight)

    def teardown(self):
        self.env.close()


def test_pool_under_random_calls():
    """The state machine's runs, then a check that they did try invalid
    input. One test, so that pytest-xdist cannot run the check on a worker
    that never ran the machine (it did so with TestPool and the check as two
    tests: the count was then 0)."""
    BAD_INPUTS["count"] = 0
    run_state_machine_as_test(PoolMachine, settings=settings(max_examples=300, stateful_step_count=50, deadline=None, suppress_health_check=[HealthCheck.too_slow]))
    assert BAD_INPUTS["count"] > 100, BAD_INPUTS
    print(f"\nfuzzing tried {BAD_INPUTS['count']} invalid calls")
