"""The alignment of dm_control's manipulator, stacker and lqr domains with
dm_control 1.0.50 (tests/dm_control/dm_control_alignment.py)."""

from __future__ import annotations

import numpy as np
import pytest
from dm_control_alignment import assert_aligned

import envpool_lite

MANIPULATOR = [
    ("ManipulatorBringBall-v1", "manipulator", "bring_ball"),
    ("ManipulatorBringPeg-v1", "manipulator", "bring_peg"),
    ("ManipulatorInsertBall-v1", "manipulator", "insert_ball"),
    ("ManipulatorInsertPeg-v1", "manipulator", "insert_peg"),
]
STACKER = [("StackerStack2-v1", "stacker", "stack_2"), ("StackerStack4-v1", "stacker", "stack_4")]


@pytest.mark.parametrize("task_id, domain, task", MANIPULATOR + STACKER)
def test_aligned_through_time_limits(task_id, domain, task):
    """Episodes of 0.5 s (50 steps): touches, grasps and auto-resets, the
    model's target poses redrawn each episode."""
    counts = assert_aligned(task_id, domain, task, steps=110, num_envs=3, time_limit=0.5)
    assert counts["truncated"] == 6


@pytest.mark.parametrize("task_id, domain, task", MANIPULATOR + STACKER)
def test_initial_states(task_id, domain, task):
    """Many resets (episodes of 2 steps): every branch of the initial-state
    draws (manipulator's object in hand, in target or anywhere) and the
    rejection of penetrating configurations."""
    counts = assert_aligned(task_id, domain, task, steps=90, num_envs=4, seed=20, time_limit=0.02)
    assert counts["truncated"] == 120


def test_manipulator_full_episode():
    """The task's own 10 s limit (1000 steps), then the next episode; its
    touches include values whose np.log1p (numpy's SVML loop with AVX-512)
    differs from libm's log1p."""
    counts = assert_aligned("ManipulatorBringPeg-v1", "manipulator", "bring_peg", steps=1010, num_envs=1, seed=5)
    assert counts["truncated"] == 1


# --- lqr: the model drawn from the seed, the suite's one termination ------

LQR = [("LqrLqr21-v1", "lqr", "lqr_2_1"), ("LqrLqr62-v1", "lqr", "lqr_6_2")]


@pytest.mark.parametrize("task_id, domain, task", LQR)
def test_lqr_aligned(task_id, domain, task):
    """Each env's stiffnesses drawn from its seed (3 + i): episodes of 3 s
    (100 steps) through time limits and auto-resets."""
    counts = assert_aligned(task_id, domain, task, steps=210, num_envs=3, time_limit=3.0)
    assert counts["truncated"] == 6


@pytest.mark.parametrize("task_id, domain, task", LQR)
def test_lqr_no_time_limit(task_id, domain, task):
    """The default time limit is infinite. (Random actions make lqr_6_2
    unstable after some 280 steps: a PhysicsError in both.)"""
    counts = assert_aligned(task_id, domain, task, steps=250, num_envs=2, seed=8)
    assert counts == {"truncated": 0, "terminated": 0}


@pytest.mark.parametrize("task", ["lqr_2_1", "lqr_6_2"])
def test_lqr_model_redrawn_equals_seed_model(task):
    """The design's premise: the random=0 model with a seed's stiffness and
    damping written in equals, field by field, the model that seed's XML
    compiles."""
    import mujoco
    from dm_control import suite

    from envpool_lite.families.dm_control import model_and_assets

    def compile_model(seed):
        xml, names, data = model_and_assets("lqr", task, seed)
        return mujoco.MjModel.from_xml_string(xml.decode(), dict(zip(names, data, strict=True)))

    base = compile_model(0)
    for seed in (1, 5, 123456):
        want = suite.load("lqr", task, task_kwargs={"random": seed}).physics.model
        assert compile_model(seed).jnt_stiffness.tolist() == want.jnt_stiffness.tolist()
        got = compile_model(0)
        got.jnt_stiffness[:] = want.jnt_stiffness
        got.dof_damping[:] = want.dof_damping
        fields = [f for f in dir(want._model) if not f.startswith("_")]
        compared = 0
        for f in fields:
            a, b = getattr(got, f, None), getattr(want.ptr, f, None)
            if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
                assert a.shape == b.shape and np.array_equal(a, b, equal_nan=True), f
                compared += 1
        assert compared > 50
        assert not np.array_equal(base.jnt_stiffness, want.jnt_stiffness)


def test_lqr_termination():
    """dm_control's optimal LQR policy (suite/lqr_solver.py, for a control
    cost of 1e-5 to converge fast) brings the state norm under 1e-6 in some
    600 steps: the episode ends with discount 0, then auto-resets."""
    import types

    from dm_control import suite
    from dm_control.suite import lqr_solver

    env = envpool_lite.make_dm("LqrLqr21-v1", num_envs=2, seed=4)
    refs = [suite.load("lqr", "lqr_2_1", task_kwargs={"random": 4 + i}) for i in range(2)]
    cheap = types.SimpleNamespace(control_cost_coef=1e-5)
    gains = [lqr_solver.solve(types.SimpleNamespace(physics=r.physics, task=cheap))[1] for r in refs]
    try:
        ts = env.reset()
        rts = [r.reset() for r in refs]
        terminated = [0, 0]
        for t in range(900):
            for i, r in enumerate(rts):
                where = f"env {i} step {t}"
                assert int(ts.step_type[i]) == int(r.step_type), where
                for k in ("position", "velocity"):
                    assert np.array_equal(ts.observation[k][i], r.observation[k]), where
                assert ts.reward[i] == (0.0 if r.reward is None else r.reward), where
                if r.discount is not None:
                    assert ts.discount[i] == r.discount, where
                if r.last():
                    assert r.discount == 0.0, where
                    terminated[i] += 1
            action = np.stack([g @ r.physics.state() for g, r in zip(gains, refs, strict=True)])
            ts = env.step(action)
            rts = [r.step(action[i]) for i, r in enumerate(refs)]
        assert terminated == [1, 1], terminated
    finally:
        env.close()


def test_lqr_reseed():
    """reset(seed=s) is a new suite.load(random=s + i): its model too."""
    from dm_control import suite

    env = envpool_lite.make_gymnasium("LqrLqr62-v1", num_envs=2, seed=3)
    try:
        obs, _ = env.reset(seed=10)
        refs = [suite.load("lqr", "lqr_6_2", task_kwargs={"random": 10 + i}) for i in range(2)]
        rts = [r.reset() for r in refs]
        rng = np.random.default_rng(0)
        for _ in range(50):
            for i, r in enumerate(rts):
                assert np.array_equal(obs["position"][i], r.observation["position"])
                assert np.array_equal(obs["velocity"][i], r.observation["velocity"])
            action = rng.uniform(-1, 1, size=(2, 2))
            obs, rew, term, trunc, _ = env.step(action)
            rts = [r.step(action[i]) for i, r in enumerate(refs)]
            assert rew.tolist() == [r.reward for r in rts]
    finally:
        env.close()
