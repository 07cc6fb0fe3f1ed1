"""PointMaze and AntMaze (gymnasium-robotics 1.4.2): every id aligned step by
step with gymnasium-robotics' own env (tests/gymnasium_robotics/gymnasium_robotics_alignment.py), in sync and
async pools, through goal resampling (continuing_task, reset_target),
terminations and auto-resets, on its maps and on custom ones; the Ant's
options passed through; the goal functions HER calls against the
reference's; bad input."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import envpool_lite
from envpool_lite.families.gymnasium_robotics import maze as maze_family

pytest.importorskip("gymnasium_robotics")
from gymnasium_robotics_alignment import assert_info_equal, assert_obs_equal, reference_env, run_aligned  # noqa: E402

pytestmark = [pytest.mark.skipif(not envpool_lite._core.MUJOCO_VERSION, reason="built without MuJoCo")]

MAZE_IDS = [t for t in envpool_lite.list_all_envs() if t.startswith(("PointMaze", "AntMaze"))]

# Two cells that are both goal and reset: AntMaze-v3 (its reset distance
# unscaled) can start the ant within reach of the goal.
TWO_CELLS = [[1, 1, 1, 1], [1, "c", "c", 1], [1, 1, 1, 1]]
OPEN = [[1, 1, 1, 1, 1, 1, 1], [1, 0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0, 1], [1, 1, 1, 1, 1, 1, 1]]


def _registry():
    import gymnasium_robotics

    gymnasium.register_envs(gymnasium_robotics)
    return {k: v for k, v in gymnasium.registry.items() if "envs.maze" in str(v.entry_point)}


def test_ids_and_defaults():
    registry = _registry()
    assert len(MAZE_IDS) == 80 and sorted(MAZE_IDS) == sorted(registry)
    for task_id, spec in registry.items():
        config = envpool_lite.make_spec(task_id).config
        assert maze_family.reference_map(config["maze_map"]) == spec.kwargs["maze_map"], task_id
        assert config["reward_type"] == spec.kwargs["reward_type"], task_id
        assert config["max_episode_steps"] == spec.max_episode_steps, task_id
        assert config["continuing_task"] is True
        assert ("reset_target" in config) == (not task_id.endswith("-v3") or task_id.startswith("PointMaze"))


@pytest.mark.parametrize("task_id", ["PointMaze_Large_Diverse_GR-v3", "AntMaze_Medium-v3", "AntMaze_UMazeDense-v5"])
def test_model_is_the_reference_one(task_id):
    """The model the envs load is the MJCF the reference's make_maze writes."""
    path = envpool_lite.make_spec(task_id)._internal["mujoco_model"]
    ref = reference_env(task_id)
    with open(path) as ours, open(ref.tmp_xml_file_path) as theirs:
        assert ours.read() == theirs.read()
    ref.close()


@pytest.mark.parametrize("task_id", MAZE_IDS)
def test_aligned(task_id):
    # A short time limit: several episodes (new goals, start positions).
    counts = run_aligned(task_id, 16, num_envs=2, max_episode_steps=5)
    assert counts["truncated"] == 4 and counts["steps"] == 28


@pytest.mark.parametrize("task_id", ["PointMaze_Medium_Diverse_GR-v3", "AntMaze_Large_Diverse_GRDense-v5", "AntMaze_Medium_Diverse_G-v4", "AntMaze_UMaze-v3"])
def test_aligned_async(task_id):
    counts = run_aligned(task_id, 40, num_envs=3, batch_size=2, seed=3, max_episode_steps=9)
    assert counts["truncated"] >= 4


def test_aligned_default_limit():
    counts = run_aligned("PointMaze_UMazeDense-v3", 302, num_envs=1, seed=5)
    assert counts["truncated"] == 1 and counts["steps"] == 301


def _steer(obs: dict, i: int = 0) -> np.ndarray:
    """PointMaze: a push towards the goal, damped."""
    delta = obs["desired_goal"][i] - obs["achieved_goal"][i]
    return np.clip(4.0 * delta - 0.5 * obs["observation"][i][2:], -1, 1).astype(np.float32)


