"""The gymnasium, gym and dm_env faces follow their libraries' conventions."""

import dm_env
import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import envpool_lite


def test_gymnasium_is_a_vector_env(make):
    env = make("CartPole-v1", num_envs=3)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.num_envs == 3
    assert env.single_observation_space == gymnasium.spaces.Box(
        low=np.array([-4.8, -np.inf, -0.41887903, -np.inf], np.float32),
        high=np.array([4.8, np.inf, 0.41887903, np.inf], np.float32),
        dtype=np.float32,
    )
    assert env.single_action_space == gymnasium.spaces.Discrete(2)
    assert env.observation_space.shape == (3, 4)
    assert env.action_space == gymnasium.spaces.MultiDiscrete([2, 2, 2])
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=0)
    assert obs.dtype == np.float32 and obs.shape == (3, 4)
    assert env.observation_space.contains(obs)
    obs, rew, term, trunc, info = env.step(env.action_space.sample())
    assert rew.dtype == np.float32 and term.dtype == np.bool_ and trunc.dtype == np.bool_
    assert set(info) >= {"env_id", "elapsed_step"}
    assert env.unwrapped is env
    env.close()
    assert env.closed


def test_gymnasium_matches_sync_vector_env_same_step():
    """SAME_STEP: reset inside the step, final obs in info like gymnasium's."""
    n = 4
    ours = envpool_lite.make("CartPole-v1", num_envs=n, autoreset_mode=AutoresetMode.SAME_STEP, seed=10)
    ref = gymnasium.make_vec("CartPole-v1", num_envs=n, vectorization_mode="sync", vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP})
    assert ours.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    o1, _ = ours.reset()
    o2, _ = ref.reset(seed=10)
    np.testing.assert_array_equal(o1, o2)
    rng = np.random.default_rng(0)
    endings = 0
    for _ in range(600):
        a = rng.integers(0, 2, n)
        o1, r1, t1, u1, i1 = ours.step(a)
        o2, r2, t2, u2, i2 = ref.step(a)
        np.testing.assert_array_equal(o1, o2)
        np.testing.assert_array_equal(r1, r2.astype(np.float32))
        np.testing.assert_array_equal(t1, t2)
        np.testing.assert_array_equal(u1, u2)
        if "final_obs" in i2:
            endings += 1
            np.testing.assert_array_equal(i1["_final_obs"], i2["_final_obs"])
            for k in np.flatnonzero(i2["_final_obs"]):
                np.testing.assert_array_equal(i1["final_obs"][k], i2["final_obs"][k])
            assert i1["final_obs"].dtype == object
            assert all(i1["final_obs"][k] is None for k in np.flatnonzero(~i2["_final_obs"]))
            np.testing.assert_array_equal(i1["_final_info"], i2["_final_obs"])
            assert (i1["final_info"]["elapsed_step"][i1["_final_obs"]] > 0).all()
        else:
            assert "final_obs" not in i1
    assert endings > 5
    ours.close()
    ref.close()


def test_gymnasium_reset_mask(make):
    env = make("Dummy-v0", num_envs=4, seed=0)
    obs, _ = env.reset()
    for _ in range(3):
        obs, *_ = env.step(np.ones(4, np.int32))
    mask = np.array([True, False, True, False])
    obs2, info = env.reset(options={"reset_mask": mask})
    assert obs2.shape == (4, 4)
    np.testing.assert_array_equal(obs2[~mask], obs[~mask])
    np.testing.assert_array_equal(obs2[mask, 2], [0, 0])
    np.testing.assert_array_equal(info["_env_id"], mask)
    np.testing.assert_array_equal(info["env_id"][mask], [0, 2])
    with pytest.raises(ValueError):
        env.reset(options={"reset_mask": np.zeros(4, bool)})
    with pytest.raises(ValueError):
        env.reset(options={"reset_mask": np.ones(3, bool)})


def test_record_episode_statistics(make):
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(make("CartPole-v1", num_envs=4, seed=0))
    env.reset()
    returns = []
    ours = np.zeros(4)
    prev_done = np.zeros(4, bool)
    for _ in range(400):
        obs, rew, term, trunc, info = env.step(np.random.randint(0, 2, 4))
        ours = np.where(prev_done, 0, ours + rew)
        prev_done = term | trunc
        if "episode" in info:
            done = info["_episode"]
            np.testing.assert_allclose(info["episode"]["r"][done], ours[done])
            returns.extend(info["episode"]["r"][done])
    assert len(returns) > 10
    assert all(r >= 8 for r in returns)


