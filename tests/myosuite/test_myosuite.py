"""The myosuite family: every task id aligned step by step with myosuite
2.12.2's own env (tests/myosuite/myosuite_alignment.py says how), the options
users set, bad input, and the registry against the reference's."""

from __future__ import annotations

import numpy as np
import pytest
import scope
from myosuite_alignment import ORACLE, actions_for, align, reference, require_oracle

import envpool_lite
from envpool_lite import _core

IDS = [t for t in envpool_lite.families.task_ids("myosuite") if not t.startswith("MyoSuite/")]


def test_ids_and_aliases():
    ids = envpool_lite.families.task_ids("myosuite")
    assert len(IDS) == 398
    for t in IDS:
        assert f"MyoSuite/{t}" in ids  # EnvPool's name for it


# The ids in chunks of 40, each chunk's references in one process (most of
# an id's cost is making it, on both sides), the chunks spread over pytest's
# workers.
CHUNKS = [IDS[i : i + 40] for i in range(0, len(IDS), 40)]


@pytest.mark.parametrize("chunk", range(len(CHUNKS)))
def test_align_every_id(chunk):
    # make test: every id, one env, 24 steps through auto-resets every 10;
    # make test-full: two envs, 150 steps, the registered time limits.
    steps = scope.steps(24, full=150)
    limit = scope.steps(10, full=0) or None
    envs = scope.steps(1, full=2)
    start = 40 * chunk
    rows = align([{"task_id": t, "steps": steps, "max_episode_steps": limit, "num_envs": envs, "seed": 5 * (start + k)} for k, t in enumerate(CHUNKS[chunk])])
    assert rows >= len(CHUNKS[chunk]) * envs * steps


def test_align_full_episodes():
    # The registered time limits (100 and 200 steps): through a truncation.
    tasks = [{"task_id": t, "steps": scope.steps(110, full=420), "num_envs": 1, "seed": 3} for t in ("myoElbowPose1D6MRandom-v0", "myoHandReachRandom-v0", "motorFingerPoseRandom-v0")]
    align(tasks)


def test_alias_is_the_same_env():
    a = envpool_lite.make_gymnasium("myoHandPoseRandom-v0", num_envs=2, seed=7)
    b = envpool_lite.make_gymnasium("MyoSuite/myoHandPoseRandom-v0", num_envs=2, seed=7)
    try:
        np.testing.assert_array_equal(a.reset()[0], b.reset()[0])
        act = np.full((2, a.single_action_space.shape[0]), 0.3, np.float32)
        np.testing.assert_array_equal(a.step(act)[0], b.step(act)[0])
    finally:
        a.close()
        b.close()


# MyoDM's references (myosuite's dict form, as lists: the reference side
# makes them numpy arrays): a motion of 6 frames with velocities and an
# initial object pose in Euler angles, a fixed target, a range drawn at
# every observation; and a file of the motions myosuite ships.
MYODM_TRACK = {
    "time": [0.02 * i for i in range(6)],
    "robot": [[0.01 * (i + j % 5) for j in range(29)] for i in range(6)],
    "robot_vel": [[0.1 * ((i + j) % 3 - 1) for j in range(29)] for i in range(6)],
    "object": [[0.01 * i, -0.01 * i, 0.1, 0.9, 0.1, 0.2, 0.3] for i in range(6)],
    "object_init": [0.0, 0.0, 0.1, 0.2, -0.3, 0.5],
}
MYODM_FIXED = {"time": [0.0, 4.0], "robot": [[0.1] * 29], "robot_vel": [[0.0] * 29], "object": [[0.1, 0.05, 0.15, 0.9, 0.2, 0.1, 0.3]], "robot_init": [0.05] * 29}
MYODM_RANGE = {
    "time": [0.0, 4.0],
    "robot": [[-0.1] * 29, [0.2] * 29],
    "robot_vel": [[-1.0] * 29, [1.0] * 29],
    "object": [[-0.1, -0.1, 0.1, 1.0, 0.0, 0.0, -1.0], [0.1, 0.1, 0.2, 1.0, 0.5, 0.5, 1.0]],
    "object_init": [0.0, 0.0, 0.1, 1.0, 0.0, 0.0, 0.0],
}
MYODM_DATA = str(ORACLE / "myosuite" / "envs" / "myo" / "myodm" / "data")

