"""The dm_control family: the engine's side (options, spec, faces, errors)
and the alignment of cheetah and walker with dm_control 1.0.50 (the other
domains: tests/test_dm_control_*.py)."""

from __future__ import annotations

import math

import gymnasium
import numpy as np
import pytest
import scope
from dm_control_alignment import assert_aligned, reference

import envpool_lite


@pytest.mark.parametrize(
    "task_id, domain, task",
    [("CheetahRun-v1", "cheetah", "run"), ("WalkerStand-v1", "walker", "stand"), ("WalkerWalk-v1", "walker", "walk"), ("WalkerRun-v1", "walker", "run")],
)
def test_aligned_through_time_limits(task_id, domain, task):
    counts = assert_aligned(task_id, domain, task, steps=scope.steps(130, full=1010), time_limit=1.0)
    assert counts["truncated"] >= 2


def test_cheetah_full_episode_and_auto_reset():
    """The task's own 1000-step limit, then the next episode."""
    counts = assert_aligned("CheetahRun-v1", "cheetah", "run", steps=1010, num_envs=1, seed=11)
    assert counts["truncated"] == 1


def _steps_of_time_limit(n: int, control_timestep: float) -> int:
    """dm_control's episode length for time_limit = n * control_timestep:
    its Environment stops at the first step count >= time_limit /
    control_timestep, computed in floating point."""
    return math.ceil(n * control_timestep / control_timestep)


def test_envpool_max_episode_steps():
    """EnvPool's max_episode_steps=n: n steps, the last one LAST with
    discount 1 (a truncation), then an auto-reset; the same episode as
    dm_control's time_limit = n * control_timestep where that gives n steps
    (CheetahRun: 0.01 s)."""
    n = next(n for n in range(30, 60) if _steps_of_time_limit(n, 0.01) == n)
    counts = assert_aligned("CheetahRun-v1", "cheetah", "run", steps=2 * n + 5, time_limit=n * 0.01, max_episode_steps=n)
    assert counts["truncated"] == 2 * 2


def test_max_episode_steps_counts_steps_where_time_limit_rounds_up():
    """max_episode_steps=7: 7 * 0.01 / 0.01 is 7.000000000000001 in floating
    point, so dm_control's time_limit=0.07 runs 8 steps; EnvPool's option
    (followed here) means 7. The first 7 steps are the same."""
    n = 7
    assert _steps_of_time_limit(n, 0.01) == n + 1
    env = envpool_lite.make_dm("CheetahRun-v1", num_envs=1, seed=4, max_episode_steps=n)
    ref = reference("cheetah", "run", 4, time_limit=n * 0.01)
    ts, rts = env.reset(), ref.reset()
    action = np.zeros((1, 6))
    for t in range(1, n + 1):
        ts, rts = env.step(action), ref.step(action[0])
        assert np.array_equal(ts.observation.position[0], rts.observation["position"]) and ts.reward[0] == rts.reward
        assert int(ts.step_type[0]) == (2 if t == n else 1)
    assert int(ts.discount[0]) == 1
    assert not ref.step(action[0]).first() and ref._step_count == n + 1  # dm_control's extra step
    env.close()


def test_max_episode_steps_faces_and_errors():
    gym_env = envpool_lite.make("CheetahRun-v1", env_type="gymnasium", num_envs=2, max_episode_steps=3)
    gym_env.reset()
    for _ in range(3):
        _, _, terminated, truncated, _ = gym_env.step(np.zeros((2, 6)))
    assert truncated.all() and not terminated.any()
    assert gym_env.spec.max_episode_steps == 3 and gym_env.spec.config["max_episode_steps"] == 3
    assert envpool_lite.make_spec("CheetahRun-v1").max_episode_steps == 1000  # time_limit's, by default
    with pytest.raises(ValueError, match="give one of max_episode_steps"):
        envpool_lite.make("CheetahRun-v1", max_episode_steps=3, task_kwargs={"time_limit": 1.0})
    with pytest.raises(ValueError, match="max_episode_steps must be >= 0"):
        envpool_lite.make("CheetahRun-v1", max_episode_steps=-1)


