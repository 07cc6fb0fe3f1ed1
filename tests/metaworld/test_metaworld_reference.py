"""The reference side of the metaworld family's alignment (tests/
metaworld_reference.py, run by tests/metaworld/metaworld_alignment.py in a subprocess on metaworld
3.1.1 and mujoco 3.3.0 from build/compat/metaworld_oracle), alone: shapes,
resets after each time limit, the info keys of the env and of its
wrappers."""

from __future__ import annotations

import numpy as np
import pytest
from metaworld_alignment import run_reference

ENV_INFO = {"success", "near_object", "grasp_success", "grasp_reward", "in_place_reward", "obj_to_target", "unscaled_reward"}
SEEDS = [7, 8]
STEPS = 30
LIMIT = 10


@pytest.mark.parametrize("env_name", ["reach-v3", "push-v3"])
def test_reference_runs(env_name):
    rng = np.random.default_rng(0)
    actions = [rng.uniform(-1, 1, (STEPS, 4)).astype(np.float32) for _ in SEEDS]
    ref = run_reference(env_name, SEEDS, actions, max_episode_steps=LIMIT)
    assert ref["versions"][:2] == ["3.1.1", "3.3.0"], ref["versions"]
    assert set(ref["env_info_keys"]) == ENV_INFO
    assert ref["wrapper_info_keys"] == ["episode"]  # RecordEpisodeStatistics', at episode ends
    assert ref["reset_info_keys"] == []
    # Rows: steps 1..10, a reset, steps 1..10, a reset, steps 1..8.
    is_reset = np.zeros(STEPS, bool)
    is_reset[[LIMIT, 2 * LIMIT + 1]] = True
    elapsed = np.array(list(range(1, LIMIT + 1)) + [0] + list(range(1, LIMIT + 1)) + [0] + list(range(1, STEPS - 2 * LIMIT - 1)))
    for env in ref["envs"]:
        assert env["first_obs"].shape == (39,) and env["first_obs"].dtype == np.float64
        assert env["obs"].shape == (STEPS, 39) and env["obs"].dtype == np.float64
        assert env["reward"].shape == (STEPS,) and env["reward"].dtype == np.float64
        for flag in ("terminated", "truncated", "is_reset"):
            assert env[flag].shape == (STEPS,) and env[flag].dtype == bool
        assert np.array_equal(env["is_reset"], is_reset)
        assert np.array_equal(env["elapsed"], elapsed)
        assert not env["terminated"].any()  # metaworld never terminates (terminate_on_success off)
        assert np.array_equal(env["truncated"], elapsed == LIMIT)
        assert set(env["info"]) == ENV_INFO
        for key, values in env["info"].items():
            assert values.shape == (STEPS,) and values.dtype == np.float64
            assert np.isnan(values[is_reset]).all() and not np.isnan(values[~is_reset]).any(), key
            assert set(env["info_type"][key][~is_reset].tolist()) <= {"float", "bool", "int", "float32", "float64"}, key
        assert np.all(env["reward"][is_reset] == 0)
        # A goal drawn at each reset (partially_observable=False: the goal is
        # the observation's last 3 values; its x and y are the goal vector's
        # last 3's, push-v3 sets its own z).
        assert not np.isnan(env["rand_vec"][is_reset]).any() and np.isnan(env["rand_vec"][~is_reset]).all()
        assert np.array_equal(env["first_obs"][-3:-1], env["first_rand_vec"][-3:-1])
        assert np.any(env["first_obs"][-3:] != 0)
    # Different seeds: different goals and states.
    assert not np.array_equal(ref["envs"][0]["first_obs"], ref["envs"][1]["first_obs"])


def test_reference_is_deterministic():
    rng = np.random.default_rng(1)
    actions = [rng.uniform(-1, 1, (12, 4)).astype(np.float32)]
    a = run_reference("reach-v3", [3], actions, max_episode_steps=5)["envs"][0]
    b = run_reference("reach-v3", [3], actions, max_episode_steps=5)["envs"][0]
    for key in ("first_obs", "obs", "reward", "truncated", "is_reset"):
        assert np.array_equal(a[key], b[key]), key
    for key in a["info"]:
        assert np.array_equal(a["info"][key], b["info"][key], equal_nan=True), key
