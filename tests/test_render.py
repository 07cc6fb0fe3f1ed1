"""render(): pictures equal to the reference's own renderer for the same
state (gymnasium's for classic control, ALE's for Atari; ViZDoom's are in
test_vizdoom.py), EnvPool's batched form and gymnasium's vector form, the
errors, and gymnasium's RecordVideo on a pool."""

from collections.abc import Sequence

import gymnasium
import numpy as np
import pytest

import envpool_lite

# gymnasium's passive env checker notes and old-version warnings, not ours.
pytestmark = pytest.mark.usefixtures("quiet_gymnasium")

CLASSIC = ["CartPole-v0", "CartPole-v1", "Acrobot-v1", "MountainCar-v0", "MountainCarContinuous-v0", "Pendulum-v1"]


@pytest.mark.parametrize("task", CLASSIC)
def test_classic_pictures_equal_gymnasium_render(task):
    """Same seed, same actions: every env's picture equals the one
    gymnasium's SyncVectorEnv draws, pixel for pixel, through episode ends
    (short time limits) and both state dtypes (after reset and after steps)."""
    n, seed, limit = 2, 3, 12
    ours = envpool_lite.make(task, num_envs=n, seed=seed, render_mode="rgb_array", max_episode_steps=limit)
    ref = gymnasium.make_vec(task, num_envs=n, vectorization_mode="sync", render_mode="rgb_array", max_episode_steps=limit)
    try:
        ours.reset()
        ref.reset(seed=seed)
        rng = np.random.default_rng(0)
        space = ours.single_action_space
        for t in range(2 * limit + 3):
            frames, expected = ours.render(), ref.render()
            assert isinstance(frames, Sequence) and len(frames) == n and frames.shape[0] == n
            for i in range(n):
                assert frames[i].dtype == np.uint8 and frames[i].shape == expected[i].shape
                np.testing.assert_array_equal(frames[i], expected[i], err_msg=f"{task} env {i} step {t}")
            if hasattr(space, "n"):
                actions = rng.integers(0, space.n, n)
            else:
                actions = rng.uniform(space.low, space.high, (n, *space.shape)).astype(np.float32)
            ours.step(actions)
            ref.step(actions)
    finally:
        ours.close()
        ref.close()


def test_envpool_batched_form_and_repeatability():
    for env_type in ["gymnasium", "gym", "dm"]:
        env = envpool_lite.make("Pong-v5", env_type=env_type, num_envs=3, render_mode="rgb_array")
        env.reset()
        both = env.render(env_ids=[2, 0])
        assert both.shape == (2, 210, 160, 3) and both.dtype == np.uint8
        np.testing.assert_array_equal(both[1], env.render(env_ids=0)[0])
        np.testing.assert_array_equal(both[0], env.render(env_ids=np.array([2]))[0])
        np.testing.assert_array_equal(both, env.render(env_ids=[2, 0]))  # no side effects
        if env_type == "gymnasium":  # gymnasium's VectorEnv.render(): every env
            frames = env.render()
            assert isinstance(frames, Sequence) and frames.shape == (3, 210, 160, 3)
            np.testing.assert_array_equal(frames[0], both[1])
        else:  # EnvPool's render(): env 0
            np.testing.assert_array_equal(env.render(), both[1:])
        env.close()


def test_render_costs_nothing_unless_asked_and_errors_are_clear():
    env = envpool_lite.make("CartPole-v1", num_envs=4, batch_size=2)
    env.async_reset()
    with pytest.raises(RuntimeError, match="render_mode='rgb_array'"):
        env.render()
    assert env._renderer is None
    env.close()
    with pytest.raises(ValueError, match="render_mode"):
        envpool_lite.make("CartPole-v1", render_mode="human")
    with pytest.raises(ValueError, match="cannot be rendered"):
        envpool_lite.make("Dummy-v0", render_mode="rgb_array")
    env = envpool_lite.make("Breakout-v5", num_envs=4, batch_size=2, render_mode="rgb_array")
    env.async_reset()
    _, _, _, _, info = env.recv()
    ready = info["env_id"]
    assert env.render(env_ids=ready).shape == (2, 210, 160, 3)  # returned by recv: drawable
    others = np.setdiff1d(np.arange(4), ready)
    with pytest.raises(RuntimeError, match="being stepped"):
        env.render(env_ids=others)  # still in flight
    with pytest.raises(ValueError, match="out of range"):
        env.render(env_ids=[7])
    env.send(np.zeros(2, np.int32), ready)  # the pool is still usable
    env.recv()
    env.close()
    with pytest.raises(RuntimeError, match="closed"):
        env.render(env_ids=[0])