# The options myosuite's gym.make(id, **kwargs) takes, given to both sides.
OPTIONS = [
    ("myoElbowPose1D6MRandom-v0", {"normalize_act": False}),
    ("myoElbowPose1D6MRandom-v0", {"frame_skip": 4}),
    ("myoElbowPose1D6MRandom-v0", {"weighted_reward_keys": {"pose": 2.0, "act_reg": 0.5, "solved": 3.0}}),
    ("myoElbowPose1D6MRandom-v0", {"obs_keys": ["pose_err", "qpos", "time"]}),
    ("myoElbowPose1D6MRandom-v0", {"target_jnt_range": {"r_elbow_flex": (0.5, 1.5)}, "pose_thd": 0.3, "reset_type": "init"}),
    ("myoFingerPoseRandom-v0", {"reset_type": "init", "pose_thd": 0.5}),
    ("myoFingerReachRandom-v0", {"target_reach_range": {"IFtip": ((0.15, -0.05, 0.15), (0.25, 0.05, 0.25))}, "far_th": 0.1}),
    ("myoFingerReachRandom-v0", {"muscle_condition": "fatigue", "fatigue_reset_random": True}),
    ("myoHandPoseRandom-v0", {"muscle_condition": "reafferentation"}),
    ("motorFingerReachRandom-v0", {"normalize_act": False}),
    # MyoDM: the motion blended between its frames (a start between them),
    # a motion file by path (its object_init in Euler angles), the dict
    # references, the terminations, rewards and observations, the muscle
    # conditions.
    ("MyoHandAirplaneFly-v0", {"motion_start_time": 0.01}),
    ("MyoHandHandInspect-v0", {"reference": MYODM_DATA + "/MyoHand_hand_pass1.npz"}),
    ("MyoHandAppleLift-v0", {"reference": MYODM_TRACK, "motion_start_time": 0.013}),
    ("MyoHandAppleLift-v0", {"reference": MYODM_FIXED}),
    ("MyoHandAppleFixed-v0", {"reference": MYODM_RANGE, "Termimate_obj_fail": False}),
    (
        "MyoHandAppleRandom-v0",
        {"Termimate_pose_fail": True, "weighted_reward_keys": {"pose": 1.0, "object": 1.0, "bonus": 2.0, "done": 3.0}, "obs_keys": ["qp", "curr_obj_rot", "targ_obj_rot", "time"]},
    ),
    ("MyoHandMugDrink3-v0", {"muscle_condition": "fatigue", "fatigue_reset_random": True}),
    ("MyoHandMugDrink3-v0", {"normalize_act": False, "muscle_condition": "sarcopenia"}),
    ("myoHandKeyTurnFixed-v0", {"key_init_range": (-0.5, 0.5), "goal_th": 0.2}),
    ("myoHandKeyTurnRandom-v0", {"weighted_reward_keys": {"key_turn": 2.0, "act_reg": 1.0, "done": 3.0}, "obs_keys": ["key_qpos", "IFtip_approach", "time"]}),
    ("myoHandObjHoldRandom-v0", {"weighted_reward_keys": {"goal_dist": 2.0, "solved": 1.0, "done": 3.0}, "obs_keys": ["obj_err", "time"]}),
    ("myoHandPenTwirlRandom-v0", {"frame_skip": 7, "obs_keys": ["obj_des_pos", "obj_err_rot", "time"]}),
    ("myoTorsoPoseFixed-v0", {"reset_type": "random", "pose_thd": 0.6}),
    ("myoTorsoExoPoseFixed-v0", {"target_jnt_range": {}, "target_jnt_value": [0.1] * 18}),
    ("myoHandReorientID-v0", {"weighted_reward_keys": {"pos_align": 2.0, "rot_align": 1.0, "solved": 1.0, "done": 2.0}, "frame_skip": 4}),
    # The legs: a noisy start (numpy's ziggurat normal), a given rotation,
    # drawn hills and stairs (variant None), the knee condition.
    ("myoLegWalk-v0", {"reset_type": "random", "target_rot": (1.0, 0.0, 0.0, 0.0), "hip_period": 40}),
    ("myoLegWalk-v0", {"reset_type": "none", "target_y_vel": 0.5, "min_height": 0.9}),
    ("myoLegHillyTerrainWalk-v0", {"variant": None, "reset_type": "random"}),
    ("myoLegStairTerrainWalk-v0", {"variant": None}),
    ("myoLegStandRandom-v0", {"joint_random_range": (-0.1, 0.3), "far_th": 0.2}),
    # MyoChallenge: the die's randomisation, thresholds and terms; the
    # relocation's object randomisation and None options; Baoding's random
    # task and ball randomisation.
    (
        "myoChallengeDieReorientP2-v0",
        {
            "obj_size_change": 0.01,
            "obj_friction_change": (0.1, 0.002, 0.0),
            "goal_rot": (-1.0, 0.5),
            "drop_th": 0.1,
            "weighted_reward_keys": {"pos_dist": 1.0, "bonus": 2.0, "penalty": 3.0, "act_reg": 1.0, "done": 1.0},
            "obs_keys": ["hand_qpos", "rot_err", "time"],
        },
    ),
    ("myoChallengeDieReorientP1-v0", {"muscle_condition": "fatigue", "fatigue_reset_random": True, "goal_pos": (-0.02, 0.03), "obj_mass_range": (0.05, 0.2)}),
    (
        "myoChallengeRelocateP2-v0",
        {
            "obj_geom_range": {"high": [0.02, 0.02, 0.022], "low": [0.01, 0.012, 0.015]},
            "obj_mass_range": {"high": 0.1, "low": 0.05},
            "obj_friction_range": {"high": [1.1, 0.006, 0.0001], "low": [0.9, 0.004, 0.0001]},
            "qpos_noise_range": 0.012,
            "drop_th": 0.6,
        },
    ),
    (
        "myoChallengeRelocateP2-v0",
        {"obj_xyz_range": None, "qpos_noise_range": None, "weighted_reward_keys": {"pos_dist": 1.0, "act_reg": 2.0, "done": 1.0}, "obs_keys": ["reach_err", "palm_pos", "hand_qpos_corrected", "time"]},
    ),
    # The bimanual pass: other pillars, no randomisation of the box, other
    # terms and keys; unnormalised actions (its robotic actuators too),
    # fatigue.
    (
        "myoChallengeBimanual-v0",
        {
            "obj_scale_change": None,
            "obj_mass_change": None,
            "obj_friction_change": None,
            "start_center": (-0.38, -0.22, 1.04),
            "goal_shifts": (0.05, 0.05, 0.01),
            "proximity_th": 0.3,
            "weighted_reward_keys": {"reach_dist": -0.2, "lift_height": 1.0, "fin_open": 1.0, "goal_dist": -1.0},
            "obs_keys": ["time", "MPL_ori_err", "max_force", "touching_body", "pass_err"],
        },
    ),
    ("myoChallengeBimanual-v0", {"normalize_act": False, "frame_skip": 3, "muscle_condition": "fatigue", "fatigue_reset_random": True}),
    # Table tennis: joint noise, the body's collisions kept, other terms and
    # keys; no left arm, unnormalised actions (the pelvis' too), no paddle
    # or friction randomisation; rallies, fatigue; a drawn serve from
    # elsewhere, sarcopenia.
    (
        "myoChallengeTableTennisP1-v0",
        {
            "qpos_noise_range": {"low": -0.05, "high": 0.05},
            "remove_body_collisions": False,
            "weighted_reward_keys": {"reach_dist": 2.0, "sparse": 10.0, "done": -1.0},
            "obs_keys": ["ball_pos", "touching_info", "padde_ori_err"],
        },
    ),
    ("myoChallengeTableTennisP2-v0", {"normalize_act": False, "add_left_arm": False, "paddle_mass_range": None, "ball_friction_range": None}),
    ("myoChallengeTableTennisP2-v0", {"rally_count": 3, "frame_skip": 4, "muscle_condition": "fatigue", "fatigue_reset_random": True}),
    (
        "myoChallengeTableTennisP0-v0",
        {"ball_xyz_range": {"high": [-1.0, 0.3, 1.6], "low": [-1.2, -0.3, 1.3]}, "ball_qvel": True, "paddle_mass_range": (0.1, 0.2), "muscle_condition": "sarcopenia"},
    ),
    # Soccer: the goalkeeper's policies forced (block_ball and random's
    # colored noise, refilled every 10 steps), its speeds, a random start,
    # a shorter game.
    ("myoChallengeSoccerP2-v0", {"goalkeeper_probabilities": (0.5, 0.5, 0.0)}),
    ("myoChallengeSoccerP2-v0", {"goalkeeper_probabilities": (0.0, 1.0, 0.0), "random_vel_range": (2.0, 3.0), "frame_skip": 5, "reset_type": "random"}),
    (
        "myoChallengeSoccerP1-v0",
        {"goalkeeper_probabilities": (1.0, 0.0, 0.0), "rnd_pos_noise": 0.3, "rnd_joint_noise": 0.05, "reset_type": "random", "max_time_sec": 0.1},
    ),
    # Chase tag: the repeller only (P2eval's opponent); EVADE episodes (the
    # opponent chases at a drawn speed); the first phase on drawn terrain
    # with a random start, the height map observed, tags within 3 m.
    ("myoChallengeChaseTagP2eval-v0", {"opponent_probabilities": (0.0, 0.0, 0.0, 1.0), "repeller_vel_range": (1.0, 2.0)}),
    ("myoChallengeChaseTagP2-v0", {"task_choice": "EVADE", "chase_vel_range": (0.5, 3.0)}),
    (
        "myoChallengeChaseTagP1-v0",
        {
            "reset_type": "random",
            "terrain": "random",
            "hills_range": (0.1, 0.3),
            "rough_range": (0.05, 0.2),
            "frame_skip": 5,
            "obs_keys": ["hfield", "task", "time", "opponent_pose"],
            "win_distance": 3.0,
            "min_spawn_distance": 1.0,
        },
    ),
    ("myoChallengeBaodingP1-v1", {"task_choice": "random", "obj_size_range": (0.02, 0.023), "goal_time_period": (3, 7), "proximity_th": 0.03}),
    (
        "myoChallengeBaodingP2-v1",
        {
            "obj_friction_change": None,
            "obj_mass_range": None,
            "frame_skip": 5,
            "drop_th": 1.3,
            "obs_keys": ["target1_err", "act", "time"],
            "weighted_reward_keys": {"pos_dist_1": 1.0, "sparse": 1.0, "solved": 2.0, "done": 1.0},
        },
    ),
]


