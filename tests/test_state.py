"""get_state / set_state, the engine's part: the envelope's checks (another
task, other options, another version, truncated or corrupted bytes, wrong
lengths and types: a ValueError or TypeError that leaves the pool as it
was), the rules (an env in flight, an env never reset), a family that
cannot save its envs (NotImplementedError naming it), and every face
(gymnasium, gym, dm_env, the PettingZoo one). The families' own tests
(tests/<family>/test_<family>_state.py) replay every task id."""

from __future__ import annotations

import struct

import numpy as np
import pytest
import state_check

import envpool_lite


def _pool(**options):
    return envpool_lite.make("Dummy-v0", env_type="gymnasium", num_envs=3, seed=1, **options)


def _stepped(env, steps=4):
    env.reset()
    for t in range(steps):
        env.step(np.array([t % 6, (t + 1) % 6, (t + 2) % 6]))
    return env


# --- the envelope, read as set_state reads it ----------------------------
M64 = (1 << 64) - 1


def _digest(data: bytes) -> int:
    """core/state_blob.h's Digest, for a state rebuilt with another
    version."""
    mul, prime = 0x9E3779B97F4A7C15, ((0x100000001B3 * 0xFF51AFD7ED558CCD) & M64) | 1
    n = len(data)
    h = 0xCBF29CE484222325 ^ ((n * mul) & M64)
    full = n - n % 8
    for i in range(0, full, 8):
        (w,) = struct.unpack_from("<Q", data, i)
        h = ((h ^ ((w * mul) & M64)) * prime) & M64
    tail = int.from_bytes(data[full:], "little")
    h = ((h ^ ((tail * mul) & M64)) * prime) & M64
    h ^= h >> 33
    h = (h * 0xC4CEB9FE1A85EC53) & M64
    h ^= h >> 29
    return h


def _with_version(state: bytes, version: bytes) -> bytes:
    """The state as another version would have sealed it."""
    (n,) = struct.unpack_from("<H", state, 12)
    rebuilt = state[:12] + struct.pack("<H", len(version)) + version + state[14 + n : -8]
    return rebuilt + struct.pack("<Q", _digest(rebuilt))


def test_digest_is_the_engines():
    env = _stepped(_pool())
    state = env.get_state([0])[0]
    assert struct.unpack("<Q", state[-8:])[0] == _digest(state[:-8])
    assert _with_version(state, envpool_lite.__version__.encode()) == state
    env.close()