def test_max_episode_steps_through_the_envpool_module():
    """Plain EnvPool code, through the `envpool` module (compat/envpool)."""
    from libcompat import run_with

    out = run_with(
        (),
        """
        import numpy as np
        env = envpool.make_dm("CheetahRun-v1", num_envs=2, max_episode_steps=100)
        ts = env.reset()
        for t in range(100):
            ts = env.step(np.zeros((2, 6)))
        print(ts.step_type.tolist(), env.spec.config.max_episode_steps)
        """,
    )
    assert out.strip().splitlines()[-1] == "[2, 2] 100"


@pytest.mark.parametrize("kwargs", [{"n_sub_steps": 3}, {"flat_observation": True}])
def test_environment_kwargs(kwargs):
    assert_aligned("CheetahRun-v1", "cheetah", "run", steps=60, time_limit=0.5, environment_kwargs=kwargs)


def test_envpool_frame_skip_is_n_sub_steps():
    """EnvPool's frame_skip: physics steps per step (dm_control's n_sub_steps,
    replacing the task's control timestep; walker's own is 10 of them)."""
    env = envpool_lite.make_dm("WalkerWalk-v1", num_envs=1, seed=4, frame_skip=4)
    ref = reference("walker", "walk", 4, environment_kwargs=None)
    assert env.spec.max_episode_steps == 2500  # 25 s of 0.0025 s x 4
    del ref
    env.close()
    assert_aligned("CheetahRun-v1", "cheetah", "run", steps=30, time_limit=0.3, environment_kwargs={"n_sub_steps": 2})
    a = envpool_lite.make_dm("CheetahRun-v1", num_envs=1, seed=1, frame_skip=2)
    b = envpool_lite.make_dm("CheetahRun-v1", num_envs=1, seed=1, environment_kwargs={"n_sub_steps": 2})
    a.reset(), b.reset()
    for _ in range(5):
        x, y = a.step(np.full((1, 6), 0.3)), b.step(np.full((1, 6), 0.3))
        assert np.array_equal(x.observation.position, y.observation.position) and x.reward[0] == y.reward[0]
    with pytest.raises(TypeError, match="frame_skip"):
        envpool_lite.make_dm("CheetahRun-v1", frame_skip=2, environment_kwargs={"n_sub_steps": 2})


def test_cheetah_control_timestep():
    """cheetah has no control timestep of its own (walker's is 0.025: there
    dm_control refuses another, and envpool_lite takes it)."""
    assert_aligned("CheetahRun-v1", "cheetah", "run", steps=40, time_limit=0.5, environment_kwargs={"control_timestep": 0.03})


def test_faces():
    dm = envpool_lite.make_dm("WalkerWalk-v1", num_envs=3)
    ref = reference("walker", "walk", 0)
    spec = dm.observation_spec()
    assert spec._fields[:3] == ("orientations", "height", "velocity")
    for k, s in ref.observation_spec().items():
        assert spec[k].shape == s.shape and spec[k].dtype == s.dtype
    assert dm.action_spec().shape == ref.action_spec().shape
    np.testing.assert_array_equal(dm.action_spec().minimum, ref.action_spec().minimum)
    ts = dm.reset()
    assert ts.observation.height.shape == (3,) and ts.observation["velocity"].shape == (3, 9)

    env = envpool_lite.make_gymnasium("WalkerWalk-v1", num_envs=3)
    assert isinstance(env.single_observation_space, gymnasium.spaces.Dict)
    assert list(env.single_observation_space.spaces) == ["orientations", "height", "velocity"]
    obs, info = env.reset()
    assert env.observation_space.contains(obs)
    obs, rew, term, trunc, info = env.step(np.zeros((3, 6)))
    assert obs["orientations"].shape == (3, 14) and obs["orientations"].flags.c_contiguous
    assert rew.dtype == np.float64

    # flat_observation: a Box (gymnasium, gym); dm_control's key on the dm face
    flat = envpool_lite.make_gymnasium("WalkerWalk-v1", num_envs=2, environment_kwargs={"flat_observation": True})
    assert isinstance(flat.single_observation_space, gymnasium.spaces.Box) and flat.single_observation_space.shape == (24,)
    obs, _ = flat.reset()
    assert obs.shape == (2, 24)
    flat_dm = envpool_lite.make_dm("WalkerWalk-v1", num_envs=2, environment_kwargs={"flat_observation": True})
    assert flat_dm.observation_spec()._fields[0] == "observations"
    assert flat_dm.reset().observation["observations"].shape == (2, 24)