@pytest.mark.parametrize(("task_id", "options"), OPTIONS)
def test_options_align(task_id, options):
    ref_options = {k: (dict(v) if isinstance(v, dict) else v) for k, v in options.items()}
    align([{"task_id": task_id, "steps": scope.steps(30, full=120), "max_episode_steps": 12, "kwargs": options, "reference_kwargs": ref_options}])


BAD = [
    ({"obs_keys": ["qpos", "nope"]}, "obs_keys"),
    ({"weighted_reward_keys": {"nope": 1.0}}, "weighted_reward_keys"),
    ({"muscle_condition": "tired"}, "muscle_condition"),
    ({"frame_skip": 0}, "frame_skip"),
    ({"reset_type": "sometimes"}, "reset_type"),
    ({"reset_type": "none"}, "reset_type"),
    ({"target_jnt_range": {"no_joint": (0, 1)}}, "target_jnt_range"),
    ({"target_jnt_range": {"r_elbow_flex": (1, 0)}}, "target_jnt_range"),
    ({"fatigue_reset_vec": [0.1, 0.2]}, "fatigue_reset_vec"),
    ({"no_such_option": 1}, "no_such_option"),
]


@pytest.mark.parametrize(("options", "name"), BAD)
def test_bad_options(options, name):
    with pytest.raises((ValueError, TypeError), match=name):
        envpool_lite.make_gymnasium("myoElbowPose1D6MRandom-v0", num_envs=1, **options)