BAD = {
    "truncated": (lambda s: s[:-5], ValueError, "state 1 \\(for env 1\\) is truncated"),
    "cut in its header": (lambda s: s[:10], ValueError, "truncated"),
    "one byte flipped": (lambda s: s[:60] + bytes([s[60] ^ 1]) + s[61:], ValueError, "is corrupted"),
    "bytes after its end": (lambda s: s + b"\0", ValueError, "bytes too many"),
    "not a state": (lambda s: b"hello world, not a state at all", ValueError, "is not an envpool_lite env state"),
    "another version": (lambda s: _with_version(s, b"9.9.9"), ValueError, "made by envpool_lite 9.9.9"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_state_is_refused_and_changes_nothing(case):
    corrupt, error, match = BAD[case]
    env = _stepped(_pool())
    states = env.get_state()
    good = env.get_state([0])
    with pytest.raises(error, match=match):
        env.set_state([0, 1], [good[0], corrupt(states[1])])  # the good one is not loaded either
    assert env.get_state() == states  # nothing changed, and nothing is in flight
    a = state_check.copy_out(env.step(np.array([1, 2, 3])))
    env.set_state(None, states)
    env.recv()
    state_check.assert_same(state_check.copy_out(env.step(np.array([1, 2, 3]))), a, case)
    env.close()


def test_state_of_another_task_or_options():
    env = _stepped(_pool())
    state = env.get_state([0])
    other_task = envpool_lite.make("CartPole-v1", env_type="gymnasium", num_envs=1)
    other_task.reset()
    with pytest.raises(ValueError, match="is of task 'Dummy-v0'; this pool runs 'CartPole-v1'"):
        other_task.set_state([0], state)
    other_options = _pool(episode_length=7)
    other_options.reset()
    with pytest.raises(ValueError, match="other options"):
        other_options.set_state([0], state)
    same_step = envpool_lite.make("Dummy-v0", env_type="gymnasium", num_envs=3, autoreset_mode="same_step")
    same_step.reset()
    with pytest.raises(ValueError, match="other options"):
        same_step.set_state([0], state)
    # The pool's own sizes and seed are not the state's options.
    bigger = envpool_lite.make("Dummy-v0", env_type="gymnasium", num_envs=5, batch_size=2, num_threads=1, seed=99)
    bigger.async_reset()
    while bigger._pool.in_flight:
        bigger.recv()
    bigger.set_state([4], state)
    assert list(bigger.recv()[4]["env_id"]) == [4]
    for e in (env, other_task, other_options, same_step, bigger):
        e.close()


def test_wrong_lengths_and_types():
    env = _stepped(_pool())
    states = env.get_state()
    with pytest.raises(ValueError, match="one state per env id: got 2 env ids and 3 states"):
        env.set_state([0, 1], states)
    with pytest.raises(TypeError, match="sequence of bytes"):
        env.set_state([0], states[0])
    with pytest.raises(TypeError, match="must be bytes objects"):
        env.set_state([0], ["text"])
    with pytest.raises(ValueError, match="appears twice"):
        env.set_state([0, 0], [states[0], states[0]])
    with pytest.raises(ValueError, match="out of range"):
        env.get_state([3])
    env.set_state(None, states)  # usable after every refusal
    env.recv()
    env.close()


def test_env_in_flight_or_never_reset():
    env = envpool_lite.make("Dummy-v0", env_type="gymnasium", num_envs=4, batch_size=2, num_threads=1)
    with pytest.raises(ValueError, match="has not been reset yet"):
        env.get_state([0])
    env.async_reset()
    got = env.recv()[4]["env_id"]
    busy = sorted(set(range(4)) - set(got.tolist()))
    if env._pool.in_flight:
        with pytest.raises(ValueError, match="is being stepped"):
            env.get_state([busy[0]])
    states = env.get_state(got)  # those await an action
    with pytest.raises(ValueError, match="is not awaiting an action"):
        env.set_state([busy[0]], [states[0]])
    env.close()


def test_family_that_cannot_save_says_so():
    env = _stepped(_pool(saves_state=False))
    with pytest.raises(NotImplementedError, match="the testing family \\(task 'Dummy-v0'\\) cannot save an env's state: this Dummy-v0 was made with saves_state=False"):
        env.get_state([0])
    env.step(np.array([1, 2, 3]))  # still usable
    env.close()


def test_restore_after_an_env_error_and_a_pending_reset():
    # Env 0's episode ends at step 3 (episode_length=3): the state holds the
    # pending auto-reset, and the restored env resets on its next action.
    env = envpool_lite.make("Dummy-v0", env_type="gymnasium", num_envs=1, episode_length=3)
    env.reset()
    for _ in range(3):
        out = env.step(np.array([1]))
    assert out[2][0]
    state = env.get_state()
    after = state_check.copy_out(env.step(np.array([2])))  # the auto-reset
    env.set_state(None, state)
    again = state_check.copy_out(env.recv())
    state_check.assert_same(again[:4], state_check.copy_out(out)[:4], "the ending row")
    state_check.assert_same(state_check.copy_out(env.step(np.array([2]))), after, "the auto-reset after restore")
    env.close()


@pytest.mark.parametrize("env_type", ["gym", "dm"])
def test_gym_and_dm_faces(env_type):
    env = envpool_lite.make("CartPole-v1", env_type=env_type, num_envs=2, seed=3)
    env.reset()
    for _ in range(3):
        env.step(np.array([0, 1]))
    states = env.get_state()
    first = state_check.copy_out(env.step(np.array([1, 1])))
    env.set_state(None, states)
    env.recv()
    again = state_check.copy_out(env.step(np.array([1, 1])))
    state_check.assert_same(again, first, env_type)
    env.close()


def test_pettingzoo_face():
    pytest.importorskip("pettingzoo")
    from envpool_lite.multiagent import make_pettingzoo

    for api in ("parallel", "aec"):
        env = make_pettingzoo("tic_tac_toe", api=api, seed=4)
        env.reset(seed=4)
        agent_moves = [0, 4, 8]
        if api == "parallel":
            for move in agent_moves[:2]:
                acting = env.possible_agents[int(env._info["current_player"][0])]
                env.step({acting: move})
            state = env.get_state()
            acting = env.possible_agents[int(env._info["current_player"][0])]
            first = env.step({acting: 8})
            env.set_state(state)
            again = env.step({acting: 8})
            assert str(first) == str(again)
        else:
            for move in agent_moves[:2]:
                env.step(move)
            state = env.get_state()
            env.step(8)
            first = env.last()
            env.set_state(state)
            env.step(8)
            assert str(env.last()) == str(first)
        env.close()