def test_same_step_autoreset_final_obs_is_a_dict():
    env = envpool_lite.make_gymnasium("CheetahRun-v1", num_envs=2, autoreset_mode="SAME_STEP", task_kwargs={"time_limit": 0.05})
    env.reset(seed=1)
    for _ in range(5):
        obs, rew, term, trunc, info = env.step(np.zeros((2, 6)))
        if trunc.any():
            break
    assert trunc.all()
    assert set(info["final_obs"][0]) == {"position", "velocity"}


def test_bad_options():
    with pytest.raises(TypeError, match="unknown task_kwargs"):
        envpool_lite.make_dm("CheetahRun-v1", task_kwargs={"bogus": 1})
    with pytest.raises(ValueError, match="Both n_sub_steps and control_timestep"):
        envpool_lite.make_dm("WalkerWalk-v1", environment_kwargs={"n_sub_steps": 2})
    with pytest.raises(ValueError, match="integer multiple"):
        envpool_lite.make_dm("WalkerWalk-v1", environment_kwargs={"control_timestep": 0.0123})
    with pytest.raises(ValueError, match="2\\*\\*32"):
        envpool_lite.make_dm("CheetahRun-v1", seed=2**32)
    env = envpool_lite.make_dm("CheetahRun-v1", num_envs=1)
    env.reset()
    with pytest.raises(ValueError):
        env.step(np.full((1, 6), np.nan))
    with pytest.raises(ValueError):
        env.step(np.zeros((1, 5)))
    env.step(np.zeros((1, 6)))  # still usable


@pytest.mark.parametrize("flat", [False, True])
def test_frame_stack_of_state_observations(flat):
    """EnvPool's frame_stack without pixels: each key as (k, *shape), oldest
    first, the first observation k times at a reset; the frames are the
    unstacked pool's, through an episode end and its auto-reset."""
    k, n = 3, 2
    options = dict(num_envs=n, seed=5, task_kwargs={"time_limit": 0.25}, environment_kwargs={"flat_observation": flat})  # 10 steps
    stacked = envpool_lite.make_dm("WalkerWalk-v1", frame_stack=k, **options)
    plain = envpool_lite.make_dm("WalkerWalk-v1", **options)
    keys = ["observations"] if flat else ["orientations", "height", "velocity"]
    for key in keys:
        assert getattr(stacked.observation_spec(), key).shape == (k, *getattr(plain.observation_spec(), key).shape)
    history = {key: [] for key in keys}
    ts, ref = stacked.reset(), plain.reset()
    rng = np.random.default_rng(0)
    resets = 0
    for t in range(25):
        assert (ref.step_type == ref.step_type[0]).all()  # the same time limit: the envs reset together
        resets += int(t > 0 and ref.step_type[0] == 0)
        for key in keys:
            frames = getattr(ref.observation, key)
            if t == 0 or ref.step_type[0] == 0:  # a reset: the first frame k times
                history[key] = [frames] * k
            else:
                history[key] = history[key][1:] + [frames]
            np.testing.assert_array_equal(getattr(ts.observation, key), np.stack(history[key], axis=1), err_msg=f"{key} step {t}")
        assert np.array_equal(ts.step_type, ref.step_type) and (t == 0 or np.array_equal(ts.reward, ref.reward))
        action = rng.uniform(-1, 1, (n, 6))
        ts, ref = stacked.step(action), plain.step(action)
    assert resets == 2
    stacked.close()
    plain.close()