# A task of each family that draws, and how EnvPool 1.x brings its pictures
# to make(render_width=, render_height=): cv2.resize with INTER_AREA or
# INTER_LINEAR (MuJoCo and dm_control draw at the asked size instead:
# test_mujoco_render.py, test_dm_control_pixels.py).
RESIZED = [
    ("CartPole-v1", {}, "area"),  # EnvPool draws classic control at the size; we resize gymnasium's picture
    ("FrozenLake-v1", {}, "area"),
    ("Pong-v5", {}, "area"),  # Atari: as its observation (use_inter_area_resize)
    ("Pong-v5", {"use_inter_area_resize": False}, "linear"),
    ("Basic-v1", {}, "area"),
    ("MiniGrid-Empty-5x5-v0", {}, "area"),
    ("BigfishEasy-v0", {}, "linear"),
    ("LunarLander-v3", {}, "linear"),
]


@pytest.mark.parametrize("task,options,method", RESIZED, ids=[f"{t}-{m}" for t, _, m in RESIZED])
def test_render_size_options_resize_as_envpool(task, options, method):
    """render_width and render_height (0: the env's own, per axis): the
    picture is the env's own picture resized as cv2.resize does, with the
    interpolation EnvPool uses for the family; pools with and without the
    options step alike."""
    cv2 = pytest.importorskip("cv2")
    interpolation = {"area": cv2.INTER_AREA, "linear": cv2.INTER_LINEAR}[method]
    native = envpool_lite.make(task, num_envs=2, seed=7, render_mode="rgb_array", **options)
    native.reset()
    h, w = native.render(env_ids=0).shape[1:3]
    sizes = [(w * 2 // 5 + 1, h // 3 + 1), (0, h + 17), (w + 9, 0)]  # shrink, enlarge, one axis only
    pools = [envpool_lite.make(task, num_envs=2, seed=7, render_mode="rgb_array", render_width=sw, render_height=sh, **options) for sw, sh in sizes]
    try:
        for p in pools:
            p.reset()
        rng = np.random.default_rng(0)
        for t in range(3):
            want = native.render(env_ids=[0, 1])
            for (sw, sh), p in zip(sizes, pools):
                got = p.render(env_ids=[0, 1])
                assert got.shape == (2, sh or h, sw or w, 3) and got.dtype == np.uint8
                for i in range(2):
                    expected = cv2.resize(want[i], (sw or w, sh or h), interpolation=interpolation)
                    np.testing.assert_array_equal(got[i], expected, err_msg=f"{task} {sw}x{sh} env {i} step {t}")
            space = native.single_action_space
            actions = rng.integers(0, space.n, 2) if hasattr(space, "n") else rng.uniform(space.low, space.high, (2, *space.shape)).astype(space.dtype)
            native.step(actions)
            for p in pools:
                p.step(actions)
    finally:
        native.close()
        for p in pools:
            p.close()


def test_render_size_options_are_checked_and_kept_out_of_the_env():
    env = envpool_lite.make("CartPole-v1", render_width=30, render_height=20, render_camera_id=2)
    assert env.config["render_width"] == 30 and env.config["render_camera_id"] == 2
    assert "render_width" not in env.spec.env_options  # the pool's: CartPole's env has no such option
    env.close()
    for bad, match in [(dict(render_width=-1), "render_width must be in"), (dict(render_height=10**6), "render_height must be in"), (dict(render_camera_id=-2), "render_camera_id must be >= -1")]:
        with pytest.raises(ValueError, match=match):
            envpool_lite.make("Pong-v5", **bad)
    with pytest.raises(TypeError):
        envpool_lite.make("Pong-v5", render_width="wide")


@pytest.mark.parametrize("task", ["CartPole-v1", "Breakout-v5"])
def test_gymnasium_record_video_records_the_pool(task, tmp_path):
    pytest.importorskip("moviepy")
    from gymnasium.wrappers.vector import RecordVideo

    env = envpool_lite.make(task, num_envs=2, render_mode="rgb_array", max_episode_steps=30)
    env = RecordVideo(env, str(tmp_path), episode_trigger=lambda e: True, video_length=20)
    env.reset(seed=0)
    for _ in range(25):
        env.step(env.action_space.sample())
    env.close()
    videos = sorted(tmp_path.glob("*.mp4"))
    assert videos and videos[0].stat().st_size > 1000
