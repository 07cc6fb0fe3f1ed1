"""xla(): send / recv / step inside jax.jit, lax.fori_loop and lax.scan, on
the gym, gymnasium and dm faces, against the same pool stepped from Python
(same seed, same actions: every field equal, through episode ends and
auto-resets); async pools; bad input (a wrong action shape fails at trace
time with step()'s message, a bad action value or a closed pool raises and
never crashes)."""

import re

import numpy as np
import pytest

import envpool_lite
from envpool_lite.xla import built_with_jax

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
pytest.importorskip("jax.ffi")

if built_with_jax() is None:
    pytest.skip("envpool_lite was built without JAX (no xla())", allow_module_level=True)


def random_actions(task, n, steps, seed):
    space = envpool_lite.make_spec(task).action_space
    rng = np.random.default_rng(seed)
    if hasattr(space, "n"):
        return rng.integers(0, space.n, size=(steps, n)).astype(np.int32)
    return rng.uniform(space.low, space.high, size=(steps, n, *space.shape)).astype(np.float32)


def as_expected(value):
    """What the same field looks like through xla() without x64: float64 /
    int64 arrays come back as float32 / int32."""
    value = np.asarray(value)
    if value.dtype == np.float64:
        return value.astype(np.float32)
    if value.dtype == np.int64:
        return value.astype(np.int32)
    return value


def assert_tree_equal(ours, ref, where):
    ours_leaves, ours_tree = jax.tree_util.tree_flatten(ours)
    ref_leaves, ref_tree = jax.tree_util.tree_flatten(ref)
    assert ours_tree == ref_tree, where
    for a, b in zip(ours_leaves, ref_leaves):
        a, b = as_expected(a), as_expected(b)
        assert a.dtype == b.dtype and a.shape == b.shape, (where, a.dtype, b.dtype, a.shape, b.shape)
        np.testing.assert_array_equal(a, b, err_msg=where)


@pytest.mark.parametrize(
    "task, env_type, kwargs",
    [
        ("CartPole-v1", "gym", {}),
        ("CartPole-v1", "gymnasium", {}),
        ("CartPole-v1", "dm", {}),
        ("Pendulum-v1", "gymnasium", {"max_episode_steps": 30}),
        ("Pong-v5", "gym", {"episodic_life": True, "reward_clip": True, "max_episode_steps": 60}),
        ("LunarLander-v3", "gym", {"max_episode_steps": 50}),
    ],
)
def test_scan_equals_python_steps(task, env_type, kwargs):
    """lax.scan over step() inside jit: the stacked outputs equal the same
    pool stepped from Python, step by step (CartPole's random actions end
    and auto-reset episodes; Pong and Pendulum hit their time limits)."""
    n, steps = 4, 80
    actions = random_actions(task, n, steps, seed=3)
    ours = envpool_lite.make(task, env_type=env_type, num_envs=n, seed=7, **kwargs)
    ref = envpool_lite.make(task, env_type=env_type, num_envs=n, seed=7, **kwargs)
    try:
        handle, recv, send, step = ours.xla()
        first = ours.reset()
        assert_tree_equal(first, ref.reset(), "reset")

        @jax.jit
        def rollout(handle, actions):
            def body(handle, action):
                handle, out = step(handle, action)
                return handle, out

            return jax.lax.scan(body, handle, actions)

        handle, outs = rollout(handle, actions)
        ended = 0
        for t in range(steps):
            expected = ref.step(actions[t])
            got = jax.tree_util.tree_map(lambda x, t=t: x[t], outs)
            assert_tree_equal(got, expected, f"step {t}")
            last = expected[2] if env_type == "gym" else (expected.step_type == 2 if env_type == "dm" else expected[2] | expected[3])
            ended += int(np.sum(last))
        assert ended > 0, "no episode ended: the test covers no auto-reset"
        # The pool goes on from Python after the traced steps.
        assert_tree_equal(ours.step(actions[0]), ref.step(actions[0]), "after")
    finally:
        ours.close()
        ref.close()


