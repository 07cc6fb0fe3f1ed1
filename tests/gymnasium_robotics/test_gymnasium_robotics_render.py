"""render_mode="rgb_array" for the gymnasium_robotics tasks: each picture
equals the one gymnasium-robotics' own env draws for the same state (its
renderer, camera and size, headless OpenGL), through an episode end and the
auto-reset after it."""

from __future__ import annotations

import numpy as np
import pytest

import envpool_lite
from envpool_lite.refkit import mujoco_lib as mj

pytest.importorskip("gymnasium_robotics")
from gymnasium_robotics_alignment import reference_env  # noqa: E402

from envpool_lite.families.gymnasium_robotics import reference_id  # noqa: E402

pytestmark = [pytest.mark.skipif(not envpool_lite._core.MUJOCO_VERSION, reason="built without MuJoCo")]


def gl_available() -> bool:
    try:
        mj.gl_backend("test")
        return True
    except RuntimeError:
        return False


# A moved goal site (Fetch), touch sites coloured by the sensors (Hand), a
# free camera aimed per env (AntMaze), a maze.
RENDERED = ["FetchPush-v4", "FetchReach-v1", "HandManipulateBlockRotateZ_BooleanTouchSensors-v1", "HandReach-v3", "AntMaze_UMaze-v5", "PointMaze_UMaze-v3"]


@pytest.mark.parametrize("task_id", RENDERED)
def test_pictures_equal_reference(task_id):
    if not gl_available():
        pytest.skip("no headless OpenGL backend (EGL/OSMesa) here")
    n, seed, limit = 2, 3, 3
    pool = envpool_lite.make(task_id, env_type="gymnasium", num_envs=n, seed=seed, render_mode="rgb_array", max_episode_steps=limit, render_width=240, render_height=200)
    refs = [reference_env(reference_id(task_id), render_mode="rgb_array", width=240, height=200) for _ in range(n)]
    pool.reset()
    for i, ref in enumerate(refs):
        ref.reset(seed=seed + i)
    rng = np.random.default_rng(0)
    elapsed = [0] * n
    space = pool.single_action_space
    for t in range(limit + 3):  # through a truncation and the reset after it
        frames = pool.render()
        assert frames.shape == (n, 200, 240, 3) and frames.dtype == np.uint8
        for i, ref in enumerate(refs):
            np.testing.assert_array_equal(frames[i], ref.render(), err_msg=f"{task_id} env {i} step {t}")
        actions = rng.uniform(space.low, space.high, (n,) + space.shape).astype(np.float32)
        pool.step(actions)
        for i, ref in enumerate(refs):
            if elapsed[i] == limit:  # the pool's NEXT_STEP auto-reset
                ref.reset()
                elapsed[i] = 0
            else:
                ref.step(actions[i])
                elapsed[i] += 1
    pool.close()
    for ref in refs:
        ref.close()
