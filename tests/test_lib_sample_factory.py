"""Sample Factory 2.1.1's EnvPool example (sf_examples.envpool.atari) on
envpool_lite through `import envpool`: make_atari_env builds the pool with
env_type="gym", wraps it in EnvPoolResetFixWrapper (after every step it
resets the envs that ended: reset(np.nonzero(done)[0]), an empty id list on
most steps) and BatchedRecordEpisodeStatistics. Its trajectory equals
envpool_lite's own pool driven the same way."""

from libcompat import run_with


def test_make_atari_env_steps_and_resets_by_ids():
    out = run_with(
        ("sample_factory",),
        """
        from types import SimpleNamespace
        import envpool_lite, numpy as np
        from sf_examples.envpool.atari.envpool_atari_utils import make_atari_env
        cfg = SimpleNamespace(num_envs_per_worker=1, env_agents=4, env_frameskip=4)
        env = make_atari_env("atari_breakout", cfg, SimpleNamespace(env_id=3))
        assert env.num_agents == 4
        ref = envpool_lite.make_gymnasium("Breakout-v5", num_envs=4, reward_clip=True, episodic_life=True, frame_skip=4, max_episode_steps=27000, seed=3)
        obs, _ = env.reset()
        o, _ = ref.reset()
        assert np.array_equal(obs, o)
        rng = np.random.default_rng(0)
        resets = 0
        for t in range(600):
            action = rng.integers(0, 4, 4)
            obs, rew, term, trunc, info = env.step(action)
            o, r, rterm, rtrunc, _ = ref.step(action)
            done = np.nonzero(rterm | rtrunc)[0]
            if len(done):
                o[done], _ = ref.reset(done)
                resets += len(done)
            assert np.array_equal(obs, o) and np.array_equal(rew, r) and np.array_equal(term, rterm), t
            assert info["l"].shape == (4,)
        assert resets > 0
        print("ok", resets)
        """,
    )
    assert out.startswith("ok"), out
