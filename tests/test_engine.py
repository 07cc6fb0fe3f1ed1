"""The engine's semantics: sync order, async batching, determinism, zero copy
and memory, on the Dummy-v0 test env (its obs says what happened to it) and
CartPole-v1."""

import gc

import numpy as np
import psutil
import pytest

import envpool_lite


def test_list_all_envs():
    envs = envpool_lite.list_all_envs()
    for task in ["CartPole-v1", "Acrobot-v1", "MountainCar-v0", "MountainCarContinuous-v0", "Pendulum-v1"]:
        assert task in envs


@pytest.mark.parametrize("num_threads", [1, 2, 3])
def test_sync_results_come_in_env_id_order(make, num_threads):
    env = make("Dummy-v0", num_envs=9, num_threads=num_threads, step_sleep_us=50)
    obs, info = env.reset()
    np.testing.assert_array_equal(info["env_id"], np.arange(9))
    for t in range(50):
        actions = (np.arange(9) + t) % 6
        obs, rew, term, trunc, info = env.step(actions)
        np.testing.assert_array_equal(info["env_id"], np.arange(9))
        # The action each env saw is the one sent to it.
        stepped = obs[:, 2] > 0
        np.testing.assert_array_equal(obs[stepped, 3], actions[stepped])
        np.testing.assert_array_equal(rew[stepped], actions[stepped].astype(np.float32))


@pytest.mark.parametrize("num_envs,batch_size,num_threads,sleep_us", [(12, 4, 1, 0), (12, 4, 2, 0), (12, 4, 3, 100), (10, 3, 2, 100), (8, 1, 2, 0)])
def test_async_every_env_once_per_send(make, num_envs, batch_size, num_threads, sleep_us):
    env = make("Dummy-v0", num_envs=num_envs, batch_size=batch_size, num_threads=num_threads, step_sleep_us=sleep_us, seed=0)
    assert env.is_async
    env.async_reset()
    in_flight = set(range(num_envs))
    expect_step = np.zeros(num_envs, np.int64)
    last_action = np.full(num_envs, -1)
    orders = set()
    for t in range(300):
        obs, rew, term, trunc, info = env.recv()
        ids = info["env_id"]
        assert len(ids) == batch_size
        assert len(set(ids.tolist())) == batch_size
        assert set(ids.tolist()) <= in_flight
        in_flight -= set(ids.tolist())
        np.testing.assert_array_equal(obs[:, 0], ids)  # env i is seeded 0 + i
        np.testing.assert_array_equal(obs[:, 2], expect_step[ids])
        stepped = obs[:, 2] > 0
        np.testing.assert_array_equal(obs[stepped, 3], last_action[ids][stepped])
        np.testing.assert_array_equal(info["elapsed_step"], obs[:, 2])
        expect_step[ids] = np.where(term, 0, obs[:, 2] + 1)
        orders.add(tuple(ids.tolist()))
        actions = (ids + t) % 6
        last_action[ids] = actions
        env.send(actions, ids)
        in_flight |= set(ids.tolist())
    assert len(orders) > 1


def test_send_default_env_ids_are_last_batch(make):
    env = make("Dummy-v0", num_envs=6, batch_size=2, seed=0)
    env.async_reset()
    for _ in range(20):
        obs, rew, term, trunc, info = env.recv()
        env.send(np.ones(2, np.int64))  # goes to info["env_id"]
    obs, rew, term, trunc, info = env.recv()
    assert len(info["env_id"]) == 2


def _trajectories(num_envs, steps, **kwargs):
    """Per-env (obs, reward, terminated, truncated) sequences with actions that
    depend only on (env_id, step of that env)."""
    env = envpool_lite.make("CartPole-v1", num_envs=num_envs, seed=7, **kwargs)
    traj = {i: [] for i in range(num_envs)}
    counts = np.zeros(num_envs, np.int64)
    env.async_reset()
    total = 0
    while total < steps:
        obs, rew, term, trunc, info = env.recv()
        ids = info["env_id"]
        for k, i in enumerate(ids):
            traj[i].append((obs[k].copy(), rew[k], term[k], trunc[k]))
        counts[ids] += 1
        total += len(ids)
        env.send(((ids * 31 + counts[ids] * 17) % 7 < 3).astype(np.int32), ids)
    env.close()
    n = min(len(v) for v in traj.values())
    return {i: v[:n] for i, v in traj.items()}


