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
