"""Shadow Hand (gymnasium-robotics 1.4.2): every id aligned step by step with
gymnasium-robotics' own env (tests/gymnasium_robotics/gymnasium_robotics_alignment.py) through goal
resampling, episode ends and auto-resets, in sync and async pools; the
options of its constructors; the goal functions HER calls against the
reference's; bad input."""

from __future__ import annotations

import numpy as np
import pytest

import envpool_lite
from envpool_lite.families import gymnasium_robotics as gr
from envpool_lite.spec import make_spec

pytest.importorskip("gymnasium_robotics")
from gymnasium_robotics_alignment import reference_env, run_aligned  # noqa: E402

pytestmark = [pytest.mark.skipif(not envpool_lite._core.MUJOCO_VERSION, reason="built without MuJoCo")]

HAND_IDS = sorted(t for t in envpool_lite.list_all_envs() if t.startswith("Hand"))


def _reference_ids() -> list[str]:
    import gymnasium
    import gymnasium_robotics

    gymnasium.register_envs(gymnasium_robotics)
    return sorted(k for k, v in gymnasium.registry.items() if "shadow_dexterous_hand" in str(v.entry_point))


def test_ids():
    # gymnasium-robotics' 112 Shadow Hand ids: the mujoco ones and their
    # mujoco-py (-v0) twins, which run the same env.
    assert HAND_IDS == _reference_ids() and len(HAND_IDS) == 112
    assert gr.reference_id("HandManipulatePen_BooleanTouchSensorsDense-v0") == "HandManipulatePen_BooleanTouchSensorsDense-v1"
    assert gr.reference_id("HandReach-v0") == "HandReach-v3"
    import gymnasium

    for task_id in HAND_IDS:
        ref = gymnasium.registry[gr.reference_id(task_id)]
        config = make_spec(task_id).config
        for key, value in ref.kwargs.items():
            assert config[key] == value, (task_id, key)
        assert config["max_episode_steps"] == ref.max_episode_steps