def test_fori_loop_with_handle_in_the_carry():
    """CleanRL's pattern: the handle rides in a fori_loop carry with other
    state; rewards summed inside the loop equal the Python loop's."""
    n = 8
    ours = envpool_lite.make("CartPole-v1", env_type="gym", num_envs=n, seed=1)
    ref = envpool_lite.make("CartPole-v1", env_type="gym", num_envs=n, seed=1)
    try:
        handle, recv, send, step = ours.xla()
        ours.reset()
        ref.reset()

        def body(i, carry):
            handle, total, key = carry
            key, sub = jax.random.split(key)
            action = jax.random.randint(sub, (n,), 0, 2, dtype=jnp.int32)
            handle, (obs, reward, done, info) = step(handle, action)
            return handle, total + reward, key

        run = jax.jit(lambda h: jax.lax.fori_loop(0, 100, body, (h, jnp.zeros(n), jax.random.PRNGKey(0))))
        handle, total, _ = run(handle)
        key, expected = jax.random.PRNGKey(0), np.zeros(n, np.float32)
        for _ in range(100):
            key, sub = jax.random.split(key)
            action = np.asarray(jax.random.randint(sub, (n,), 0, 2, dtype=jnp.int32))
            expected += ref.step(action)[1]
        np.testing.assert_array_equal(np.asarray(total), expected)
        # A second call of the jitted loop continues where the first stopped.
        handle, total2, _ = run(handle)
        assert np.asarray(total2).sum() > 0
    finally:
        ours.close()
        ref.close()


def test_async_recv_send():
    """An async pool (batch_size < num_envs): recv() and send(env_id=...)
    inside jit, against the same policy run from Python. Which envs make up
    a batch depends on thread timing, so each env's own trajectory is
    compared (the policy reads the observation only, so each is deterministic)."""
    task, n, batch, steps = "CartPole-v1", 6, 3, 60
    ours = envpool_lite.make(task, env_type="gymnasium", num_envs=n, batch_size=batch, num_threads=1, seed=5)
    ref = envpool_lite.make(task, env_type="gymnasium", num_envs=n, batch_size=batch, num_threads=1, seed=5)
    try:
        handle, recv, send, step = ours.xla()
        ours.async_reset()
        ref.async_reset()

        @jax.jit
        def loop(handle):
            def body(handle, _):
                handle, (obs, reward, terminated, truncated, info) = recv(handle)
                action = (obs[:, 2] < 0).astype(jnp.int32)  # pushes the pole over
                handle = send(handle, action, info["env_id"])
                return handle, (obs, reward, terminated, info["env_id"])

            return jax.lax.scan(body, handle, None, length=steps)

        handle, (obs, reward, terminated, ids) = loop(handle)
        traced = {i: [] for i in range(n)}
        for t in range(steps):
            for row, i in enumerate(np.asarray(ids[t])):
                traced[int(i)].append((np.asarray(obs[t][row]), float(reward[t][row]), bool(terminated[t][row])))
        python = {i: [] for i in range(n)}
        for _ in range(steps):
            r_obs, r_reward, r_term, _, r_info = ref.recv()
            for row, i in enumerate(r_info["env_id"]):
                python[int(i)].append((r_obs[row], float(np.float32(r_reward[row])), bool(r_term[row])))
            ref.send((r_obs[:, 2] < 0).astype(np.int32), r_info["env_id"])
        for i in range(n):
            common = min(len(traced[i]), len(python[i]))
            assert common >= 10, (i, len(traced[i]), len(python[i]))
            for k in range(common):
                np.testing.assert_array_equal(traced[i][k][0], python[i][k][0], err_msg=f"env {i} step {k}")
                assert traced[i][k][1:] == python[i][k][1:], (i, k)
        assert sum(t[2] for i in range(n) for t in traced[i]) > 0, "no episode ended"
        # send() without env_id in an async pool: a clear error at trace time.
        with pytest.raises(ValueError, match="needs env_id"):
            send(handle, jnp.zeros(batch, jnp.int32))
    finally:
        ours.close()
        ref.close()


def test_wrong_action_shape_fails_at_trace_time_with_steps_message():
    env = envpool_lite.make("Pendulum-v1", env_type="gym", num_envs=3, seed=0)
    try:
        handle, recv, send, step = env.xla()
        env.reset()
        bad = np.zeros((3, 2), np.float32)
        with pytest.raises(ValueError) as outside:
            env.step(bad)
        with pytest.raises(ValueError, match=re.escape(str(outside.value))):
            jax.jit(step)(handle, bad)
        with pytest.raises(ValueError, match=re.escape(str(outside.value))):
            jax.jit(send).lower(handle, bad)
        # Nothing was sent: the pool goes on.
        env.step(np.zeros((3, 1), np.float32))
    finally:
        env.close()


def test_bad_action_value_raises_and_the_pool_stays_usable():
    env = envpool_lite.make("CartPole-v1", env_type="gym", num_envs=2, seed=0)
    try:
        handle, recv, send, step = env.xla()
        env.reset()
        with pytest.raises(Exception, match="out of range for Discrete"):
            jax.block_until_ready(jax.jit(step)(handle, jnp.array([0, 7], jnp.int32)))
        handle, (obs, reward, done, info) = jax.jit(step)(handle, jnp.array([0, 1], jnp.int32))
        assert np.asarray(reward).tolist() == [1.0, 1.0]
        with pytest.raises(Exception, match="is not a finite float32"):
            env2 = envpool_lite.make("Pendulum-v1", env_type="gym", num_envs=1, seed=0)
            h2, _, _, step2 = env2.xla()
            env2.reset()
            try:
                jax.block_until_ready(jax.jit(step2)(h2, jnp.array([[jnp.nan]], jnp.float32)))
            finally:
                env2.close()
    finally:
        env.close()


