"""render() of the Meta-World tasks and benchmark pools, drawn in C++ with
MuJoCo 3.3.0's own renderer (cpp/envs/metaworld/sawyer_env.h, Render),
against metaworld's env.render() (gymnasium's MujocoRenderer on mujoco 3.3.0,
in the reference subprocess) pixel for pixel: the free camera through
episode ends, a named camera, a camera id, sizes other than 480 x 480."""

from __future__ import annotations

import numpy as np
import pytest
from metaworld_alignment import require_task, run_render_aligned

import envpool_lite


def test_free_camera_through_resets():
    # Two envs, frames after the first reset and after steps 3 and 11 (each
    # episode 5 steps: a reset on the way); the free camera set up at the
    # first frame and kept, as gymnasium's viewer keeps it.
    assert run_render_aligned("reach-v3", 12, rows=[3, 11], num_envs=2, max_episode_steps=5) == 6


def test_named_camera_and_size():
    assert run_render_aligned("pick-place-v3", 6, rows=[5], camera_name="corner", render_width=200, render_height=120) == 2


def test_benchmark_pool_camera_id():
    # Each of MT10's ten tasks drawn from its model's camera 2.
    assert run_render_aligned("Meta-World/MT10", 4, rows=[3], num_envs=10, benchmark_kwargs={}, render_camera_id=2, render_width=96, render_height=96) == 20


def test_bad_render_options():
    require_task("reach-v3")
    with pytest.raises(ValueError, match="give one"):
        envpool_lite.make("reach-v3", num_envs=1, camera_name="corner", render_camera_id=1)
    with pytest.raises(Exception, match="no camera 'nope'.*corner"):
        envpool_lite.make("reach-v3", num_envs=1, camera_name="nope", render_mode="rgb_array")
    with pytest.raises(Exception, match="render_camera_id"):
        envpool_lite.make("reach-v3", num_envs=1, render_camera_id=99, render_mode="rgb_array")
    with pytest.raises(ValueError, match="render_width"):
        envpool_lite.make("reach-v3", num_envs=1, render_width=0)
    env = envpool_lite.make("reach-v3", env_type="gymnasium", num_envs=1)
    env.reset()
    with pytest.raises(RuntimeError, match="render_mode"):
        env.render()
    env.close()


def test_render_shape_and_default_size():
    require_task("reach-v3")
    env = envpool_lite.make("MetaWorld/Reach-v3", num_envs=3, render_mode="rgb_array")
    env.reset()
    frames = env.render(np.arange(3))
    assert frames.shape == (3, 480, 480, 3) and frames.dtype == np.uint8
    assert frames.std() > 10  # a picture, not a blank buffer
    env.close()