def test_bad_actions_leave_the_pool_usable():
    env = envpool_lite.make_gymnasium("myoElbowPose1D6MRandom-v0", num_envs=2, seed=1)
    try:
        env.reset()
        good = np.zeros((2, 6), np.float32)
        for bad in (np.full((2, 6), np.nan, np.float32), np.full((2, 6), np.inf, np.float32), np.zeros((2, 5), np.float32)):
            with pytest.raises(ValueError):
                env.step(bad)
        obs, *_ = env.step(good)
        assert np.isfinite(obs).all()
    finally:
        env.close()


def test_registry_matches_reference():
    # What each id's registration says (the typed options of
    # registration_tasks.cc, as registered: test_align_every_id makes each
    # id) against what myosuite registers it with.
    require_oracle()
    ref = reference("registry", {})
    assert len(ref) == 398
    for task_id in IDS:
        entry = ref[task_id]
        config = {name: value for name, (value, _) in _core.task_options(task_id).items()}
        assert config["max_episode_steps"] == entry["max_episode_steps"], task_id
        for name, value in entry["kwargs"].items():
            if name == "model_path":
                assert value.endswith(config["mujoco_model"]), (task_id, value)
                continue
            if name == "edit_fn":  # myosuite's function, by name
                name, value = "model_edit", value.removeprefix("<function edit_fn_").removesuffix(">")
            got = config[name]
            if value is None:  # myosuite's None: the option's empty value
                assert got in ("", (), [], {}), (task_id, name, got)
            elif isinstance(value, dict):
                want = [(k, tuple(float(x) for x in np.ravel(v))) for k, v in value.items()]
                assert [(k, tuple(v)) for k, v in got.items()] == want, (task_id, name)
            elif isinstance(value, list):
                assert list(got) == value, (task_id, name)
            else:
                assert got == value, (task_id, name)
    missing = sorted(set(ref) - set(IDS))
    # Not yet in this family (docs/families/myosuite.md lists them).
    assert len(missing) == 398 - len(IDS)