def steer_aligned(task_id: str, steps: int, seed: int, limit: int, **options) -> dict[str, int]:
    """One PointMaze env steered to its goals, against the reference, every
    field compared with ==; counts the goals reached, the goal changes
    (reset_target) and the terminations."""
    pool = envpool_lite.make(task_id, env_type="gymnasium", num_envs=1, seed=seed, max_episode_steps=limit, **options)
    ref = reference_env(task_id, **options)
    obs, info = pool.reset()
    ref_obs, ref_info = ref.reset(seed=seed)
    assert_obs_equal(obs, ref_obs, 0, "reset")
    assert_info_equal(info, ref_info, 0, "reset", reset=True)
    counts = {"success": 0, "goal_changes": 0, "terminated": 0, "truncated": 0}
    elapsed, needs_reset = 0, False
    for t in range(steps):
        action = _steer(obs)
        goal = obs["desired_goal"][0].copy()
        obs, reward, terminated, truncated, info = pool.step(action[None])
        where = f"{task_id} step {t}"
        if needs_reset:
            ref_obs, ref_info = ref.reset()
            assert_obs_equal(obs, ref_obs, 0, where + " (reset)")
            assert_info_equal(info, ref_info, 0, where + " (reset)", reset=True)
            elapsed, needs_reset = 0, False
            continue
        ref_obs, ref_reward, ref_term, _, ref_info = ref.step(action)
        elapsed += 1
        assert_obs_equal(obs, ref_obs, 0, where)
        assert reward[0] == ref_reward, where
        assert bool(terminated[0]) == ref_term and bool(truncated[0]) == (elapsed >= limit), where
        assert_info_equal(info, ref_info, 0, where)
        counts["success"] += int(info["success"][0])
        counts["goal_changes"] += int(not np.array_equal(goal, obs["desired_goal"][0]))
        if ref_term or elapsed >= limit:
            needs_reset = True
            counts["terminated" if ref_term else "truncated"] += 1
    pool.close()
    ref.close()
    return counts


def test_reset_target_resamples_goals():
    counts = steer_aligned("PointMaze_Open-v3", 400, 2, 200, maze_map=OPEN, reset_target=True)
    assert counts["goal_changes"] >= 5 and counts["terminated"] == 0
    # continuing without reset_target: the goal stays where it was reached.
    counts = steer_aligned("PointMaze_OpenDense-v3", 150, 2, 200)
    assert counts["success"] >= 20 and counts["goal_changes"] == 0


def test_episodic_task_terminates():
    # (open maps: the straight push reaches the goal)
    counts = steer_aligned("PointMaze_Open_Diverse_GR-v3", 400, 4, 150, continuing_task=False)
    assert counts["terminated"] >= 3
    counts = steer_aligned("PointMaze_Open_Diverse_GDense-v3", 400, 9, 150, continuing_task=False, reset_target=True)
    assert counts["terminated"] >= 3


@pytest.mark.parametrize("task_id", ["AntMaze_UMaze-v3", "AntMaze_UMazeDense-v3"])
def test_ant_v3_goal_reached(task_id):
    # AntMaze-v3 may start the ant on its goal: maze.py's compute_terminated
    # then ends the episode, or, continuing, replaces the goal (once) and
    # rewards the new one.
    counts = run_aligned(task_id, 100, num_envs=3, max_episode_steps=5, maze_map=TWO_CELLS, continuing_task=False)
    assert counts["terminated"] >= 1
    run_aligned(task_id, 100, num_envs=3, max_episode_steps=5, maze_map=TWO_CELLS)