def test_determinism_across_threads_batch_sizes_and_pinning():
    ref = _trajectories(8, 4000, batch_size=8, num_threads=1)
    for kwargs in [dict(batch_size=8, num_threads=2), dict(batch_size=3, num_threads=2), dict(batch_size=1, num_threads=3), dict(batch_size=4, num_threads=2, thread_affinity_offset=0)]:
        other = _trajectories(8, 4000, **kwargs)
        for i in range(8):
            n = min(len(ref[i]), len(other[i]))
            assert n > 100
            for a, b in zip(ref[i][:n], other[i][:n]):
                np.testing.assert_array_equal(a[0], b[0])
                assert a[1:] == b[1:]


def test_same_seed_same_trajectory_different_seed_differs(make):
    a, _ = make("CartPole-v1", num_envs=4, seed=3).reset()
    b, _ = make("CartPole-v1", num_envs=4, seed=3).reset()
    c, _ = make("CartPole-v1", num_envs=4, seed=4).reset()
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a[1:], c[:-1])  # env i gets seed + i
    assert not np.array_equal(a, c)
    d, _ = make("CartPole-v1", num_envs=4, seed=[7, 6, 5, 4]).reset()
    np.testing.assert_array_equal(d[::-1], c)


def test_zero_copy_and_block_reuse(make):
    env = make("CartPole-v1", num_envs=8, batch_size=4, num_threads=2)
    env.async_reset()
    obs, rew, term, trunc, info = env.recv()
    # Every array of a batch views the same block, owned by one capsule.
    assert not obs.flags.owndata and not rew.flags.owndata
    assert obs.base is rew.base is info["env_id"].base
    held = obs
    held_copy = obs.copy()
    addresses = set()
    for _ in range(200):
        env.send(np.zeros(4, np.int32), info["env_id"])
        obs, rew, term, trunc, info = env.recv()
        addresses.add(obs.__array_interface__["data"][0])
        assert not np.shares_memory(obs, held)
    # A block a user still holds is never overwritten...
    np.testing.assert_array_equal(held, held_copy)
    # ...and released blocks are reused: a handful of addresses, no growth.
    assert len(addresses) <= 6
    blocks = env._pool.blocks_allocated
    del held
    for _ in range(200):
        env.send(np.zeros(4, np.int32), info["env_id"])
        obs, rew, term, trunc, info = env.recv()
    assert env._pool.blocks_allocated == blocks


def test_arrays_outlive_the_pool():
    env = envpool_lite.make("CartPole-v1", num_envs=4)
    obs, _ = env.reset()
    expected = obs.copy()
    env.close()
    del env
    gc.collect()
    np.testing.assert_array_equal(obs, expected)


