"""DI-engine 0.5.3's PoolEnvManager (the "env_pool" env manager of its
*_envpool configs) on envpool_lite through `import envpool`. It makes an
Atari pool with env_type="gym" (gym 0.25.1 here: the old 4-tuple API), in
sync or async mode (batch_size < env_num), and drives it with async_reset(),
send(action, env_id) and recv(). Each env's observations equal those of
envpool_lite's own pool stepped with the same actions, env by env."""

import pytest
from libcompat import run_with


@pytest.mark.parametrize("batch_size", [4, 2])
def test_pool_env_manager(batch_size):
    out = run_with(
        ("di_engine",),
        f"""
        import envpool_lite, numpy as np
        from easydict import EasyDict
        from ding.envs.env_manager.envpool_env_manager import PoolEnvManager
        cfg = EasyDict(dict(PoolEnvManager.default_config(), env_id="Pong-v5", env_num=4, batch_size={batch_size},
                            stack_num=4, frame_skip=4, episodic_life=True, reward_clip=True, gray_scale=True))
        manager = PoolEnvManager(cfg)
        manager.seed(5)
        manager.launch()
        first = {{i: o.copy() for i, o in manager.ready_obs.items()}}
        assert sorted(first) == [0, 1, 2, 3]
        rng = np.random.default_rng(0)
        sent = {{i: [] for i in range(4)}}
        seen = {{i: [] for i in range(4)}}
        for _ in range(150):
            ready = manager.ready_obs
            actions = {{i: int(rng.integers(0, 6)) for i in ready}}
            for i, a in actions.items():
                sent[i].append(a)
            for i, ts in manager.step(actions).items():
                assert ts.obs.shape == (4, 84, 84) and ts.obs.dtype == np.float32
                seen[i].append(ts.obs)
        manager.close()
        # Replay each env's actions on our own pool, one env at a time.
        ref = envpool_lite.make_gym("Pong-v5", num_envs=4, seed=5, episodic_life=True, reward_clip=True)
        obs = ref.reset()
        for i in range(4):
            assert np.array_equal(first[i], obs[i].astype(np.float32))
            assert len(seen[i]) > 0 and len(sent[i]) >= len(seen[i])
            for k, got in enumerate(seen[i]):
                o, *_ = ref.step(np.array([sent[i][k]]), np.array([i]))
                assert np.array_equal(got, o[0].astype(np.float32)), (i, k)
        print("ok", [len(seen[i]) for i in range(4)])
        """,
    )
    assert out.startswith("ok"), out