@pytest.mark.parametrize(
    "maze_map",
    [
        [[1, 1, 1, 1, 1], [1, "g", 0, "g", 1], [1, 1, 1, 1, 1]],  # no reset cell: the empty ones
        [[1, 1, 1, 1, 1], [1, "r", 0, 0, 1], [1, 1, 1, 1, 1]],  # no goal cell: the empty ones
        [[1, 1, 1, 1, 1, 1], [1, "c", "g", "r", 0, 1], [1, 0, "c", 1, 0, 1], [1, 1, 1, 1, 1, 1]],
        np.array([[1, 1, 1], [1, 0, 1], [1, 0, 1], [1, 1, 1]]),
        ("11111", "1c0c1", "11111"),  # the env's own form
    ],
)
def test_custom_maps(maze_map):
    for task_id in ("PointMaze_UMaze-v3", "AntMaze_UMazeDense-v4"):
        reference_form = maze_family.reference_map(maze_family.map_rows(maze_map))
        pool = envpool_lite.make(task_id, maze_map=maze_map)
        assert maze_family.reference_map(pool.spec.config["maze_map"]) == reference_form
        pool.close()
        counts = run_aligned(task_id, 12, num_envs=2, max_episode_steps=4, maze_map=reference_form)
        assert counts["steps"] == 20


@pytest.mark.parametrize(
    "task_id, options",
    [
        ("AntMaze_UMaze-v5", dict(ctrl_cost_weight=0.1, contact_cost_weight=1e-3, healthy_z_range=(0.3, 0.9), include_cfrc_ext_in_observation=False)),
        ("AntMaze_Open-v5", dict(frame_skip=3, main_body=2, forward_reward_weight=2.0)),
        ("AntMaze_Medium-v4", dict(use_contact_forces=True, ctrl_cost_weight=0.2)),
        ("AntMaze_UMaze-v3", dict(use_contact_forces=True)),
    ],
)
def test_ant_options(task_id, options):
    counts = run_aligned(task_id, 12, num_envs=2, max_episode_steps=4, **options)
    assert counts["steps"] == 20


def test_ant_v5_xml_file():
    from envpool_lite.refkit import mujoco_lib

    path = mujoco_lib.gymnasium_models_dir() + "/ant.xml"
    run_aligned("AntMaze_UMaze-v5", 8, num_envs=2, max_episode_steps=4, xml_file=path)
    with pytest.raises(FileNotFoundError, match="xml_file"):
        envpool_lite.make("AntMaze_UMaze-v5", xml_file="/nonexistent/ant.xml")


@pytest.mark.parametrize(
    "task_id, options", [("PointMaze_UMazeDense-v3", {}), ("PointMaze_Open-v3", dict(continuing_task=False)), ("AntMaze_Large-v4", dict(continuing_task=False)), ("AntMaze_MediumDense-v3", {})]
)
def test_compute_reward_matches_reference(task_id, options):
    pool = envpool_lite.make(task_id, env_type="gymnasium", num_envs=2, **options)
    ref = reference_env(task_id, **options)
    rng = np.random.default_rng(0)
    a = rng.uniform(-4, 4, (256, 2))
    b = a + rng.normal(0, 0.4, (256, 2))
    got = pool.compute_reward(a, b, {})
    want = ref.compute_reward(a, b, {})
    assert got.dtype == want.dtype and np.array_equal(got, want)
    assert pool.compute_reward(a[0], b[0], {}) == ref.compute_reward(a[0], b[0], {})
    assert np.array_equal(pool.compute_reward(a.reshape(16, 16, 2), b.reshape(16, 16, 2), None), want.reshape(16, 16))
    terminated = pool.compute_terminated(a, b, {})
    for i in range(len(a)):  # the reference's (its v3 resamples the goal on the side)
        assert bool(terminated[i]) == ref.compute_terminated(a[i], b[i], {}), i
        assert pool.compute_terminated(a[i], b[i], {}) == ref.compute_terminated(a[i], b[i], {})
    if not options:
        assert not terminated.any()
    else:
        assert terminated.any() and not terminated.all()
    assert pool.compute_truncated(a[0], b[0], {}) is False
    pool.reset()
    obs, reward, *_ = pool.step(np.zeros((2,) + pool.single_action_space.shape, np.float32))
    assert np.array_equal(pool.compute_reward(obs["achieved_goal"], obs["desired_goal"], {}), reward)
    with pytest.raises(ValueError, match="2 values"):
        pool.compute_reward(a[:, :1], b[:, :1], {})
    pool.close()