def test_bimanual_dropped_box_ends_the_episode():
    # The start pillar lowered under the box (keyframe 2 holds it at 1.13
    # m): it falls below 0.3 m, which ends the episode and sets the info's
    # time to 10.0 (myosuite overwrites obs_dict["time"]); aligned through
    # that end and the next episode, with the actions align() drives both
    # sides with.
    options = {"start_center": (-0.4, -0.25, 0.2), "start_shifts": (0.0, 0.0, 0.0)}
    steps, seed = 70, 2
    env = envpool_lite.make_gymnasium("myoChallengeBimanual-v0", num_envs=1, seed=seed, max_episode_steps=200, **options)
    try:
        env.reset()
        ends = []
        for t, a in enumerate(actions_for(env.spec, 1, steps, seed + 17)[0]):
            _, _, terminated, _, info = env.step(a[None])
            if terminated[0]:
                ends.append((t, float(info["time"][0]), float(info["obs_dict"]["obj_pos"][0][2])))
    finally:
        env.close()
    assert ends, "the box did not fall"
    assert ends[0][1] == 10.0 and ends[0][2] < 0.3 and ends[0][0] < steps - 5, ends
    align([{"task_id": "myoChallengeBimanual-v0", "steps": steps, "num_envs": 1, "seed": seed, "max_episode_steps": 200, "kwargs": options, "reference_kwargs": options}])


BIMANUAL_BAD = [
    ({"obj_mass_change": (0.1, -0.1)}, "obj_mass_change"),
    ({"obj_scale_change": (-0.1, 0.0, 0.0)}, "obj_scale_change"),
    ({"obj_friction_change": (0.1, 0.001)}, "obj_friction_change"),
    ({"start_center": (0.0, 1.0)}, "start_center"),
    ({"goal_shifts": (0.0, float("nan"), 0.0)}, "goal_shifts"),
    ({"task_choice": "sometimes"}, "task_choice"),
]


@pytest.mark.parametrize(("options", "name"), BIMANUAL_BAD)
def test_bimanual_bad_options(options, name):
    with pytest.raises((ValueError, TypeError), match=name):
        envpool_lite.make_gymnasium("myoChallengeBimanual-v0", num_envs=1, **options)


# Table tennis served from just before the paddle (where keyframe 0 holds
# it), its speed drawn towards the model's half: the ball starts touching
# the paddle, bounces on the own half, then lands on the opponent's, which
# solves the rally under most of align()'s actions.
AT_THE_PADDLE = {"ball_xyz_range": {"high": [1.89, 0.6677, 1.2373], "low": [1.89, 0.6677, 1.2373]}, "ball_qvel": True}


@pytest.mark.parametrize("rally_count", [1, 3])
def test_table_tennis_rallies_align(rally_count):
    # rally_count 1: a solved rally ends the episode (+1000 - 10 in the
    # reward). 3: the first two solved rallies do not (the info's time reads
    # 0, solved is False, the reward still counts them, relaunch_ball draws
    # a new serve that the flying ball does not follow).
    options = {**AT_THE_PADDLE, "rally_count": rally_count}
    steps, seed, n = 100, 1, 3
    env = envpool_lite.make_gymnasium("myoChallengeTableTennisP0-v0", num_envs=n, seed=seed, **options)
    won = ends = 0
    try:
        env.reset()
        acts = actions_for(env.spec, n, steps, seed + 17)
        for t in range(steps):
            _, reward, terminated, _, info = env.step(np.stack([a[t] for a in acts]))
            for i in range(n):
                if reward[i] > 900:  # the solved term's 1000
                    won += 1
                    ends += bool(terminated[i])
                    assert bool(info["solved"][i]) == bool(terminated[i]) == (rally_count == 1)
                    assert rally_count == 1 or info["time"][i] == 0.0
    finally:
        env.close()
    assert won >= 3, won
    assert ends == (won if rally_count == 1 else 0)
    ref = {k: (dict(v) if isinstance(v, dict) else v) for k, v in options.items()}
    align([{"task_id": "myoChallengeTableTennisP0-v0", "steps": steps, "num_envs": n, "seed": seed, "kwargs": options, "reference_kwargs": ref}])


