"""A smoke test of every family, on whatever install runs it (the editable
build, a wheel in a venv, the clean Debian root of scripts/cleanroom.sh):
make, reset, 100 steps, render() where the family draws, and xla() where
JAX is installed. The alignment tests (tests/cleanroom_alignment.txt names
one per family) check the values; this checks that each family's pieces are
all in the install (its compiled code, the files the wheel carries, the
extras' packages)."""

from __future__ import annotations

import numpy as np
import pytest

import envpool_lite
from envpool_lite import families

# One task of each family: every family of the build has one here.
TASKS = {
    "atari": "Pong-v5",
    "box2d": "CarRacing-v3",
    "classic_control": "CartPole-v1",
    "dm_control": "CheetahRun-v1",
    "gymnasium_robotics": "FetchPush-v4",
    "highway": "highway-v0",
    "metaworld": "reach-v3",
    "minigrid": "MiniGrid-DoorKey-8x8-v0",
    "mujoco": "HalfCheetah-v5",
    "myosuite": "myoElbowPose1D6MRandom-v0",
    "pgx": "connect_four",
    "procgen": "BigfishEasy-v0",
    "testing": "Dummy-v0",
    "toy_text": "FrozenLake-v1",
    "vizdoom": "D1Basic-v1",
}
# The families whose tasks draw (render_mode="rgb_array").
# Meta-World's render() is not built yet (issue 41): its pictures need
# MuJoCo 3.3.0's renderer, which the mujoco package (3.17.0) is not.
# pgx draws its games as SVG in Python; the port has no render() yet.
# MyoSuite's render() (myosuite's offscreen renderer on MuJoCo 3.6.0) is
# not built yet (issue 61).
NO_PICTURES = {"testing", "metaworld", "pgx", "myosuite"}


def test_every_family_has_a_smoke_task():
    assert set(families.names()) <= set(TASKS), sorted(set(families.names()) - set(TASKS))


@pytest.mark.parametrize("family", sorted(TASKS))
def test_make_reset_step_render(family):
    if family not in families.names():
        pytest.skip(f"{family} is not in this build")
    task = TASKS[family]
    render_mode = None if family in NO_PICTURES else "rgb_array"
    env = envpool_lite.make(task, num_envs=2, batch_size=2, seed=7, render_mode=render_mode)
    try:
        obs, info = env.reset()
        env.single_action_space.seed(0)
        rewards = []
        for _ in range(100):
            obs, reward, terminated, truncated, info = env.step(np.stack([env.single_action_space.sample() for _ in range(2)]))
            rewards.append(reward)
            assert terminated.shape == truncated.shape == (2,), task
        assert np.all(np.isfinite(np.asarray(rewards, dtype=np.float64))), task
        if render_mode:
            frames = env.render()
            assert frames.dtype == np.uint8 and frames.ndim == 4 and frames.shape[0] == 2 and frames.shape[-1] == 3, frames.shape
            assert frames.max() > frames.min(), f"{task}: a blank picture"
    finally:
        env.close()


def test_xla_where_jax_is_installed():
    pytest.importorskip("jax")
    import jax

    env = envpool_lite.make("CartPole-v1", env_type="gym", num_envs=2)
    try:
        handle, recv, send, step = env.xla()
        env.reset()
        handle, (obs, reward, done, info) = jax.jit(step)(handle, np.zeros(2, dtype=np.int32))
        assert np.asarray(obs).shape == (2, 4) and np.asarray(reward).tolist() == [1.0, 1.0]
    finally:
        env.close()
