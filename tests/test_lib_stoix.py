"""Stoix's EnvPool wrapper (stoix/wrappers/envpool.py, EnvPoolToStoa). Stoix
is not on the package index, so this replays its use of the pool, call for
call: a gymnasium-API pool; reset(), then one step() to read info["lives"];
close(), after which it goes on using the pool (EnvPool's close() leaves a
pool working); spec.config.max_episode_steps; after each step a partial
step(np.zeros_like(action), env_ids_to_reset) with more actions than ids,
whose observations replace the ended envs' ones."""

from libcompat import run_with


def test_partial_step_reset_pattern():
    out = run_with(
        (),
        """
        import envpool, envpool_lite, numpy as np
        env = envpool.make("Breakout-v5", env_type="gymnasium", num_envs=4, episodic_life=True, reward_clip=True, seed=2)
        obs, _ = env.reset()
        num_envs, num_actions = obs.shape[0], env.action_space.n
        info = env.step(np.zeros(num_envs, dtype=int))[-1]
        assert "lives" in info and info["lives"].sum() > 0
        env.close()
        max_episode_steps = env.spec.config.max_episode_steps
        assert max_episode_steps == 27000

        ref = envpool_lite.make_gymnasium("Breakout-v5", num_envs=4, episodic_life=True, reward_clip=True, seed=2)
        ref.reset()
        ref.step(np.zeros(num_envs, dtype=int))
        obs, _ = env.reset()
        o, _ = ref.reset()
        assert np.array_equal(obs, o)
        rng = np.random.default_rng(0)
        restarted = 0
        for t in range(500):
            action = rng.integers(0, num_actions, num_envs)
            obs, rewards, terminated, truncated, info = env.step(action)
            truncated = info["elapsed_step"] >= max_episode_steps
            ids = np.where(np.logical_or(terminated, truncated))[0]
            if len(ids) > 0:
                reset_obs, *_ = env.step(np.zeros_like(action), ids)
                obs[ids] = reset_obs
                restarted += len(ids)
            o, r, term, _, _ = ref.step(action)
            if len(ids) > 0:
                o[ids] = ref.step(np.zeros(len(ids), dtype=int), ids)[0]
            assert np.array_equal(obs, o) and np.array_equal(rewards, r) and np.array_equal(terminated, term), t
        assert restarted > 0
        print("ok", restarted)
        """,
    )
    assert out.startswith("ok"), out
