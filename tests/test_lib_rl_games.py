"""rl_games 1.6.5's Envpool env (rl_games.envs.envpool, what its
*_envpool.yaml configs create) on envpool_lite through `import envpool`: it
makes the pool with env_type="gym" and batch_size=num_actors, steps and
resets by ids, and accumulates scores from info. No gym is installed in this
group, so env_type="gym" gives the gymnasium API (as EnvPool 1.x), which
rl_games handles."""

from libcompat import run_with


def test_envpool_env_pong_and_mujoco_equal_the_pool():
    out = run_with(
        ("rl_games",),
        """
        import envpool_lite, numpy as np
        from rl_games.envs.envpool import create_envpool
        env = create_envpool(num_actors=4, env_name="Breakout-v5", has_lives=True, episodic_life=True, reward_clip=True)
        assert env.observation_space.shape == (4, 84, 84) and env.action_space.n == 4
        ref = envpool_lite.make_gymnasium("Breakout-v5", num_envs=4, episodic_life=True, reward_clip=True)
        assert np.array_equal(env.reset(), ref.reset()[0])
        rng = np.random.default_rng(0)
        total = np.zeros(4)
        for t in range(400):
            action = rng.integers(0, 4, 4)
            obs, reward, done, info = env.step(action)
            o, r, term, trunc, _ = ref.step(action)
            assert np.array_equal(obs, o) and np.array_equal(reward, r) and np.array_equal(done, term | trunc), t
            assert np.array_equal(info["time_outs"], trunc)
            total += info["reward"]
            assert np.array_equal(info["scores"], total), t  # no game ended: every life's reward counts
            total *= 1 - (info["lives"] == 0)
        mj = create_envpool(num_actors=2, env_name="HalfCheetah-v4")
        assert mj.observation_space.shape == (17,) and mj.action_space.shape == (6,)
        obs = mj.reset()
        obs, reward, done, info = mj.step(np.zeros((2, 6), np.float32))
        assert obs.shape == (2, 17) and reward.shape == (2,)
        print("ok")
        """,
    )
    assert out.strip() == "ok", out
