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
from envpool_lite.refkit import mujoco_lib

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


def test_render_size_and_camera_draw_natively_as_gymnasium_does():
    """make(render_width=, render_height=, render_camera_id=), EnvPool 1.x's
    options: MuJoCo draws at that size from that camera (no resize), the
    picture gymnasium's env made with width=, height=, camera_id= draws; a
    camera the model lacks is a clear error."""
    if not gl_available():
        pytest.skip("no headless OpenGL backend (EGL/OSMesa) here")
    task, seed = "Hopper-v5", 5
    for size, camera in [((96, 64), -1), ((80, 120), 0)]:
        options = dict(render_width=size[0], render_height=size[1], render_camera_id=camera)
        ours = envpool_lite.make(task, num_envs=1, seed=seed, render_mode="rgb_array", **options)
        ref_options = dict(width=size[0], height=size[1], **({"camera_id": camera} if camera != -1 else {}))
        ref = gymnasium.make(task, render_mode="rgb_array", **ref_options)
        try:
            ours.reset()
            ref.reset(seed=seed)
            for t in range(3):
                frame, expected = ours.render()[0], ref.render()
                assert frame.shape == (size[1], size[0], 3)
                np.testing.assert_array_equal(frame, expected, err_msg=f"{options} step {t}")
                action = np.full(ours.single_action_space.shape, 0.3 * (t - 1), np.float32)
                ours.step(action[None])
                ref.step(action)
        finally:
            ours.close()
            ref.close()
    env = envpool_lite.make(task, num_envs=1, render_mode="rgb_array", render_camera_id=7)
    env.reset()
    with pytest.raises(ValueError, match="render_camera_id must be -1"):
        env.render()
    env.close()


def test_no_headless_gl_is_a_clear_error(monkeypatch):
    """Neither backend can make a context (stand-ins that fail, MUJOCO_GL
    unset): make() with render_mode names MuJoCo and both backends; without
    render_mode the task still runs."""
    monkeypatch.delenv("MUJOCO_GL", raising=False)
    monkeypatch.setattr(mujoco_lib, "_backend", None)
    monkeypatch.setattr(mujoco_lib, "_backend_errors", {})
    monkeypatch.setattr(mujoco_lib, "_HEADLESS_BACKENDS", ("no-egl-here", "no-osmesa-here"))
    with pytest.raises(RuntimeError) as e:
        envpool_lite.make("Hopper-v5", num_envs=1, render_mode="rgb_array")
    message = str(e.value)
    for word in ("Hopper-v5", "MuJoCo", "headless OpenGL", "EGL", "OSMesa", "MUJOCO_GL", "no-egl-here", "no-osmesa-here"):
        assert word in message, message
    env = envpool_lite.make("Hopper-v5", num_envs=1)
    env.reset()
    env.close()