def test_handle_after_close_raises():
    env = envpool_lite.make("CartPole-v1", env_type="gym", num_envs=2, seed=0)
    handle, recv, send, step = env.xla()
    env.reset()
    jitted = jax.jit(step)
    jitted(handle, jnp.zeros(2, jnp.int32))
    env.close()
    with pytest.raises(Exception, match="closed"):
        jax.block_until_ready(jitted(handle, jnp.zeros(2, jnp.int32)))
    # The functions keep their pool; once pool and functions are gone, the
    # handle names nothing, even passed to another pool's functions.
    del env, recv, send, step, jitted
    import gc

    gc.collect()
    other = envpool_lite.make("CartPole-v1", env_type="gym", num_envs=2, seed=0)
    try:
        _, _, _, other_step = other.xla()
        other.reset()
        with pytest.raises(Exception, match="no longer exists"):
            jax.block_until_ready(jax.jit(other_step)(handle, jnp.zeros(2, jnp.int32)))
        with pytest.raises(Exception, match="handle must be"):
            jax.block_until_ready(jax.jit(other_step)(np.zeros(3, np.uint32), jnp.zeros(2, jnp.int32)))
    finally:
        other.close()


def test_xla_and_python_steps_interleaved_on_one_pool():
    """A sync pool's xla() step has the workers write the batch straight into
    XLA's result buffers (no copy); the pool's own block goes back to its
    spares. Steps through xla() and from Python, alternating on one pool,
    equal a pool stepped from Python only: no batch lands in the wrong
    memory."""
    task, n, steps = "Pong-v5", 4, 60
    actions = random_actions(task, n, steps, seed=3)
    env = envpool_lite.make(task, env_type="gymnasium", num_envs=n, seed=5, max_episode_steps=25)
    ref = envpool_lite.make(task, env_type="gymnasium", num_envs=n, seed=5, max_episode_steps=25)
    try:
        handle, _, _, step = env.xla()
        jitted = jax.jit(step)
        env.reset()
        ref.reset()
        held = []  # Python batches kept alive across the xla() steps
        for t in range(steps):
            expected = ref.step(actions[t])
            if t % 4 == 0:  # then three Python steps, which reuse its block
                handle, ours = jitted(handle, jnp.asarray(actions[t]))
                ours = jax.device_get(ours)
            else:
                ours = env.step(actions[t])
                held.append((ours[0], expected[0].copy()))
            assert_tree_equal(ours, expected, f"step {t}")
        for obs, want in held:
            np.testing.assert_array_equal(obs, want)
    finally:
        env.close()
        ref.close()


def test_close_from_another_thread_during_a_jitted_rollout():
    """close() while xla()'s steps run inside a jitted scan: the call raises
    (the pool is closed) once no worker can still write into XLA's buffers,
    and nothing crashes."""
    import threading

    env = envpool_lite.make("Pong-v5", env_type="gym", num_envs=8, seed=0)
    handle, _, _, step = env.xla()
    env.reset()

    @jax.jit
    def rollout(handle):
        return jax.lax.scan(lambda h, _: (step(h, jnp.zeros(8, jnp.int32))[0], None), handle, None, length=100_000)[0]

    rollout.lower(handle).compile()
    closer = threading.Timer(0.5, env.close)
    closer.start()
    with pytest.raises(Exception, match="closed"):
        jax.block_until_ready(rollout(handle))
    closer.join()
    # The process goes on: another pool steps normally.
    other = envpool_lite.make("Pong-v5", env_type="gym", num_envs=8, seed=0)
    other.reset()
    assert other.step(np.zeros(8, np.int32))[0].shape == (8, 4, 84, 84)
    other.close()


def test_pools_it_cannot_serve():
    dict_obs = envpool_lite.make("AcrobotSwingup-v1", env_type="dm", num_envs=1)
    try:
        with pytest.raises(RuntimeError, match="observation is a dict"):
            dict_obs.xla()
    finally:
        dict_obs.close()
    same_step = envpool_lite.make("CartPole-v1", env_type="gymnasium", num_envs=1, autoreset_mode="SAME_STEP")
    try:
        with pytest.raises(RuntimeError, match="NEXT_STEP"):
            same_step.xla()
    finally:
        same_step.close()
