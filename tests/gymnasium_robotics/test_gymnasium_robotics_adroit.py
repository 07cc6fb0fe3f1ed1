"""Adroit (gymnasium-robotics 1.4.2's adroit_hand): every id aligned step by
step with gymnasium-robotics' own env (tests/gymnasium_robotics/gymnasium_robotics_alignment.py), through
resets, in sync and async pools, with out-of-range actions (clipped as the
reference clips them) and with the success the pen task reaches; spaces;
bad input."""

from __future__ import annotations

import numpy as np
import pytest

import envpool_lite

pytest.importorskip("gymnasium_robotics")
from gymnasium_robotics_alignment import reference_env, run_aligned  # noqa: E402

pytestmark = [pytest.mark.skipif(not envpool_lite._core.MUJOCO_VERSION, reason="built without MuJoCo")]

ADROIT_IDS = [t for t in envpool_lite.list_all_envs() if t.startswith("AdroitHand")]


def test_ids():
    tasks = ["Door", "Hammer", "Pen", "Relocate"]
    assert sorted(ADROIT_IDS) == sorted(f"AdroitHand{t}{s}-v1" for t in tasks for s in ("", "Sparse"))
    for task_id in ADROIT_IDS:
        spec = envpool_lite.make_spec(task_id)
        assert spec.max_episode_steps == 200
        assert spec.config["reward_type"] == ("sparse" if "Sparse" in task_id else "dense")


@pytest.mark.parametrize("task_id", ADROIT_IDS)
def test_aligned(task_id):
    # A short time limit: several episodes (new doors, nails, targets) per run.
    counts = run_aligned(task_id, 25, num_envs=2, max_episode_steps=10)
    assert counts["truncated"] == 4 and counts["steps"] == 46


def test_aligned_async():
    counts = run_aligned("AdroitHandHammer-v1", 40, num_envs=3, batch_size=2, seed=3, max_episode_steps=9)
    assert counts["truncated"] >= 4


def test_aligned_beyond_bounds_and_reward_type_case():
    # Finite actions beyond [-1, 1] are clipped, as the reference's step
    # clips them; reward_type is case-insensitive there too.
    counts = run_aligned("AdroitHandDoor-v1", 12, num_envs=2, action_fn=lambda rng, space, n: rng.uniform(-3, 3, (n,) + space.shape))
    assert counts["steps"] == 24
    counts = run_aligned("AdroitHandRelocate-v1", 6, num_envs=1, reward_type="Sparse")
    assert counts["steps"] == 6


@pytest.mark.parametrize("task_id", ["AdroitHandPen-v1", "AdroitHandPenSparse-v1"])
def test_success_is_reported(task_id):
    """Small actions keep the pen in hand: with seed 1 it reaches its target
    orientation (info["success"], the +10/+50 and sparse 10 rewards), as the
    reference's does (random runs of the other tasks never succeed)."""
    seen = []

    def small(rng, space, n):
        return rng.uniform(space.low, space.high, (n,) + space.shape) * 0.1

    counts = run_aligned(task_id, 40, num_envs=2, seed=1, max_episode_steps=20, action_fn=small)
    assert counts["steps"] == 78
    pool = envpool_lite.make(task_id, env_type="gymnasium", num_envs=2, seed=1, max_episode_steps=20)
    pool.reset()
    rng = np.random.default_rng(1)
    space = pool.single_action_space
    for _ in range(40):
        _, reward, _, _, info = pool.step(small(rng, space, 2).astype(np.float32))
        assert info["success"].dtype == np.bool_
        seen.extend(reward[info["success"]].tolist())
    pool.close()
    assert len(seen) >= 5
    assert all(r == 10.0 for r in seen) if "Sparse" in task_id else all(r > 50 for r in seen)


def test_spaces():
    for task_id, obs_size, nu in [("AdroitHandDoor-v1", 39, 28), ("AdroitHandHammer-v1", 46, 26), ("AdroitHandPen-v1", 45, 24), ("AdroitHandRelocate-v1", 39, 30)]:
        pool = envpool_lite.make(task_id, env_type="gymnasium", num_envs=1)
        ref = reference_env(task_id)
        assert pool.single_observation_space == ref.observation_space
        assert pool.single_observation_space.shape == (obs_size,)
        assert pool.single_action_space == ref.action_space
        assert pool.single_action_space.shape == (nu,)
        pool.close()
        ref.close()


def test_bad_input():
    with pytest.raises(ValueError, match="reward_type"):
        envpool_lite.make("AdroitHandDoor-v1", reward_type="shaped")
    with pytest.raises(ValueError, match="max_episode_steps"):
        envpool_lite.make("AdroitHandDoor-v1", max_episode_steps=0)
    pool = envpool_lite.make("AdroitHandPen-v1", env_type="gymnasium", num_envs=2)
    pool.reset()
    with pytest.raises(ValueError, match="finite"):
        pool.step(np.full((2, 24), np.nan, np.float32))
    with pytest.raises(ValueError):
        pool.step(np.zeros((2, 23), np.float32))
    obs, *_ = pool.step(np.zeros((2, 24), np.float32))  # still usable
    assert obs.shape == (2, 45) and obs.dtype == np.float64
    pool.close()


def test_aligned_default_limit():
    counts = run_aligned("AdroitHandRelocateSparse-v1", 202, num_envs=1, seed=4)
    assert counts["truncated"] == 1 and counts["steps"] == 201


@pytest.mark.parametrize("task_id", ["AdroitHandDoor-v1", "AdroitHandPen-v1"])
def test_pictures_equal_reference(task_id):
    """The door's position and the pen's target change the model at each
    reset; the pictures (gymnasium-robotics' renderer fed the pool's state)
    equal the reference's, through a reset."""
    from envpool_lite.refkit import mujoco_lib as mj

    try:
        mj.gl_backend("test")
    except RuntimeError:
        pytest.skip("no headless OpenGL backend (EGL/OSMesa) here")
    limit = 2
    pool = envpool_lite.make(task_id, env_type="gymnasium", num_envs=1, seed=3, render_mode="rgb_array", max_episode_steps=limit, render_width=96, render_height=80)
    ref = reference_env(task_id, render_mode="rgb_array", width=96, height=80)
    pool.reset()
    ref.reset(seed=3)
    rng = np.random.default_rng(0)
    space = pool.single_action_space
    for t in range(limit + 3):
        np.testing.assert_array_equal(pool.render()[0], ref.render(), err_msg=f"{task_id} step {t}")
        action = rng.uniform(space.low, space.high, space.shape).astype(np.float32)
        pool.step(action[None])
        if t == limit:
            ref.reset()
        else:
            ref.step(action)
    pool.close()
    ref.close()
