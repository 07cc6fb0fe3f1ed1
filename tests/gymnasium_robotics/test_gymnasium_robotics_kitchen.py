"""Franka Kitchen (gymnasium-robotics 1.4.2's FrankaKitchen-v1) aligned step
by step with gymnasium-robotics' own env, in sync and async pools, with
random actions and with a scripted arm that opens the slide cabinet (a task
completed: reward, info lists, termination); options; spaces; bad input.

The reference's observation is a dict whose achieved_goal and desired_goal
are dicts by task; the pool's arrays are "achieved_goal/<task>",
"desired_goal/<task>" and "observation", which the pool returns nested as
the reference's (spec.nest_keys), compared here key by key. Its info
lists of task names are bool arrays over KITCHEN_TASKS (the pool's info
fields), compared here as sets."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

import envpool_lite

pytest.importorskip("gymnasium_robotics")
from gymnasium_robotics_alignment import reference_env  # noqa: E402

pytestmark = [pytest.mark.skipif(not envpool_lite._core.MUJOCO_VERSION, reason="built without MuJoCo")]

TASK_ID = "FrankaKitchen-v1"
# OBS_ELEMENT_GOALS' order: the order of the info fields' bool arrays.
KITCHEN_TASKS = ("bottom burner", "top burner", "light switch", "slide cabinet", "hinge cabinet", "microwave", "kettle")
INFO_LISTS = ("tasks_to_complete", "step_task_completions", "episode_task_completions")


def assert_obs_equal(obs: dict, ref_obs: dict, row: int, where: str) -> None:
    assert list(obs) == ["achieved_goal", "desired_goal", "observation"], where
    pairs = [(f"{part}/{task}", obs[part][task], value) for part in ("achieved_goal", "desired_goal") for task, value in ref_obs[part].items()]
    for part in ("achieved_goal", "desired_goal"):
        assert list(obs[part]) == sorted(ref_obs[part]), f"{where}: {part} keys {list(obs[part])}"
    pairs.append(("observation", obs["observation"], ref_obs["observation"]))
    for key, got, value in pairs:
        got = got[row]
        assert got.dtype == value.dtype and got.shape == value.shape, (where, key)
        assert np.array_equal(got, value), f"{where}: obs[{key!r}] differs by {np.abs(got - value).max()}"


def assert_info_equal(info: dict, ref_info: dict, row: int, where: str) -> None:
    for key in INFO_LISTS:
        mask = info[key][row]
        assert mask.dtype == np.bool_ and mask.shape == (len(KITCHEN_TASKS),)
        got = {KITCHEN_TASKS[j] for j in np.flatnonzero(mask)}
        assert got == set(ref_info[key]) and len(ref_info[key]) == len(got), f"{where}: info[{key!r}] {sorted(got)} != {ref_info[key]}"


def run_kitchen(steps: int, num_envs: int = 2, batch_size: int | None = None, seed: int = 5, max_episode_steps: int | None = None, policy: Any = None, **options: Any) -> dict[str, Any]:
    """Steps a pool and num_envs reference envs with the same actions
    (uniform, or policy(observation row, episode step)'s), comparing every
    field with ==, through auto-resets (as tests/gymnasium_robotics_alignment.run_aligned)."""
    kwargs = dict(options)
    if max_episode_steps is not None:
        kwargs["max_episode_steps"] = max_episode_steps
    batch_size = batch_size or num_envs
    pool = envpool_lite.make(TASK_ID, env_type="gymnasium", num_envs=num_envs, batch_size=batch_size, seed=seed, **kwargs)
    limit = pool.spec.max_episode_steps
    refs = [reference_env(TASK_ID, **options) for _ in range(num_envs)]
    rng = np.random.default_rng(seed)
    counts: dict[str, Any] = {"steps": 0, "terminated": 0, "truncated": 0, "reward": 0.0, "completed": set()}
    elapsed = [0] * num_envs
    needs_reset = [False] * num_envs
    last_obs: dict[int, np.ndarray] = {}
    if batch_size == num_envs:
        obs, info = pool.reset()
        for i, ref in enumerate(refs):
            ref_obs, ref_info = ref.reset(seed=seed + i)
            assert_obs_equal(obs, ref_obs, i, f"reset env {i}")
            assert_info_equal(info, ref_info, i, f"reset env {i}")
        env_ids = np.arange(num_envs)
    else:
        pool.async_reset()
        reset = [ref.reset(seed=seed + i) for i, ref in enumerate(refs)]
        obs, _, _, _, info = pool.recv()
        env_ids = info["env_id"]
        for row, i in enumerate(env_ids.tolist()):
            assert_obs_equal(obs, reset[i][0], row, f"async reset env {i}")
            assert_info_equal(info, reset[i][1], row, f"async reset env {i}")
    for row, i in enumerate(env_ids.tolist()):
        last_obs[i] = obs["observation"][row]
    in_flight: dict[int, np.ndarray] = {}
    for t in range(steps):
        if policy is None:
            actions = rng.uniform(-1.0, 1.0, (len(env_ids), 9))
        else:
            actions = np.stack([policy(last_obs[i], elapsed[i]) for i in env_ids.tolist()])
        if batch_size == num_envs:
            obs, reward, terminated, truncated, info = pool.step(actions)
        else:
            pool.send(actions, env_ids)
            obs, reward, terminated, truncated, info = pool.recv()
        in_flight.update(zip(env_ids.tolist(), actions))
        env_ids = info["env_id"]
        for row, i in enumerate(env_ids.tolist()):
            where = f"step {t} env {i}"
            last_obs[i] = obs["observation"][row]
            if i not in in_flight:  # async: env i's first reset, returned only now
                assert_obs_equal(obs, reset[i][0], row, where + " (first reset)")
                continue
            action = in_flight.pop(i)
            if needs_reset[i]:
                ref_obs, ref_info = refs[i].reset()
                elapsed[i] = 0
                needs_reset[i] = False
                assert_obs_equal(obs, ref_obs, row, where + " (reset)")
                assert_info_equal(info, ref_info, row, where + " (reset)")
                continue
            ref_obs, ref_reward, ref_term, ref_trunc, ref_info = refs[i].step(action)
            elapsed[i] += 1
            ref_trunc = bool(ref_trunc) or elapsed[i] >= limit
            assert_obs_equal(obs, ref_obs, row, where)
            assert reward[row] == ref_reward, f"{where}: reward {reward[row]!r} != {ref_reward!r}"
            assert bool(terminated[row]) == bool(ref_term), f"{where}: terminated"
            assert bool(truncated[row]) == ref_trunc, f"{where}: truncated"
            assert_info_equal(info, ref_info, row, where)
            counts["steps"] += 1
            counts["reward"] += ref_reward
            counts["completed"] |= set(ref_info["step_task_completions"])
            if ref_term or ref_trunc:
                needs_reset[i] = True
                counts["terminated" if ref_term else "truncated"] += 1
    pool.close()
    for ref in refs:
        ref.close()
    return counts


class SlideCabinetArm:
    """A scripted arm: the end effector, moved by the Jacobian of a copy of
    the kitchen's model at the observed (noisy) joints, goes left of the
    slide cabinet's handle and pushes it to the right: the task completes
    about 32 steps into each episode."""

    WAYPOINTS = ((-0.2, 0.4, 2.5), (-0.2, 0.55, 2.6), (0.1, 0.55, 2.6))

    def __init__(self) -> None:
        import mujoco

        from envpool_lite.families import gymnasium_robotics as gr

        self.mujoco = mujoco
        self.model = mujoco.MjModel.from_xml_path(os.path.join(gr.assets_dir(), "kitchen_franka/kitchen_assets/kitchen_env_model.xml"))
        self.data = mujoco.MjData(self.model)
        self.site = self.model.site("end_effector").id

    def __call__(self, observation: np.ndarray, step: int) -> np.ndarray:
        target = np.array(self.WAYPOINTS[min(step // 15, len(self.WAYPOINTS) - 1)])
        self.data.qpos[:9] = observation[:9]
        self.mujoco.mj_kinematics(self.model, self.data)
        self.mujoco.mj_comPos(self.model, self.data)
        jac = np.zeros((3, self.model.nv))
        self.mujoco.mj_jacSite(self.model, self.data, jac, None, self.site)
        j = jac[:, :7]
        error = target - self.data.site_xpos[self.site]
        dq = j.T @ np.linalg.solve(j @ j.T + 1e-2 * np.eye(3), 5.0 * error)
        action = np.full(9, -1.0)
        action[:7] = np.clip(dq / 2.0, -1.0, 1.0)
        return action


def test_ids_and_defaults():
    assert [t for t in envpool_lite.list_all_envs() if "Kitchen" in t] == [TASK_ID]
    spec = envpool_lite.make_spec(TASK_ID)
    assert spec.max_episode_steps == 280
    assert list(spec.config["tasks_to_complete"]) == list(KITCHEN_TASKS)
    assert spec.config["terminate_on_tasks_completed"] is True and spec.config["remove_task_when_completed"] is True
    assert spec.config["object_noise_ratio"] == 0.0005 and spec.config["robot_noise_ratio"] == 0.01


def test_aligned_random():
    counts = run_kitchen(25, num_envs=2, max_episode_steps=10)
    assert counts["truncated"] == 4 and counts["steps"] == 46
    # Finite actions beyond [-1, 1] are clipped, as the reference's step
    # clips them.
    rng = np.random.default_rng(1)
    counts = run_kitchen(8, num_envs=1, policy=lambda observation, step: rng.uniform(-3.0, 3.0, 9))
    assert counts["steps"] == 8


def test_aligned_default_limit():
    counts = run_kitchen(282, num_envs=1, seed=11)
    assert counts["truncated"] == 1 and counts["steps"] == 281


def test_aligned_options_async():
    counts = run_kitchen(
        30,
        num_envs=3,
        batch_size=2,
        seed=2,
        max_episode_steps=8,
        tasks_to_complete=["kettle", "microwave", "kettle"],
        remove_task_when_completed=False,
        terminate_on_tasks_completed=False,
        robot_noise_ratio=0.1,
        object_noise_ratio=0.01,
    )
    assert counts["truncated"] >= 4


def test_aligned_task_completed():
    arm = SlideCabinetArm()
    # All tasks, the default: the slide cabinet's reward once, then removed.
    counts = run_kitchen(40, num_envs=2, policy=arm)
    assert counts["completed"] == {"slide cabinet"} and counts["reward"] == 2.0 and counts["terminated"] == 0
    # Not removed: rewarded at every step it stays open.
    counts = run_kitchen(40, num_envs=1, policy=arm, remove_task_when_completed=False, tasks_to_complete=["slide cabinet", "kettle"])
    assert counts["reward"] >= 5.0
    # Its only task completed: the episode terminates, and the next starts.
    counts = run_kitchen(45, num_envs=2, policy=arm, tasks_to_complete=["slide cabinet"])
    assert counts["terminated"] == 2 and counts["reward"] == 2.0
    counts = run_kitchen(38, num_envs=1, policy=arm, tasks_to_complete=["slide cabinet"], terminate_on_tasks_completed=False)
    assert counts["terminated"] == 0 and counts["reward"] == 1.0


def test_compute_reward_matches_reference():
    """The pool's compute_reward (no env state: all the configured tasks)
    equals the reference's while the env still has all its tasks to
    complete, on goals around the 0.3 threshold; batched, it is the same per
    goal."""
    tasks = ["kettle", "slide cabinet", "light switch"]
    pool = envpool_lite.make(TASK_ID, env_type="gymnasium", num_envs=1, tasks_to_complete=tasks)
    ref = reference_env(TASK_ID, tasks_to_complete=tasks)
    obs, _ = pool.reset()
    ref_obs, _ = ref.reset(seed=0)
    rng = np.random.default_rng(0)
    desired = {t: obs["desired_goal"][t][0] for t in tasks}
    batch = {t: np.stack([desired[t] + rng.normal(0, 1, desired[t].shape) * rng.uniform(0, 0.3) for _ in range(64)]) for t in tasks}
    got = pool.compute_reward(batch, desired, {})
    assert got.dtype == np.float64 and got.shape == (64,) and 0 < got.sum() < 3 * 64
    for k in range(64):
        achieved = {t: batch[t][k] for t in tasks}
        want = ref.compute_reward(achieved, ref_obs["desired_goal"], {})
        assert pool.compute_reward(achieved, desired, {}) == want == got[k]
    assert pool.compute_reward({t: obs["achieved_goal"][t][0] for t in tasks}, desired, None) == 0.0
    with pytest.raises(ValueError, match="dicts"):
        pool.compute_reward(batch["kettle"], desired["kettle"], {})
    with pytest.raises(ValueError, match="no task 'light switch'"):
        pool.compute_reward({"kettle": desired["kettle"]}, desired, {})
    with pytest.raises(NotImplementedError):
        pool.compute_terminated(batch, desired, {})
    pool.close()
    from envpool_lite.families.gymnasium_robotics.kitchen import TASKS, task_names

    assert TASKS == KITCHEN_TASKS and task_names([False, False, False, True, False, False, True]) == ["slide cabinet", "kettle"]


def test_spaces():
    pool = envpool_lite.make(TASK_ID, env_type="gymnasium", num_envs=1, tasks_to_complete=["microwave", "bottom burner"])
    ref = reference_env(TASK_ID, tasks_to_complete=["microwave", "bottom burner"])
    # The nested dict of the reference's, from the flat keys of the pool's
    # arrays ("achieved_goal/<task>", ...: spec.nest_keys).
    assert pool.spec.obs_keys == ("achieved_goal/bottom burner", "achieved_goal/microwave", "desired_goal/bottom burner", "desired_goal/microwave", "observation")
    assert pool.single_observation_space == ref.observation_space
    assert list(pool.single_observation_space["achieved_goal"].spaces) == ["bottom burner", "microwave"]
    assert pool.single_action_space == ref.action_space
    _, info = pool.reset()
    assert info["tasks_to_complete"].tolist() == [[True, False, False, False, False, True, False]]
    pool.close()


def test_bad_input():
    with pytest.raises(ValueError, match="tasks_to_complete.*'oven'"):
        envpool_lite.make(TASK_ID, tasks_to_complete=["kettle", "oven"])
    with pytest.raises(TypeError, match="tasks_to_complete"):
        envpool_lite.make(TASK_ID, tasks_to_complete=3)
    # The reference's empty task list (empty goal dicts, terminated at the
    # first step) has no flat form: refused.
    with pytest.raises(ValueError, match="tasks_to_complete.*at least one"):
        envpool_lite.make(TASK_ID, tasks_to_complete=[])
    with pytest.raises(TypeError, match="remove_task_when_completed"):
        envpool_lite.make(TASK_ID, remove_task_when_completed="yes")
    pool = envpool_lite.make(TASK_ID, env_type="gymnasium", num_envs=2)
    pool.reset()
    with pytest.raises(ValueError, match="finite"):
        pool.step(np.full((2, 9), np.inf))
    with pytest.raises(ValueError):
        pool.step(np.zeros((2, 8)))
    obs, *_ = pool.step(np.zeros((2, 9)))  # still usable
    assert obs["observation"].shape == (2, 59)
    pool.close()


def test_pictures_equal_reference():
    from envpool_lite.refkit import mujoco_lib as mj

    try:
        mj.gl_backend("test")
    except RuntimeError:
        pytest.skip("no headless OpenGL backend (EGL/OSMesa) here")
    limit = 2
    pool = envpool_lite.make(TASK_ID, env_type="gymnasium", num_envs=1, seed=3, render_mode="rgb_array", max_episode_steps=limit, render_width=96, render_height=80)
    ref = reference_env(TASK_ID, render_mode="rgb_array", width=96, height=80)
    pool.reset()
    ref.reset(seed=3)
    rng = np.random.default_rng(0)
    for t in range(limit + 3):
        np.testing.assert_array_equal(pool.render()[0], ref.render(), err_msg=f"step {t}")
        action = rng.uniform(-1.0, 1.0, 9)
        pool.step(action[None])
        if t == limit:
            ref.reset()
        else:
            ref.step(action)
    pool.close()
    ref.close()