# Every id, through two auto-resets per env (a 4-step time limit). The -v0
# ids run the same code as their -v1/-v3 twins: fewer steps.
@pytest.mark.parametrize("task_id", HAND_IDS)
def test_aligned(task_id):
    steps = 9 if task_id.endswith("-v0") else 14
    counts = run_aligned(task_id, steps, num_envs=2, max_episode_steps=4)
    # each env: 4 steps, the step that resets it, 4 steps, ...
    assert counts["truncated"] == 2 * ((steps + 1) // 5) and counts["steps"] == 2 * (steps - steps // 5)


def test_aligned_default_limit_and_async():
    counts = run_aligned("HandReach-v3", 53, num_envs=1, seed=5)
    assert counts["truncated"] == 1
    counts = run_aligned("HandManipulateBlockRotateParallelDense-v1", 40, num_envs=3, batch_size=2, seed=3, max_episode_steps=9)
    assert counts["truncated"] >= 4
    counts = run_aligned("HandManipulatePen_ContinuousTouchSensors-v1", 30, num_envs=3, batch_size=1, seed=4, max_episode_steps=7)
    assert counts["truncated"] >= 2
    # a whole episode of the default limit (100) and the reset after it
    counts = run_aligned("HandManipulateEgg_BooleanTouchSensorsDense-v1", 102, num_envs=1, seed=6)
    assert counts["truncated"] == 1 and counts["steps"] == 101


# The constructors' options, passed to both (touch_visualisation only
# changes the picture).
@pytest.mark.parametrize(
    "task_id, options",
    [
        ("HandManipulateBlock_ContinuousTouchSensors-v1", {"touch_get_obs": "log", "touch_visualisation": "off"}),
        ("HandManipulateEggRotate_BooleanTouchSensorsDense-v1", {"touch_get_obs": "sensordata", "touch_visualisation": "always"}),
        ("HandManipulateBlockDense-v1", {"target_position": "fixed", "target_rotation": "parallel", "randomize_initial_rotation": False}),
        ("HandManipulateEgg-v1", {"target_position": "ignore", "target_rotation": "z", "randomize_initial_position": False}),
        ("HandManipulatePenDense-v1", {"target_position": "fixed", "target_rotation": "z", "rotation_threshold": 0.3}),
        ("HandManipulateBlockRotateXYZDense-v1", {"ignore_z_target_rotation": True, "reward_type": "sparse"}),
        ("HandReachDense-v3", {"distance_threshold": 0.02, "reward_type": "sparse", "relative_control": False}),
    ],
)
def test_aligned_options(task_id, options):
    counts = run_aligned(task_id, 12, num_envs=2, max_episode_steps=5, **options)
    assert counts["truncated"] == 4


@pytest.mark.parametrize("task_id", ["HandReach-v3", "HandManipulatePenRotate-v1", "HandManipulateBlock-v1"])
def test_success_is_reported(task_id):
    """With thresholds that every state meets, is_success is 1 and the sparse
    reward 0, as the reference reports them (random actions rarely reach a
    goal with the registered thresholds)."""
    options = {"rotation_threshold": 7.0} if "Pen" in task_id else {"distance_threshold": 10.0}
    if task_id.startswith("HandManipulateBlock"):
        options["rotation_threshold"] = 7.0
    pool = envpool_lite.make(task_id, env_type="gymnasium", num_envs=1, seed=2, **options)
    pool.reset()
    _, reward, _, _, info = pool.step(np.zeros((1, 20), np.float32))
    assert info["is_success"].dtype == np.float32 and info["is_success"][0] == 1.0 and reward[0] == 0.0
    pool.close()
    counts = run_aligned(task_id, 8, num_envs=1, max_episode_steps=3, **options)
    assert counts["steps"] == 6


def _random_goals(rng, task_id, n):
    if task_id.startswith("HandReach"):
        a = rng.normal(1.0, 0.05, (n, 15))
        b = a + rng.normal(0, 0.01, (n, 15))
        b[: n // 4] = a[: n // 4] + rng.normal(0, 0.001, (n // 4, 15))
        return a, b
    q = rng.normal(size=(2, n, 4))
    q /= np.linalg.norm(q, axis=-1, keepdims=True)
    a = np.concatenate([rng.normal(1.0, 0.05, (n, 3)), q[0]], -1)
    b = np.concatenate([a[:, :3] + rng.normal(0, 0.02, (n, 3)), q[1]], -1)
    # near goals: successes, small angles
    b[: n // 4, 3:] = a[: n // 4, 3:] + rng.normal(0, 0.02, (n // 4, 4))
    b[: n // 4, :3] = a[: n // 4, :3] + rng.normal(0, 0.002, (n // 4, 3))
    return a, b


@pytest.mark.parametrize(
    "task_id, options",
    [
        ("HandReach-v3", {}),
        ("HandReachDense-v3", {}),
        ("HandManipulateBlock-v1", {}),
        ("HandManipulateBlockDense-v1", {}),
        ("HandManipulateBlockRotateZDense-v1", {}),
        ("HandManipulateEggRotate_BooleanTouchSensors-v1", {}),
        ("HandManipulatePenDense-v1", {}),
        ("HandManipulatePenRotate-v1", {"rotation_threshold": 0.5}),
        ("HandManipulatePenDense-v1", {"target_position": "fixed"}),
        ("HandManipulateBlockFullDense-v1", {"target_position": "fixed", "ignore_z_target_rotation": True}),
    ],
)
def test_compute_reward_matches_reference(task_id, options):
    pool = envpool_lite.make(task_id, env_type="gymnasium", num_envs=2, **options)
    ref = reference_env(gr.reference_id(task_id), **options)
    rng = np.random.default_rng(0)
    a, b = _random_goals(rng, task_id, 64)
    got = pool.compute_reward(a, b, {})
    want = ref.compute_reward(a, b, {})
    assert got.dtype == want.dtype and np.array_equal(got, want)
    if "Dense" not in task_id:
        assert 0 < np.count_nonzero(want == 0) < 64  # both values occur
    for i in range(4):
        g, w = pool.compute_reward(a[i], b[i], {}), ref.compute_reward(a[i], b[i], {})
        assert type(g) is type(w) and g == w
    assert np.array_equal(pool.compute_terminated(a, b, {}), np.zeros(64, bool))
    assert pool.compute_truncated(a[0], b[0], {}) is False
    # The reward of a step is compute_reward of its goals (one goal at a
    # time: the reference's pen batches differ, see the family's hand.py).
    pool.reset()
    obs, reward, *_ = pool.step(np.zeros((2, 20), np.float32))
    for i in range(2):
        assert pool.compute_reward(obs["achieved_goal"][i], obs["desired_goal"][i], {}) == reward[i]
    size = a.shape[-1]
    with pytest.raises(ValueError, match="same shape"):
        pool.compute_reward(a, b[:3], {})
    with pytest.raises(ValueError, match=f"{size} values"):
        pool.compute_reward(a[:, :2], b[:, :2], {})
    pool.close()


def test_spaces():
    for task_id in ["HandReach-v3", "HandManipulateEgg-v1", "HandManipulateBlock_BooleanTouchSensors-v1"]:
        pool = envpool_lite.make(task_id, env_type="gymnasium", num_envs=1)
        ref = reference_env(task_id)
        assert list(pool.single_observation_space.spaces) == ["achieved_goal", "desired_goal", "observation"]
        assert pool.single_observation_space == ref.observation_space
        assert pool.single_action_space == ref.action_space
        assert pool.spec.max_episode_steps == (50 if task_id.startswith("HandReach") else 100)
        pool.close()


@pytest.mark.parametrize(
    "task_id, options, match",
    [
        ("HandReach-v3", {"reward_type": "shaped"}, "reward_type"),
        ("HandReach-v3", {"distance_threshold": float("nan")}, "distance_threshold"),
        ("HandReach-v3", {"relative_control": True}, "relative_control"),
        ("HandManipulateBlock-v1", {"relative_control": True}, "relative_control"),
        ("HandManipulateBlock-v1", {"target_position": "anywhere"}, "target_position"),
        ("HandManipulateBlock-v1", {"target_rotation": "xy"}, "target_rotation"),
        ("HandManipulateBlock-v1", {"target_rotation": "ignore"}, "target_rotation"),
        ("HandManipulateEgg-v1", {"target_rotation": "fixed"}, "target_rotation"),
        ("HandManipulatePen-v1", {"rotation_threshold": float("inf")}, "rotation_threshold"),
        ("HandManipulatePen_BooleanTouchSensors-v1", {"touch_get_obs": "bool"}, "touch_get_obs"),
        ("HandManipulatePen_BooleanTouchSensors-v1", {"touch_visualisation": "never"}, "touch_visualisation"),
    ],
)
def test_bad_options(task_id, options, match):
    with pytest.raises(ValueError, match=match):
        envpool_lite.make(task_id, **options)


@pytest.mark.parametrize(
    "task_id, option, value",
    [
        # an option of the touch sensor envs only
        ("HandManipulateBlock-v1", "touch_get_obs", "boolean"),
        ("HandReach-v3", "target_rotation", "z"),
        # the values the pen's constructor passes itself
        ("HandManipulatePen-v1", "randomize_initial_rotation", True),
        ("HandManipulatePenRotate_BooleanTouchSensors-v1", "ignore_z_target_rotation", False),
        ("HandManipulatePen-v0", "distance_threshold", 0.01),
    ],
)
def test_options_the_reference_has_not(task_id, option, value):
    # The reference's constructor raises TypeError for them.
    with pytest.raises(TypeError):
        reference_env(gr.reference_id(task_id), **{option: value})
    with pytest.raises((TypeError, ValueError), match=option):
        envpool_lite.make(task_id, **{option: value})


def test_refused_options_fail_in_reference():
    """What make() refuses with a message, gymnasium-robotics 1.4.2 cannot
    run on the mujoco bindings: MjData has no get_joint_qpos."""
    for task_id, options in [("HandReach-v3", {"relative_control": True}), ("HandManipulateBlock-v1", {"target_rotation": "ignore"}), ("HandManipulateBlock-v1", {"target_rotation": "fixed"})]:
        ref = reference_env(task_id, **options)
        with pytest.raises(AttributeError, match="get_joint_qpos"):
            ref.reset(seed=0)
            ref.step(np.zeros(20, np.float32))


def test_bad_action():
    pool = envpool_lite.make("HandManipulateEgg-v1", env_type="gymnasium", num_envs=2)
    pool.reset()
    with pytest.raises(ValueError, match="finite"):
        pool.step(np.full((2, 20), np.nan, np.float32))
    with pytest.raises(ValueError):
        pool.step(np.zeros((2, 4), np.float32))
    obs, *_ = pool.step(np.zeros((2, 20), np.float32))  # still usable
    assert obs["observation"].shape == (2, 61)
    pool.close()


def test_aligned_beyond_bounds():
    # Finite actions beyond [-1, 1] are clipped, as the reference's step
    # clips them.
    counts = run_aligned("HandManipulateBlockRotateZ-v1", 10, num_envs=2, action_fn=lambda rng, space, n: rng.uniform(-3, 3, (n, 20)))
    assert counts["steps"] == 20


def _gl_available() -> bool:
    from envpool_lite.refkit import mujoco_lib as mj

    try:
        mj.gl_backend("test")
        return True
    except RuntimeError:
        return False


# The pictures of the tasks without touch sensors equal the reference's
# rgb_array, pixel for pixel (the goal shown: Reach's target sites, the
# manipulated object's target). The touch sensor tasks' on_touch colours are
# not checked: the renderer recomputes sensordata without the env's ctrl.
@pytest.mark.parametrize("task_id", ["HandReach-v3", "HandManipulateBlockRotateParallel-v1", "HandManipulatePenRotate-v1"])
def test_pictures_equal_reference_render(task_id):
    if not _gl_available():
        pytest.skip("no headless OpenGL backend (EGL/OSMesa) here")
    pool = envpool_lite.make(task_id, env_type="gymnasium", num_envs=1, seed=3, render_mode="rgb_array", render_width=96, render_height=96)
    ref = reference_env(task_id, render_mode="rgb_array", width=96, height=96)
    pool.reset()
    ref.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(3):
        action = rng.uniform(-1, 1, (1, 20)).astype(np.float32)
        pool.step(action)
        ref.step(action[0])
        assert np.array_equal(pool.render()[0], ref.render())
    pool.close()
    ref.close()
