"""The multi-player faces (envpool_lite.multiagent) on every multi-player
task: PettingZoo's own API and seed tests (code none of us wrote) on the
PettingZoo faces, the flattened-agents face against the pool it wraps, and
their errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import envpool_lite
from envpool_lite.multiagent import players_of


def _multi_player_tasks() -> list[str]:
    """Every multi-player task once: pgx's games under pgx's ids (EnvPool's
    names are the same envs) and highway's multi-agent intersections."""
    tasks = []
    for task_id in envpool_lite.list_all_envs():
        family = envpool_lite.families.family_of(task_id)
        if family == "pgx" and task_id[0].isupper() and task_id != "Go13x13-v1":
            continue  # EnvPool's name of a pgx id (pgx has no 13x13 id of its own)
        if players_of_or_none(task_id) is not None:
            tasks.append(task_id)
    return tasks


def players_of_or_none(task_id: str):
    try:
        return players_of(envpool_lite.make_spec(task_id))
    except ValueError:
        return None


MULTI = _multi_player_tasks()
# Long games (go_19x19 ends at 722 moves): PettingZoo's tests cycle a few
# hundred steps of each task.
CYCLES = 200


def test_the_multi_player_tasks_are_found():
    assert "tic_tac_toe" in MULTI and "intersection-multi-agent-v1" in MULTI
    assert "CartPole-v1" not in MULTI and "2048" not in MULTI and "highway-v0" not in MULTI


@pytest.mark.parametrize("task_id", MULTI)
def test_pettingzoo_api_tests(task_id):
    from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

    with warnings.catch_warnings():
        # PettingZoo's advice on observation ranges (all-zero boards,
        # unbounded kinematics): warnings, not failures.
        warnings.simplefilter("ignore", UserWarning)
        parallel_api_test(envpool_lite.make_pettingzoo(task_id, api="parallel"), num_cycles=CYCLES)
        api_test(envpool_lite.make_pettingzoo(task_id, api="aec"), num_cycles=CYCLES)
        seed_test(lambda: envpool_lite.make_pettingzoo(task_id, api="aec"), num_cycles=CYCLES // 4)
        parallel_seed_test(lambda: envpool_lite.make_pettingzoo(task_id, api="parallel"), num_cycles=CYCLES // 4)


@pytest.mark.parametrize("task_id", MULTI)
def test_flat_agents_rows_are_the_pools(task_id):
    """Row env * players + player of the flattened face is player `player`
    of env `env` of the same pool stepped with the same joint actions."""
    n = 3
    flat = envpool_lite.make_flat_agents(task_id, num_envs=n, seed=7)
    pool = envpool_lite.make_gymnasium(task_id, num_envs=n, seed=7)
    layout = players_of(pool.spec)
    p = layout.num_players
    rng = np.random.default_rng(0)
    try:
        obs, info = flat.reset()
        ref_obs, ref_info = pool.reset()
        assert flat.num_agents == n * p
        np.testing.assert_array_equal(obs, ref_obs.reshape(n * p, *ref_obs.shape[2:]))
        ended = 0
        for _ in range(60):
            mask = info["action_mask"]
            actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask], np.int32)
            if layout.turn_based:
                # Only the acting player's action counts: the others get garbage.
                assert (info["active"].reshape(n, p).sum(1) == 1).all()
                actions = np.where(info["active"], actions, rng.integers(0, 1000, n * p))
                joint = actions.reshape(n, p)[np.arange(n), ref_info["current_player"]]
            else:
                joint = actions.reshape(n, p)
            obs, rew, term, trunc, info = flat.step(actions)
            ref_obs, ref_rew, ref_term, ref_trunc, ref_info = pool.step(joint)
            np.testing.assert_array_equal(obs, ref_obs.reshape(n * p, *ref_obs.shape[2:]))
            ref_rewards = ref_info[layout.reward_info] if layout.reward_info else ref_rew
            np.testing.assert_array_equal(rew, np.asarray(ref_rewards).reshape(-1))
            np.testing.assert_array_equal(term, np.repeat(ref_term, p))
            np.testing.assert_array_equal(trunc, np.repeat(ref_trunc, p))
            np.testing.assert_array_equal(info["env_id"], np.repeat(np.arange(n), p))
            np.testing.assert_array_equal(info["player_id"], np.tile(np.arange(p), n))
            ended += int(ref_term.sum() + ref_trunc.sum())
        if task_id in ("tic_tac_toe", "connect_four"):
            assert ended > 0
    finally:
        flat.close()
        pool.close()


def test_pettingzoo_turn_based_semantics():
    """tic_tac_toe: the acting player's action is played, the others'
    ignored; the mask is the mover's; a finished game has no agents."""
    env = envpool_lite.make_pettingzoo("tic_tac_toe", api="parallel")
    obs, infos = env.reset(seed=3)
    acting = [a for a in env.agents if obs[a]["action_mask"].any()]
    assert len(acting) == 1
    (mover,) = acting
    other = next(a for a in env.agents if a != mover)
    assert not obs[other]["action_mask"].any()
    # Missing the mover's action: a clear error, and the game is unchanged.
    with pytest.raises(ValueError, match=f"{mover}'s turn"):
        env.step({other: 0})
    with pytest.raises(ValueError, match="not in the game"):
        env.step({mover: 0, "player_9": 0})
    # Illegal move (pgx: the mover loses): play cell 4 twice.
    env.step({mover: 4, other: 8})
    obs, rew, term, trunc, _ = env.step({other: 4, mover: 0})
    assert term[other] and term[mover] and rew[other] == -1.0 and rew[mover] == 1.0
    assert env.agents == []
    with pytest.raises(RuntimeError, match="reset"):
        env.step({mover: 0})
    env.close()


def test_errors():
    with pytest.raises(ValueError, match="one player"):
        envpool_lite.make_flat_agents("CartPole-v1")
    with pytest.raises(ValueError, match="one player"):
        envpool_lite.make_pettingzoo("CartPole-v1")
    with pytest.raises(ValueError, match="num_envs must be 1"):
        envpool_lite.make_pettingzoo("tic_tac_toe", num_envs=2)
    with pytest.raises(ValueError, match="api must be"):
        envpool_lite.make_pettingzoo("tic_tac_toe", api="vector")
    with pytest.raises(ValueError, match="batch_size must equal num_envs"):
        envpool_lite.make_flat_agents("tic_tac_toe", num_envs=4, batch_size=2)
    flat = envpool_lite.make_flat_agents("tic_tac_toe", num_envs=2)
    with pytest.raises(RuntimeError, match="reset"):
        flat.step(np.zeros(4, np.int32))
    flat.reset()
    with pytest.raises(ValueError, match="one action per agent"):
        flat.step(np.zeros(2, np.int32))
    flat.close()
