"""The EnvPool usage of CleanRL's EnvPool scripts and PureJaxQL's
pqn_atari.py, with the libraries they pin (gym 0.23.1, flax, optax, chex,
tyro: tests/compat/jax_scripts.txt) and `import envpool` resolving to
envpool_lite.

The scripts themselves are not on the package index (CleanRL's PyPI release
predates them; PureJaxQL is not there), so CI cannot fetch them: these tests
replay what the scripts do to the pool, step for step, and
scripts/run_jax_scripts.sh runs the scripts unmodified from source checkouts
(README.md, "Using envpool_lite from other libraries")."""

from libcompat import run_with


def test_cleanrl_xla_scan_rollout():
    """ppo_atari_envpool_xla_jax_scan.py: a gym-API pool with attributes set
    on it, xla() inside jit + lax.scan with the handle in the carry, episode
    statistics from info["reward"], info["terminated"] and
    info["TimeLimit.truncated"]; then the same actions through step() give
    the same trajectory."""
    out = run_with(
        ("jax_scripts",),
        """
        import envpool, flax, gym, jax, jax.numpy as jnp, numpy as np
        num_envs, num_steps = 8, 40
        def make():
            envs = envpool.make("Pong-v5", env_type="gym", num_envs=num_envs, episodic_life=True, reward_clip=True, seed=1)
            envs.num_envs = num_envs
            envs.single_action_space = envs.action_space
            envs.single_observation_space = envs.observation_space
            envs.is_vector_env = True
            return envs
        envs = make()
        assert isinstance(envs.single_action_space, gym.spaces.Discrete)
        handle, recv, send, step_env = envs.xla()

        @flax.struct.dataclass
        class EpisodeStatistics:
            episode_returns: jnp.array
            returned_episode_returns: jnp.array

        def step_env_wrapped(stats, handle, action):
            handle, (next_obs, reward, next_done, info) = step_env(handle, action)
            new_return = stats.episode_returns + info["reward"]
            ended = info["terminated"] + info["TimeLimit.truncated"]
            stats = stats.replace(
                episode_returns=new_return * (1 - info["terminated"]) * (1 - info["TimeLimit.truncated"]),
                returned_episode_returns=jnp.where(ended, new_return, stats.returned_episode_returns),
            )
            return stats, handle, (next_obs, reward, next_done)

        @jax.jit
        def rollout(stats, handle, key):
            def body(carry, _):
                stats, handle, key = carry
                key, sub = jax.random.split(key)
                action = jax.random.randint(sub, (num_envs,), 0, envs.single_action_space.n)
                stats, handle, out = step_env_wrapped(stats, handle, action)
                return (stats, handle, key), (action,) + out
            (stats, handle, key), traj = jax.lax.scan(body, (stats, handle, key), (), num_steps)
            return stats, handle, traj

        next_obs = envs.reset()
        assert next_obs.shape == (num_envs, 4, 84, 84)
        zeros = jnp.zeros(num_envs, dtype=jnp.float32)
        stats, handle, (actions, obs, rewards, dones) = rollout(EpisodeStatistics(zeros, zeros), handle, jax.random.PRNGKey(0))

        ref = make()
        ref_obs = ref.reset()
        assert np.array_equal(next_obs, ref_obs)
        for t in range(num_steps):
            o, r, d, info = ref.step(np.asarray(actions[t]))
            assert np.array_equal(np.asarray(obs[t]), o) and np.array_equal(np.asarray(rewards[t]), r), t
            assert np.array_equal(np.asarray(dones[t]), d), t
        print("ok", float(jnp.abs(rewards).sum()))
        """,
    )
    assert out.startswith("ok"), out


