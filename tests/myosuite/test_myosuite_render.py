"""render() of MyoSuite tasks pixel for pixel myosuite's offscreen renderer
(MJRenderer.render_offscreen, mujoco.Renderer on MuJoCo 3.6.0) at the same
size and camera, after the reset and each step."""

from __future__ import annotations

import base64

import numpy as np
import pytest
from myosuite_alignment import actions_for, reference, require_oracle

import envpool_lite
from envpool_lite.refkit import mujoco_lib


def require_gl() -> None:
    try:
        mujoco_lib.gl_backend("MyoSuite's render()")
    except RuntimeError as e:
        pytest.skip(str(e))


CASES = [
    # The elbow and the hand from MuJoCo's default free camera, at
    # myosuite's default size and a small one; the legs over stairs.
    ("myoElbowPose1D6MRandom-v0", 640, 480, -1),
    ("myoHandReachRandom-v0", 160, 120, -1),
    ("myoLegStairTerrainWalk-v0", 96, 64, -1),
    # The bimanual pass: its box's mesh rotated and centred at the setup.
    ("myoChallengeBimanual-v0", 200, 150, -1),
    ("myoChallengeTableTennisP2-v0", 160, 120, -1),
    ("myoChallengeSoccerP2-v0", 120, 90, -1),
    # Chase tag's drawn terrain (uploaded when the renderer is made, at the
    # first picture), from the opponent's camera.
    ("myoChallengeChaseTagP2-v0", 96, 72, 0),
]


@pytest.mark.parametrize(("task_id", "width", "height", "camera"), CASES)
def test_pictures_equal_myosuite(task_id, width, height, camera):
    require_oracle()
    require_gl()
    opts = {"render_width": width, "render_height": height, "render_camera_id": camera}
    env = envpool_lite.make_gymnasium(task_id, num_envs=1, seed=4, render_mode="rgb_array", **opts)
    actions = actions_for(env.spec, 1, 4, seed=9)[0]
    try:
        env.reset()
        ours = [env.render()[0].copy()]
        for a in actions:
            env.step(a[None])
            ours.append(env.render()[0].copy())
    finally:
        env.close()
    request = [{"task_id": task_id, "seed": 4, "width": width, "height": height, "camera_id": camera, "actions": [base64.b64encode(a.tobytes()).decode() for a in actions]}]
    theirs = reference("render", request)[0]
    assert len(theirs) == len(ours)
    for t, (a, b) in enumerate(zip(ours, theirs)):
        want = np.frombuffer(base64.b64decode(b), np.uint8).reshape(height, width, 3)
        assert a.shape == want.shape
        assert want.std() > 0, "the reference drew a blank picture"
        np.testing.assert_array_equal(a, want, err_msg=f"{task_id}: frame {t}")


def test_render_size_must_fit_the_buffer():
    with pytest.raises(ValueError, match="offscreen buffer"):
        envpool_lite.make_gymnasium("myoElbowPose1D6MRandom-v0", num_envs=1, render_mode="rgb_array", render_width=4000)
