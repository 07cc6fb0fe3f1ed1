"""dm_control from pixels and render(): frames drawn by the envs' own
threads equal dm_control's physics.render(height, width, camera_id) pixel for
pixel on the same OpenGL backend (MUJOCO_GL), through episode ends; action_repeat
and frame_stack equal DrQ's action-repeat and frame-stack wrappers around
dm_control; bad sizes and cameras are clear errors."""

from __future__ import annotations

import numpy as np
import pytest
from dm_control_alignment import reference

import envpool_lite
from envpool_lite import families


class DrQReference:
    """suite.load, then DrQ's wrappers: action repeat (reward += r *
    discount, discount *= d, stop at the last step), pixels (physics.render
    after the repeats), frame stack (channels first, the first frame repeated
    at reset)."""

    def __init__(self, domain, task, seed, skip, stack, height, width, camera_id, time_limit=None):
        self.env = reference(domain, task, seed, time_limit)
        self.skip, self.stack, self.size, self.camera_id = skip, stack, (height, width), camera_id
        self.frames = []

    def _frame(self):
        return self.env.physics.render(*self.size, camera_id=self.camera_id).transpose(2, 0, 1)

    def reset(self):
        self.env.reset()
        self.frames = [self._frame()] * self.stack
        return np.concatenate(self.frames), 0.0, False

    def step(self, action):
        reward, discount = 0.0, 1.0
        for _ in range(self.skip):
            ts = self.env.step(action)
            reward += (ts.reward or 0.0) * discount
            discount *= ts.discount
            if ts.last():
                break
        self.frames = [*self.frames[1:], self._frame()]
        return np.concatenate(self.frames), reward, ts.last()


@pytest.mark.parametrize(
    "task_id, domain, task, options",
    [
        ("CheetahRun-v1", "cheetah", "run", {}),
        ("WalkerWalk-v1", "walker", "walk", {"camera_id": -1, "img_height": 64, "img_width": 48}),
        ("CartpoleSwingup-v1", "cartpole", "swingup", {"action_repeat": 8, "frame_stack": 3}),
        ("HumanoidRun-v1", "humanoid", "run", {"camera_id": 1, "action_repeat": 3, "frame_stack": 2}),
    ],
)
def test_pixels_equal_dm_control(task_id, domain, task, options):
    skip, stack = options.get("action_repeat", 1), options.get("frame_stack", 1)
    height, width, camera = options.get("img_height", 84), options.get("img_width", 84), options.get("camera_id", 0)
    env = envpool_lite.make_dm(task_id, num_envs=2, seed=7, from_pixels=True, task_kwargs={"time_limit": 0.25}, **options)
    refs = [DrQReference(domain, task, 7 + i, skip, stack, height, width, camera, time_limit=0.25) for i in range(2)]
    assert env.observation_spec().pixels.shape == (3 * stack, height, width)
    rng = np.random.default_rng(0)
    nu = refs[0].env.action_spec().shape[0]
    ts = env.reset()
    expected = [(*r.reset(), 0) for r in refs]  # pixels, reward, last, step type
    ends = 0
    for t in range(40):
        for i, (pixels, reward, last, step_type) in enumerate(expected):
            where = f"{task_id} step {t} env {i}"
            assert np.array_equal(ts.observation.pixels[i], pixels), f"{where}: {np.count_nonzero(ts.observation.pixels[i] != pixels)} values differ"
            assert ts.reward[i] == reward, where
            assert int(ts.step_type[i]) == step_type, where
            ends += last
        action = rng.uniform(-1, 1, size=(2, nu))
        ts = env.step(action)
        # an env whose episode ended starts a new one (the action is unused)
        expected = [(*r.reset(), 0) if e[2] else (*(out := r.step(action[i])), 2 if out[2] else 1) for i, (r, e) in enumerate(zip(refs, expected))]
    assert ends >= 2
    env.close()


@pytest.mark.parametrize("task_id", families.task_ids("dm_control"))
def test_render_every_task(task_id):
    """render(): physics.render(240, 320, camera_id=-1), dm_control's
    defaults, after a reset and a step."""
    internal = envpool_lite.make_spec(task_id)._internal
    domain, task = internal["domain_name"], internal["task_name"]
    env = envpool_lite.make_dm(task_id, num_envs=1, seed=2, render_mode="rgb_array")
    ref = reference(domain, task, 2)
    env.reset()
    ref.reset()
    action = np.zeros(ref.action_spec().shape)
    env.step(action[None])
    ref.step(action)
    frame = env.render()
    assert frame.shape == (1, 240, 320, 3)
    assert np.array_equal(frame[0], ref.physics.render(240, 320, camera_id=-1))
    env.close()


def test_bad_pixel_options():
    with pytest.raises(ValueError, match="camera"):
        envpool_lite.make_dm("CheetahRun-v1", from_pixels=True, camera_id=7)
    with pytest.raises(ValueError, match="img_height must be in"):
        envpool_lite.make_dm("CheetahRun-v1", from_pixels=True, img_height=0)
    with pytest.raises(ValueError, match="offscreen"):
        envpool_lite.make_dm("CheetahRun-v1", from_pixels=True, img_width=100000)
    with pytest.raises(ValueError, match="flat_observation"):
        envpool_lite.make_dm("CheetahRun-v1", from_pixels=True, environment_kwargs={"flat_observation": True})
