"""Tianshou 2.0.1's EnvPoolFactory (highlevel) and its Atari variant, with
Tianshou's own Collector, on envpool_lite through `import envpool`. The
collector steps and resets envs by id (step(action, env_ids),
reset(env_ids)); every transition it stores is checked against gymnasium's
CartPole-v1 seeded as the convention says (env i: seed + i)."""

from libcompat import run_with


def test_envpool_factory_with_a_collector_matches_gymnasium():
    out = run_with(
        ("tianshou",),
        """
        import gymnasium, numpy as np
        from tianshou.algorithm.algorithm_base import RandomActionPolicy
        from tianshou.data import Collector, VectorReplayBuffer
        from tianshou.highlevel.env import EnvMode, EnvPoolFactory
        n, size = 4, 500
        venv = EnvPoolFactory().create_venv("CartPole-v1", n, EnvMode.TRAINING, 5, {"render_mode": "rgb_array"})
        assert len(venv) == n
        collector = Collector(RandomActionPolicy(venv.action_space), venv, VectorReplayBuffer(n * size, n))
        collector.reset()
        stats = collector.collect(n_step=400)
        assert stats.n_collected_steps == 400 and stats.n_collected_episodes > 0
        buf = collector.buffer
        checked = 0
        for i in range(n):
            ref = gymnasium.make("CartPole-v1")
            obs, _ = ref.reset(seed=5 + i)
            for k in range(i * size, i * size + 100):
                b = buf[k]
                assert np.array_equal(b.obs, obs), (i, k)
                obs, rew, term, trunc, _ = ref.step(int(b.act))
                assert np.array_equal(b.obs_next, obs) and b.rew == rew and b.terminated == term and b.truncated == trunc, (i, k)
                if term or trunc:
                    obs, _ = ref.reset()
                checked += 1
        print("ok", checked, stats.n_collected_episodes)
        """,
    )
    assert out.startswith("ok 400"), out


def test_atari_envpool_factory_collects():
    """AtariEnvFactory picks EnvPoolFactoryAtari when `envpool` imports: it
    maps PongNoFrameskip-v4 to Pong-v5 with reward_clip, episodic_life and
    stack_num."""
    out = run_with(
        ("tianshou",),
        """
        import numpy as np
        from tianshou.algorithm.algorithm_base import RandomActionPolicy
        from tianshou.data import Collector, VectorReplayBuffer
        from tianshou.env.atari.atari_wrapper import AtariEnvFactory
        from tianshou.highlevel.env import EnvMode
        factory = AtariEnvFactory("PongNoFrameskip-v4", frame_stack=4)
        assert type(factory.envpool_factory).__name__ == "EnvPoolFactoryAtari"
        venv = factory.envpool_factory.create_venv("PongNoFrameskip-v4", 2, EnvMode.TRAINING, 3, {})
        assert venv.spec.task_id == "Pong-v5" and venv.config["reward_clip"] and venv.config["episodic_life"]
        collector = Collector(RandomActionPolicy(venv.action_space), venv, VectorReplayBuffer(1000, 2))
        collector.reset()
        stats = collector.collect(n_step=300)
        obs = collector.buffer[0].obs
        assert obs.shape == (4, 84, 84) and obs.dtype == np.uint8
        assert set(np.unique(collector.buffer.rew[:300])) <= {-1.0, 0.0, 1.0}
        print("ok", stats.n_collected_steps)
        """,
    )
    assert out.startswith("ok 300"), out