def test_no_memory_growth_over_100k_steps(make):
    env = make("CartPole-v1", num_envs=16, batch_size=8, num_threads=2)
    env.async_reset()
    proc = psutil.Process()
    actions = np.zeros(8, np.int32)

    def run(batches):
        for _ in range(batches):
            obs, rew, term, trunc, info = env.recv()
            env.send(actions, info["env_id"])

    run(2000)
    blocks = env._pool.blocks_allocated
    rss = proc.memory_info().rss
    run(100_000 // 8)
    assert env._pool.blocks_allocated == blocks
    assert proc.memory_info().rss - rss < 2 * 1024 * 1024


def test_partial_reset_in_sync_mode(make):
    env = make("Dummy-v0", num_envs=4, seed=0)
    env.reset()
    for _ in range(3):
        env.step(np.zeros(4, np.int32))
    obs, info = env.reset(env_id=np.array([2, 0]))
    np.testing.assert_array_equal(info["env_id"], [2, 0])
    np.testing.assert_array_equal(obs[:, 2], [0, 0])
    obs, rew, term, trunc, info = env.step(np.ones(4, np.int32))
    np.testing.assert_array_equal(obs[:, 2], [1, 4, 1, 4])


def test_reset_reseeds(make):
    env = make("CartPole-v1", num_envs=3, seed=0)
    first, _ = env.reset()
    env.step(np.ones(3, np.int32))
    again, _ = env.reset(seed=0)
    np.testing.assert_array_equal(first, again)
    other, _ = env.reset(seed=[1, 2, 3])
    np.testing.assert_array_equal(other[:2], first[1:])


def test_len_config_spec_repr(make):
    env = make("CartPole-v1", num_envs=5, batch_size=2)
    assert len(env) == 5
    assert env.config["num_envs"] == 5 and env.config["batch_size"] == 2
    assert env.config["max_episode_steps"] == 500
    assert env.spec.task_id == "CartPole-v1"
    assert env.is_async
    assert "CartPole-v1" in repr(env)
    with envpool_lite.make("CartPole-v1", num_envs=2) as env2:
        env2.reset()
    with pytest.raises(RuntimeError, match="closed"):
        env2.reset()


def test_max_episode_steps_truncates(make):
    env = make("CartPole-v1", num_envs=2, max_episode_steps=5, seed=1)
    env.reset()
    for t in range(1, 6):
        obs, rew, term, trunc, info = env.step(np.array([0, 1], np.int32))
        np.testing.assert_array_equal(info["elapsed_step"], [t, t])
    assert trunc.all()
    obs, rew, term, trunc, info = env.step(np.array([0, 1], np.int32))
    np.testing.assert_array_equal(info["elapsed_step"], [0, 0])
    np.testing.assert_array_equal(rew, [0, 0])


def test_continue_game_keeps_the_time_limit_per_game(make):
    """An env that can play on after a termination (Atari's episodic_life)
    continues its game on auto-reset; the time limit counts the whole game;
    an explicit reset starts a new game."""
    env = make("Dummy-v0", num_envs=1, seed=0, lives=3, episode_length=4, max_episode_steps=100)
    obs, info = env.reset()
    assert info["lives"][0] == 3 and info["episode"][0] == 0
    seen = []
    for _t in range(15):
        obs, rew, term, trunc, info = env.step(np.zeros(1, np.int32))
        seen.append((bool(term[0]), int(info["lives"][0]), int(info["episode"][0]), int(info["elapsed_step"][0])))
    # Lives 3 -> 2 -> 1 -> 0 every 4 steps, same game (episode 0); the step
    # after each termination continues it without resetting elapsed_step.
    assert seen[3] == (True, 2, 0, 4)
    assert seen[4] == (False, 2, 0, 4)
    assert seen[8] == (True, 1, 0, 8)
    assert seen[13] == (True, 0, 0, 12)
    assert seen[14] == (False, 3, 1, 0)  # game over: a new game
    env.step(np.zeros(1, np.int32))
    env.step(np.zeros(1, np.int32))
    obs, info = env.reset()
    assert info["lives"][0] == 3 and info["episode"][0] == 2 and info["elapsed_step"][0] == 0


def test_time_limit_ends_the_whole_game(make):
    env = make("Dummy-v0", num_envs=1, seed=0, lives=100, episode_length=3, max_episode_steps=10)
    env.reset()
    for _t in range(30):
        obs, rew, term, trunc, info = env.step(np.zeros(1, np.int32))
        if trunc[0]:
            break
    # Three lost lives on the way did not restart the count.
    assert trunc[0] and info["elapsed_step"][0] == 10 and info["lives"][0] == 97
    obs, rew, term, trunc, info = env.step(np.zeros(1, np.int32))
    assert info["episode"][0] == 1 and info["elapsed_step"][0] == 0 and info["lives"][0] == 100


def test_sync_full_send_in_any_id_order_comes_back_in_env_id_order(make):
    env = make("Dummy-v0", num_envs=5, seed=0)
    env.reset()
    ids = np.array([3, 0, 4, 1, 2])
    actions = np.array([5, 1, 2, 3, 4])
    obs, rew, term, trunc, info = env.step(actions, ids)
    np.testing.assert_array_equal(info["env_id"], np.arange(5))
    np.testing.assert_array_equal(obs[:, 3], [1, 3, 4, 5, 2])  # each env got its own action


@pytest.mark.parametrize("timeout", [None, 5.0])
def test_a_lone_heavy_env_left_for_recv_still_completes(timeout):
    # Sync mode, a core spare, heavy steps: send() wakes no worker for the
    # step recv()'s thread will run itself. recv() with a timeout does not
    # run steps, so it must hand that step to a worker, not time out.
    env = envpool_lite.make("Dummy-v0", num_envs=1, num_threads=1, step_sleep_us=1000)
    env.reset()
    for _ in range(3):
        env.step(np.zeros(1, np.int32))  # recv() learns that steps are heavy
    for i in range(5):
        env.send(np.zeros(1, np.int32))
        obs = env.recv(timeout=timeout)[0]
        assert obs[0, 2] == 4 + i  # the step in the episode: every step ran once
    env.close()
