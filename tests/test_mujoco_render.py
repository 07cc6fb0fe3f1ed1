"""render_mode="rgb_array" for the MuJoCo tasks: the pictures equal those
gymnasium's own envs draw for the same state (its renderer, default camera,
headless OpenGL: EGL or OSMesa), and a clear error where no headless OpenGL
backend exists."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import envpool_lite
from envpool_lite.families import mujoco as mj

pytestmark = [
    pytest.mark.skipif(not envpool_lite._core.MUJOCO_VERSION, reason="built without MuJoCo"),
    pytest.mark.usefixtures("quiet_gymnasium"),
]


def gl_available() -> bool:
    try:
        mj.gl_backend("test")
        return True
    except RuntimeError:
        return False


# Hopper: a tracking camera; Ant-v4: a free body and the v4 model;
# InvertedPendulum: terminations within a few random steps.
@pytest.mark.parametrize("task", ["Hopper-v5", "Ant-v4", "InvertedPendulum-v5"])
def test_pictures_equal_gymnasium_render(task):
    if not gl_available():
        pytest.skip("no headless OpenGL backend (EGL/OSMesa) here")
    n, seed, limit = 2, 3, 4
    ours = envpool_lite.make(task, num_envs=n, seed=seed, render_mode="rgb_array", max_episode_steps=limit)
    ref = gymnasium.make_vec(task, num_envs=n, vectorization_mode="sync", render_mode="rgb_array", max_episode_steps=limit)
    try:
        ours.reset()
        ref.reset(seed=seed)
        rng = np.random.default_rng(0)
        space = ours.single_action_space
        for t in range(limit + 3):  # through a truncation and the reset after it
            frames, expected = ours.render(), ref.render()
            assert len(frames) == n
            for i in range(n):
                assert frames[i].dtype == np.uint8 and frames[i].shape == (480, 480, 3)
                np.testing.assert_array_equal(frames[i], expected[i], err_msg=f"{task} env {i} step {t}")
            actions = rng.uniform(space.low, space.high, size=(n, *space.shape)).astype(np.float32)
            ours.step(actions)
            ref.step(actions)
        # EnvPool's form on the gym face: env 0's picture, (1, H, W, 3).
        gym_face = envpool_lite.make(task, env_type="gym", num_envs=1, seed=seed, render_mode="rgb_array")
        gym_face.reset()
        assert gym_face.render().shape == (1, 480, 480, 3)
        gym_face.close()
    finally:
        ours.close()
        ref.close()


def test_no_headless_gl_is_a_clear_error(monkeypatch):
    """Neither backend can make a context (stand-ins that fail, MUJOCO_GL
    unset): make() with render_mode names MuJoCo and both backends; without
    render_mode the task still runs."""
    monkeypatch.delenv("MUJOCO_GL", raising=False)
    monkeypatch.setattr(mj, "_backend", None)
    monkeypatch.setattr(mj, "_backend_errors", {})
    monkeypatch.setattr(mj, "_HEADLESS_BACKENDS", ("no-egl-here", "no-osmesa-here"))
    with pytest.raises(RuntimeError) as e:
        envpool_lite.make("Hopper-v5", num_envs=1, render_mode="rgb_array")
    message = str(e.value)
    for word in ("Hopper-v5", "MuJoCo", "headless OpenGL", "EGL", "OSMesa", "MUJOCO_GL", "no-egl-here", "no-osmesa-here"):
        assert word in message, message
    env = envpool_lite.make("Hopper-v5", num_envs=1)
    env.reset()
    env.close()