def test_spaces():
    for task_id in ("PointMaze_UMaze-v3", "AntMaze_UMaze-v3", "AntMaze_UMaze-v4", "AntMaze_UMaze-v5"):
        pool = envpool_lite.make(task_id, env_type="gymnasium", num_envs=1)
        ref = reference_env(task_id)
        assert pool.single_observation_space == ref.observation_space
        assert pool.single_action_space == ref.action_space
        pool.close()


@pytest.mark.parametrize(
    "maze_map, match",
    [
        ([[1, 1, 1], [1, 2, 1], [1, 1, 1]], "unknown cell 2"),
        ([[1, 1, 1], [1, "x", 1], [1, 1, 1]], "unknown cell 'x'"),
        ([[1, 1, 1], [1, "1", 1], [1, 1, 1]], "unknown cell '1'"),
        ([[1, 1, 1], [1, True, 1], [1, 1, 1]], "unknown cell True"),
        ([[1, 1, 1], [1, 0], [1, 1, 1]], "rectangular"),
        ([], "non-empty"),
        ([[]], "at least one cell"),
        ("11111", "list of rows"),
        ([[1, 1, 1], [1, 1, 1]], "no goal location"),
        ([[1, 1, 1], [1, "c", 1], [1, 1, 1]], "single reset location"),
        ([[1, 1, 1], [1, 0, 1], [1, 1, 1]], "single reset location"),
        (["111", "1z1", "111"], "unknown cell 'z'"),
    ],
)
def test_bad_maze_map(maze_map, match):
    for task_id in ("PointMaze_UMaze-v3", "AntMaze_UMaze-v5"):
        with pytest.raises(ValueError, match="maze_map") as error:
            envpool_lite.make(task_id, maze_map=maze_map)
        assert match in str(error.value)


def test_bad_input():
    # AntMaze-v3's maze takes no empty cell for a missing reset (or goal)
    # kind: its reset would fail an assertion.
    only_goals = [[1, 1, 1, 1], [1, "g", 0, 1], [1, 1, 1, 1]]
    with pytest.raises(ValueError, match="maze_map.*no reset location"):
        envpool_lite.make("AntMaze_UMaze-v3", maze_map=only_goals)
    with pytest.raises(ValueError, match="maze_map.*no goal location"):
        envpool_lite.make("AntMaze_UMaze-v3", maze_map=[[1, 1, 1, 1], [1, "r", 0, 1], [1, 1, 1, 1]])
    envpool_lite.make("AntMaze_UMaze-v4", maze_map=only_goals).close()
    with pytest.raises(ValueError, match="reward_type"):
        envpool_lite.make("PointMaze_UMaze-v3", reward_type="shaped")
    with pytest.raises(TypeError, match="reset_target"):  # maze.py's MazeEnv has none
        envpool_lite.make("AntMaze_UMaze-v3", reset_target=True)
    with pytest.raises(TypeError, match="reset_noise_scale"):  # fixed by AntMazeEnv
        envpool_lite.make("AntMaze_UMaze-v5", reset_noise_scale=0.1)
    with pytest.raises(TypeError, match="xml_file"):
        envpool_lite.make("AntMaze_UMaze-v4", xml_file="ant.xml")
    with pytest.raises(TypeError, match="continuing_task"):
        envpool_lite.make("PointMaze_UMaze-v3", continuing_task="yes")
    pool = envpool_lite.make("PointMaze_UMaze-v3", env_type="gymnasium", num_envs=2)
    pool.reset()
    with pytest.raises(ValueError, match="finite"):
        pool.step(np.array([[0, np.nan]] * 2, np.float32))
    obs, *_ = pool.step(np.zeros((2, 2), np.float32))  # still usable
    assert obs["observation"].shape == (2, 4)
    pool.close()


def test_actions_beyond_bounds():
    counts = run_aligned("PointMaze_Open-v3", 20, num_envs=2, action_fn=lambda rng, space, n: rng.uniform(-3, 3, (n, 2)))
    assert counts["steps"] == 40