def test_table_tennis_dropped_ball_ends_the_episode():
    # The served ball, missed, falls below 0.3 m: the episode ends and the
    # info's time reads 3.0 (myosuite overwrites obs_dict["time"]).
    env = envpool_lite.make_gymnasium("myoChallengeTableTennisP0-v0", num_envs=1, seed=4)
    end = None
    try:
        env.reset()
        for t, a in enumerate(actions_for(env.spec, 1, 140, 4 + 17)[0]):
            _, _, terminated, _, info = env.step(a[None])
            if terminated[0]:
                end = (t, float(info["time"][0]), float(info["obs_dict"]["ball_pos"][0][2]))
                break
    finally:
        env.close()
    assert end is not None and end[1] == 3.0 and end[2] < 0.3 and end[0] < 130, end
    align([{"task_id": "myoChallengeTableTennisP0-v0", "steps": 140, "num_envs": 1, "seed": 4}])


TABLE_TENNIS_BAD = [
    ({"ball_xyz_range": None}, "ball_qvel"),
    ({"ball_xyz_range": {"high": [-0.8, 0.5, 1.5], "low": [-1.25, -0.5, 0.5]}}, "ball_xyz_range"),
    ({"paddle_mass_range": (0.2, 0.1)}, "paddle_mass_range"),
    ({"paddle_mass_range": (0.1, 0.2, 0.3)}, "paddle_mass_range"),
    ({"ball_friction_range": {"high": [1.1, 0.006], "low": [0.9, 0.004]}}, "ball_friction_range"),
    ({"qpos_noise_range": {"low": [-0.1, -0.1], "high": [0.1, 0.1]}}, "qpos_noise_range"),
    ({"rally_count": 0}, "rally_count"),
    ({"ball_qvel": False, "ball_xyz_range": None, "rally_count": 2}, "rally_count"),
]


@pytest.mark.parametrize(("options", "name"), TABLE_TENNIS_BAD)
def test_table_tennis_bad_options(options, name):
    with pytest.raises((ValueError, TypeError), match=name):
        envpool_lite.make_gymnasium("myoChallengeTableTennisP2-v0", num_envs=1, **options)


@pytest.mark.parametrize("probabilities", [(0.0, 1.0, 0.0), (1.0, 0.0, 0.0)])
def test_soccer_goalkeeper_moves(probabilities):
    # Random (colored noise) and block_ball: the goalkeeper's y (in the obs
    # dict; myosuite moves it in the observed data only) changes every step,
    # within the goal; test_options_align aligns both policies.
    env = envpool_lite.make_gymnasium("myoChallengeSoccerP2-v0", num_envs=2, seed=5, goalkeeper_probabilities=probabilities)
    try:
        env.reset()
        ys = []
        for a in np.stack(actions_for(env.spec, 2, 60, 3), axis=1):
            _, _, _, _, info = env.step(a)
            ys.append(info["obs_dict"]["goalkeeper_pos"].copy())
    finally:
        env.close()
    ys = np.array(ys)
    assert (ys[:, :, 0] == 50.0).all() and (np.abs(ys[:, :, 1]) <= 3.3).all()
    assert len(np.unique(ys[:, 0, 1])) > 50


SOCCER_BAD = [
    ({"goalkeeper_probabilities": (0.5, 0.3, 0.3)}, "goalkeeper_probabilities"),
    ({"goalkeeper_probabilities": (1.5, -0.5, 0.0)}, "goalkeeper_probabilities"),
    ({"goalkeeper_probabilities": (0.5, 0.5)}, "goalkeeper_probabilities"),
    ({"random_vel_range": (-1.0, 2.0)}, "random_vel_range"),
    ({"random_vel_range": (3.0, 2.0)}, "random_vel_range"),
    ({"reset_type": "sometimes"}, "reset_type"),
    ({"rnd_pos_noise": float("nan")}, "rnd_pos_noise"),
]