def test_cleanrl_torch_scripts_loop():
    """ppo_atari_envpool.py and the PQN / RND scripts: the pool wrapped in
    their RecordEpisodeStatistics (a gym.Wrapper of gym 0.23.1), reset() ->
    obs, 4-tuple steps, info["lives"] and info["reward"] for the episode
    returns, RND's gym.wrappers.normalize.RunningMeanStd fed from step()."""
    out = run_with(
        ("jax_scripts",),
        """
        import envpool, gym, numpy as np
        from gym.wrappers.normalize import RunningMeanStd

        class RecordEpisodeStatistics(gym.Wrapper):  # the scripts' own, abridged
            def __init__(self, env):
                super().__init__(env)
                self.num_envs = getattr(env, "num_envs", 1)
            def reset(self, **kwargs):
                observations = super().reset(**kwargs)
                self.episode_returns = np.zeros(self.num_envs, dtype=np.float32)
                self.episode_lengths = np.zeros(self.num_envs, dtype=np.int32)
                self.lives = np.zeros(self.num_envs, dtype=np.int32)
                self.returned_episode_returns = np.zeros(self.num_envs, dtype=np.float32)
                self.returned_episode_lengths = np.zeros(self.num_envs, dtype=np.int32)
                return observations
            def step(self, action):
                observations, rewards, dones, infos = super().step(action)
                self.episode_returns += infos["reward"]
                self.episode_lengths += 1
                self.returned_episode_returns[:] = self.episode_returns
                self.returned_episode_lengths[:] = self.episode_lengths
                self.episode_returns *= 1 - infos["terminated"]
                self.episode_lengths *= 1 - infos["terminated"]
                infos["r"] = self.returned_episode_returns
                infos["l"] = self.returned_episode_lengths
                return observations, rewards, dones, infos

        envs = envpool.make("Breakout-v5", env_type="gym", num_envs=4, episodic_life=True, reward_clip=True, seed=1)
        envs.num_envs = 4
        envs.single_action_space = envs.action_space
        envs.single_observation_space = envs.observation_space
        envs = RecordEpisodeStatistics(envs)
        assert isinstance(envs.action_space, gym.spaces.Discrete)
        obs = envs.reset()
        assert obs.shape == (4, 4, 84, 84) and obs.dtype == np.uint8
        rms = RunningMeanStd(shape=(1, 84, 84))
        rng = np.random.default_rng(0)
        life_losses = games = 0
        for _ in range(1500):
            obs, reward, done, info = envs.step(rng.integers(0, 4, 4))
            assert set(np.unique(reward)) <= {-1.0, 0.0, 1.0}  # reward_clip
            assert info["TimeLimit.truncated"].dtype == np.bool_
            rms.update(obs[:, 3:4].astype(np.float64))
            for idx, d in enumerate(done):
                if d:
                    life_losses += 1
                    if info["lives"][idx] == 0:
                        games += 1
                        assert info["r"][idx] == info["r"][idx]  # a number
        assert life_losses > games > 0, (life_losses, games)
        print("ok", life_losses, games)
        """,
    )
    assert out.startswith("ok"), out


def test_purejaxql_wrapper_pattern():
    """pqn_atari.py: the pool gets .name, is wrapped in a gym.Wrapper
    (JaxLogEnvPoolWrapper) that calls reset() and one step() in Python, reads
    info["lives"], then steps through xla() in a jitted method, the handle
    kept as jnp.array(handle), the whole training loop a jax.jit(lax.scan)."""
    out = run_with(
        ("jax_scripts",),
        """
        from functools import partial
        import envpool, gym, jax, jax.numpy as jnp, numpy as np
        from packaging import version
        assert version.parse(gym.__version__) < version.parse("0.26.0")  # the script's own check

        class LogWrapper(gym.Wrapper):
            def __init__(self, env):
                super().__init__(env)
                self.num_envs = getattr(env, "num_envs", 1)
                self.env_name = env.name
                env.reset()
                info = env.step(np.zeros(self.num_envs, dtype=int))[-1]
                self.has_lives = bool(info["lives"].sum() > 0)
                self.init_handle, self.recv_f, self.send_f, self.step_f = env.xla()
            def reset(self, **kwargs):
                return super().reset(**kwargs), (jnp.array(self.init_handle), jnp.zeros(self.num_envs, jnp.float32))
            @partial(jax.jit, static_argnums=(0,))
            def step(self, state, action):
                handle, returns = state
                handle, (obs, rewards, dones, infos) = self.step_f(handle, action)
                returns = (returns + infos["reward"]) * (1 - infos["terminated"]) * (1 - infos["TimeLimit.truncated"])
                return obs, (handle, returns), rewards, dones, {"elapsed_step": infos["elapsed_step"]}

        env = envpool.make("Breakout-v5", env_type="gym", num_envs=6, seed=0, episodic_life=True, reward_clip=True, repeat_action_probability=0.0, frame_skip=4, noop_max=30)
        env.num_envs = 6
        env.single_action_space = env.action_space
        env.single_observation_space = env.observation_space
        env.name = "Breakout-v5"
        env = LogWrapper(env)
        assert env.has_lives
        init_obs, env_state = env.reset()

        def train(rng):
            def step(carry, _):
                obs, state, rng = carry
                rng, sub = jax.random.split(rng)
                action = jax.random.randint(sub, (6,), 0, env.single_action_space.n)
                obs, state, reward, done, info = env.step(state, action)
                return (obs, state, rng), (reward, done, info["elapsed_step"])
            return jax.lax.scan(step, (init_obs, env_state, rng), None, 300)

        (obs, state, _), (rewards, dones, elapsed) = jax.jit(train)(jax.random.PRNGKey(0))
        assert obs.shape == (6, 4, 84, 84) and rewards.shape == dones.shape == (300, 6)
        assert int(dones.sum()) > 0 and int(elapsed.max()) > 1
        print("ok", int(dones.sum()))
        """,
    )
    assert out.startswith("ok"), out