def test_gym_api(make):
    env = make("CartPole-v1", env_type="gym", num_envs=2, max_episode_steps=20, seed=0)
    assert env.observation_space.shape == (4,)
    assert env.action_space.n == 2
    obs = env.reset()
    assert isinstance(obs, np.ndarray) and obs.shape == (2, 4)
    saw_truncation = saw_termination = False
    for t in range(200):
        obs, rew, done, info = env.step(np.array([t % 2, 1], np.int32))
        assert done.dtype == np.bool_
        np.testing.assert_array_equal(done, info["terminated"] | info["TimeLimit.truncated"])
        saw_truncation |= bool(info["TimeLimit.truncated"].any())
        saw_termination |= bool(info["terminated"].any())
    assert saw_truncation and saw_termination
    env2 = make("CartPole-v1", env_type="gym", num_envs=2, gym_reset_return_info=True)
    obs, info = env2.reset()
    np.testing.assert_array_equal(info["env_id"], [0, 1])


def test_dm_api(make):
    env = make("CartPole-v1", env_type="dm", num_envs=2, max_episode_steps=30, seed=0)
    spec = env.observation_spec()  # the structure of TimeStep.observation
    assert spec._fields == ("obs", "env_id", "elapsed_step", "players")
    assert isinstance(spec.obs, dm_env.specs.BoundedArray) and spec.obs.shape == (4,)
    assert isinstance(env.action_spec(), dm_env.specs.DiscreteArray)
    assert env.action_spec().num_values == 2
    ts = env.reset()
    assert isinstance(ts, dm_env.TimeStep)
    np.testing.assert_array_equal(ts.step_type, [dm_env.StepType.FIRST] * 2)
    assert ts.first().all()
    assert ts.observation.obs.shape == (2, 4)
    np.testing.assert_array_equal(ts.observation.env_id, [0, 1])
    # A gymnasium twin (same seed, same actions) says what really happened.
    twin = make("CartPole-v1", num_envs=2, max_episode_steps=30, seed=0)
    twin.reset()
    seen = set()
    for t in range(300):
        action = np.array([0, t % 2], np.int32)
        ts = env.step(action)
        obs, rew, term, trunc, info = twin.step(action)
        np.testing.assert_array_equal(ts.observation.obs, obs)
        np.testing.assert_array_equal(ts.reward, rew)
        for k in range(2):
            kind = int(ts.step_type[k])
            if kind == dm_env.StepType.LAST:
                assert term[k] or trunc[k]
                # Discount 0 on termination, 1 on truncation (time limit) alone.
                assert ts.discount[k] == (0.0 if term[k] else 1.0)
                seen.add("term" if term[k] else "trunc")
            elif kind == dm_env.StepType.FIRST:
                assert info["elapsed_step"][k] == 0
                assert ts.reward[k] == 0 and ts.discount[k] == 1
            else:
                assert not (term[k] or trunc[k]) and ts.discount[k] == 1
    assert seen == {"trunc", "term"}


def test_all_types_same_observations():
    seqs = []
    for env_type in ["gymnasium", "gym", "dm"]:
        env = envpool_lite.make("Acrobot-v1", env_type=env_type, num_envs=3, seed=5)
        out = env.reset()
        obs = [out[0] if env_type == "gymnasium" else out.observation.obs if env_type == "dm" else out]
        for t in range(100):
            out = env.step(np.full(3, t % 3, np.int32))
            obs.append(out.observation.obs if env_type == "dm" else out[0])
        seqs.append(np.stack(obs))
        env.close()
    np.testing.assert_array_equal(seqs[0], seqs[1])
    np.testing.assert_array_equal(seqs[0], seqs[2])


def test_make_spec():
    spec = envpool_lite.make_spec("Pendulum-v1", num_envs=3, g=9.81)
    assert spec.config["g"] == 9.81
    assert spec.config["max_episode_steps"] == 200
    assert spec.action_space.shape == (1,)
    assert spec.observation_space.dtype == np.float32
    assert spec.action_spec().minimum == -2.0