@pytest.mark.parametrize(("options", "name"), SOCCER_BAD)
def test_soccer_bad_options(options, name):
    with pytest.raises((ValueError, TypeError), match=name):
        envpool_lite.make_gymnasium("myoChallengeSoccerP2-v0", num_envs=1, **options)


def test_chase_tag_relief_aligns():
    # The relief patch (myo_relief.npy, in 20% of the fields) made 1 m tall
    # on a field otherwise flat (rough: -0.02): episodes of 5 steps from
    # random starts, whose height maps see neighbouring patches.
    options = {"relief_range": (1.0, 1.0), "hills_range": (0.0, 0.0), "rough_range": (0.0, 0.0)}
    align([{"task_id": "myoChallengeChaseTagP2-v0", "steps": 60, "max_episode_steps": 5, "num_envs": 4, "seed": 0, "kwargs": options}])
    env = envpool_lite.make_gymnasium("myoChallengeChaseTagP2-v0", num_envs=4, seed=0, max_episode_steps=5, **options)
    try:
        env.reset()
        seen = 0
        for a in np.stack(actions_for(env.spec, 4, 60, 1), axis=1):
            h = env.step(a)[4]["obs_dict"]["hfield"]
            seen += int(((h != 0) & (np.abs(h + 0.02) > 1e-6)).sum())
    finally:
        env.close()
    assert seen > 100  # the relief was in view


def test_chase_tag_lost_episode_reports_max_time():
    # A lost CHASE episode (fallen, out of bounds, or out of time) sets the
    # obs dict's time to 20 (myosuite's maxTime), and so info["time"].
    align([{"task_id": "myoChallengeChaseTagP1-v0", "steps": 150, "max_episode_steps": 150, "num_envs": 2, "seed": 3}])
    env = envpool_lite.make_gymnasium("myoChallengeChaseTagP1-v0", num_envs=2, seed=3)
    try:
        env.reset()
        lost = []
        for a in np.stack(actions_for(env.spec, 2, 150, 5), axis=1):
            _, _, term, _, info = env.step(a)
            lost += [info["time"][i] for i in np.flatnonzero(term) if info["rwd_dict"]["lose"][i]]
    finally:
        env.close()
    assert lost and all(t == 20.0 for t in lost)


CHASE_TAG_BAD = [
    ({"terrain": "hilly"}, "terrain"),
    ({"task_choice": "TAG"}, "task_choice"),
    ({"reset_type": "sometimes"}, "reset_type"),
    ({"opponent_probabilities": (0.5, 0.5)}, "opponent_probabilities"),
    ({"opponent_probabilities": (0.1, 0.2, 0.3)}, "opponent_probabilities"),
    ({"opponent_probabilities": (1.5, -0.5, 0.5)}, "opponent_probabilities"),
    ({"chase_vel_range": (0.0, 0.0)}, "chase_vel_range"),
    ({"chase_vel_range": (2.0, 1.0)}, "chase_vel_range"),
    ({"random_vel_range": (2.0, -2.0)}, "random_vel_range"),
    ({"hills_range": (0.3, 0.1)}, "hills_range"),
    ({"min_spawn_distance": 8.0}, "min_spawn_distance"),
    ({"win_distance": float("nan")}, "win_distance"),
]


@pytest.mark.parametrize(("options", "name"), CHASE_TAG_BAD)
def test_chase_tag_bad_options(options, name):
    with pytest.raises((ValueError, TypeError), match=name):
        envpool_lite.make_gymnasium("myoChallengeChaseTagP2-v0", num_envs=1, **options)


# The challenges' ranges, held to Generator.uniform's own checks at make()
# (myosuite meets them at its first reset).
CHALLENGE_BAD = [
    ("myoChallengeDieReorientP1-v0", {"goal_pos": (0.1, -0.1)}, "goal_pos"),
    ("myoChallengeDieReorientP2-v0", {"obj_size_change": -0.01}, "obj_size_change"),
    ("myoChallengeRelocateP2-v0", {"obj_mass_range": {"high": 0.05, "low": 0.1}}, "obj_mass_range"),
    ("myoChallengeBaodingP1-v1", {"goal_time_period": (7, 3)}, "goal_time_period"),
    ("myoChallengeBaodingP2-v1", {"obj_friction_change": (float("inf"), 0.0, 0.0)}, "obj_friction_change"),
]


@pytest.mark.parametrize(("task_id", "options", "name"), CHALLENGE_BAD)
def test_challenge_bad_ranges(task_id, options, name):
    with pytest.raises(ValueError, match=name):
        envpool_lite.make_gymnasium(task_id, num_envs=1, **options)


def test_reseeding_reset_is_a_new_env():
    # reset(seed=s) makes env i what gym.make(id, seed=s + i) makes
    # (myosuite seeds at construction only).
    a = envpool_lite.make_gymnasium("myoHandReachRandom-v0", num_envs=2, seed=3)
    b = envpool_lite.make_gymnasium("myoHandReachRandom-v0", num_envs=2, seed=9)
    try:
        first = a.reset()[0]
        b.reset()
        b.step(np.zeros((2, 39), np.float32))
        np.testing.assert_array_equal(b.reset(seed=3)[0], first)
    finally:
        a.close()
        b.close()


def test_myodm_past_the_motion():
    # A whole episode (75 steps) of the shortest motion (47 frames): the
    # reference held at its last frame once over, the object let stray.
    options = {"Termimate_obj_fail": False}
    align([{"task_id": "MyoHandPhoneLift-v0", "steps": scope.steps(80, full=160), "num_envs": 1, "seed": 3, "kwargs": options, "reference_kwargs": options}])


MYODM_BAD = [
    ({"frame_skip": 5}, "frame_skip"),
    ({"motion_extrapolation": False}, "motion_extrapolation"),
    ({"motion_start_time": -0.5}, "motion_start_time"),
    ({"object_name": "nothing"}, "object_name"),
    ({"object_name": ""}, "object_name"),
    ({"reference": {**MYODM_FIXED, "speed": [1.0]}}, "reference"),
    ({"reference": {**MYODM_FIXED, "robot": [[0.0] * 28]}}, "reference"),
    ({"reference": {"time": [0.0, 4.0], "robot": [[0.0] * 29], "object": [[0.0] * 7]}}, "robot_vel"),
    ({"reference": {**MYODM_TRACK, "time": [0.0, 0.02]}}, "time"),
    ({"reference": "motion.txt"}, "reference_path"),
]


@pytest.mark.parametrize(("options", "name"), MYODM_BAD)
def test_myodm_bad_options(options, name):
    with pytest.raises((ValueError, TypeError), match=name):
        envpool_lite.make_gymnasium("MyoHandAirplaneFly-v0", num_envs=1, **options)


def test_myodm_missing_file():
    with pytest.raises(FileNotFoundError, match="no_such_motion.npz"):
        envpool_lite.make_gymnasium("MyoHandAirplaneFly-v0", num_envs=1, reference="no_such_motion.npz")


def test_myodm_reseeding_replays_the_construction():
    # A range target is drawn at every observation, the construction's zero
    # step included: reset(seed=s) makes env i what gym.make(id, seed=s + i)
    # makes, those draws made again.
    a = envpool_lite.make_gymnasium("MyoHandAppleRandom-v0", num_envs=2, seed=3)
    b = envpool_lite.make_gymnasium("MyoHandAppleRandom-v0", num_envs=2, seed=9)
    try:
        first = a.reset()[0]
        b.reset()
        b.step(np.zeros((2, 45), np.float32))
        np.testing.assert_array_equal(b.reset(seed=3)[0], first)
        act = np.full((2, 45), 0.3, np.float32)
        np.testing.assert_array_equal(b.step(act)[0], a.step(act)[0])
    finally:
        a.close()
        b.close()


def test_sixteen_leg_envs_fit_in_memory():
    # The legs' model asks for a 1.25 GiB arena per mjData (two per env),
    # which MuJoCo allocates and barely touches: the pool's memory check
    # leaves it out (EnvSpec::lazy_bytes_per_env), so 16 envs are made
    # (before, it refused them: "needs about 37.47 GiB").
    env = envpool_lite.make_gymnasium("myoLegWalk-v0", num_envs=16, num_threads=2, seed=0)
    try:
        env.reset()
        obs, *_ = env.step(np.zeros((16, env.single_action_space.shape[0]), np.float32))
        assert obs.shape[0] == 16
    finally:
        env.close()
