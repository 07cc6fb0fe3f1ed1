"""Writes cpp/envs/myosuite/registration_tasks.cc: one Add line per task id
that myosuite 2.12.2 registers and this family implements, with the
kwargs myosuite registers it with, as typed options. Run after
scripts/setup_compat.sh (it asks the reference, in its own folder, for its
registry): .venv/bin/python scripts/gen_myosuite_registration.py

tests/myosuite/test_myosuite.py::test_registry_matches_reference checks
that the file still says what the reference registers."""

from __future__ import annotations

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(ROOT, "cpp/envs/myosuite/registration_tasks.cc")

# myosuite's env class -> (the header in cpp/envs/myosuite/, the C++ env).
# A class whose header does not exist yet is left out of the file.
CLASSES = {
    "myosuite.envs.myo.myobase.pose_v0:PoseEnvV0": ("pose.h", "PoseEnv"),
    "myosuite.envs.myo.myobase.reach_v0:ReachEnvV0": ("reach.h", "ReachEnv"),
    "myosuite.envs.myo.myodm.myodm_v0:TrackEnv": ("myodm.h", "TrackEnv"),
    "myosuite.envs.myo.myobase.walk_v0:ReachEnvV0": ("walk.h", "LegReachEnv"),
    "myosuite.envs.myo.myobase.walk_v0:WalkEnvV0": ("walk.h", "WalkEnv"),
    "myosuite.envs.myo.myobase.walk_v0:TerrainEnvV0": ("walk.h", "TerrainEnv"),
    "myosuite.envs.myo.myobase.key_turn_v0:KeyTurnEnvV0": ("key_turn.h", "KeyTurnEnv"),
    "myosuite.envs.myo.myobase.obj_hold_v0:ObjHoldFixedEnvV0": ("obj_hold.h", "ObjHoldFixedEnv"),
    "myosuite.envs.myo.myobase.obj_hold_v0:ObjHoldRandomEnvV0": ("obj_hold.h", "ObjHoldRandomEnv"),
    "myosuite.envs.myo.myobase.pen_v0:PenTwirlFixedEnvV0": ("pen.h", "PenTwirlFixedEnv"),
    "myosuite.envs.myo.myobase.pen_v0:PenTwirlRandomEnvV0": ("pen.h", "PenTwirlRandomEnv"),
    "myosuite.envs.myo.myobase.torso_v0:TorsoEnvV0": ("torso.h", "TorsoEnv"),
    "myosuite.envs.myo.myobase.reorient_sar_v0:Geometries8EnvV0": ("reorient_sar.h", "ReorientGeometries8Env"),
    "myosuite.envs.myo.myobase.reorient_sar_v0:Geometries100EnvV0": ("reorient_sar.h", "ReorientGeometries100Env"),
    "myosuite.envs.myo.myobase.reorient_sar_v0:InDistribution": ("reorient_sar.h", "ReorientInDistributionEnv"),
    "myosuite.envs.myo.myobase.reorient_sar_v0:OutofDistribution": ("reorient_sar.h", "ReorientOutofDistributionEnv"),
    "myosuite.envs.myo.myochallenge.reorient_v0:ReorientEnvV0": ("challenge_reorient.h", "ChallengeReorientEnv"),
    "myosuite.envs.myo.myochallenge.relocate_v0:RelocateEnvV0": ("challenge_relocate.h", "ChallengeRelocateEnv"),
    "myosuite.envs.myo.myochallenge.baoding_v1:BaodingEnvV1": ("challenge_baoding.h", "ChallengeBaodingEnv"),
    "myosuite.envs.myo.myochallenge.bimanual_v0:BimanualEnvV1": ("challenge_bimanual.h", "ChallengeBimanualEnv"),
    "myosuite.envs.myo.myochallenge.tabletennis_v0:TableTennisEnvV0": ("challenge_tabletennis.h", "ChallengeTableTennisEnv"),
    "myosuite.envs.myo.myochallenge.soccer_v0:SoccerEnvV0": ("challenge_soccer.h", "ChallengeSoccerEnv"),
    "myosuite.envs.myo.myochallenge.run_track_v0:RunTrack": ("challenge_runtrack.h", "ChallengeRunTrackEnv"),
    "myosuite.envs.myo.myochallenge.chasetag_v0:ChaseTagEnvV0": ("challenge_chasetag.h", "ChallengeChaseTagEnv"),
}

# The type of each option (its C++ default's type).
TYPES = {
    "frame_skip": "int",
    "normalize_act": "bool",
    "obs_keys": "strings",
    "weighted_reward_keys": "weights",
    "muscle_condition": "string",
    "fatigue_reset_vec": "numbers",
    "fatigue_reset_random": "bool",
    "viz_site_targets": "strings",
    "target_jnt_range": "table",
    "target_jnt_value": "numbers",
    "reset_type": "string",
    "target_type": "string",
    "pose_thd": "double",
    "weight_bodyname": "string",
    "weight_range": "numbers",
    "target_reach_range": "table",
    "far_th": "double",
    "model_edit": "string",
    "object_name": "string",
    "reference": "table",
    "reference_path": "string",
    "joint_random_range": "numbers",
    "min_height": "double",
    "max_rot": "double",
    "hip_period": "int",
    "target_x_vel": "double",
    "target_y_vel": "double",
    "target_rot": "numbers",
    "terrain": "string",
    "variant": "string",
    "goal_th": "double",
    "key_init_range": "numbers",
    "goal_pos": "numbers",
    "goal_rot": "numbers",
    "obj_size_change": "double",
    "obj_mass_range": "numbers",
    "obj_friction_change": "numbers",
    "pos_th": "double",
    "rot_th": "double",
    "drop_th": "double",
    "target_xyz_range": "table",
    "target_rxryrz_range": "table",
    "obj_xyz_range": "table",
    "obj_geom_range": "table",
    "obj_friction_range": "table",
    "qpos_noise_range": "double",
    "proximity_th": "double",
    "goal_time_period": "numbers",
    "goal_xrange": "numbers",
    "goal_yrange": "numbers",
    "obj_size_range": "numbers",
    "task_choice": "string",
    "obj_scale_change": "numbers",
    "obj_mass_change": "numbers",
    "ball_xyz_range": "table",
    "ball_qvel": "bool",
    "ball_friction_range": "table",
    "paddle_mass_range": "numbers",
    "rally_count": "int",
    "remove_body_collisions": "bool",
    "add_left_arm": "bool",
    "min_agent_spawn_distance": "double",
    "goalkeeper_probabilities": "numbers",
    "max_time_sec": "double",
    "random_vel_range": "numbers",
    "rnd_pos_noise": "double",
    "rnd_joint_noise": "double",
    "hills_difficulties": "numbers",
    "rough_difficulties": "numbers",
    "stairs_difficulties": "numbers",
    "real_width": "double",
    "real_length": "double",
    "end_pos": "double",
    "start_pos": "double",
    "init_pose_path": "string",
    "osl_param_set": "int",
    "max_time_steps": "int",
    "win_distance": "double",
    "min_spawn_distance": "double",
    "hills_range": "numbers",
    "rough_range": "numbers",
    "relief_range": "numbers",
    "repeller_opponent": "bool",
    "chase_vel_range": "numbers",
    "repeller_vel_range": "numbers",
    "opponent_probabilities": "numbers",
}

# An option whose type differs in one class: table tennis' qpos_noise_range
# is a {high, low} range (relocate's a number).
CLASS_TYPES = {
    "myosuite.envs.myo.myochallenge.tabletennis_v0:TableTennisEnvV0": {"qpos_noise_range": "table"},
}


def reference_registry() -> dict:
    compat = os.path.join(ROOT, "build/compat/myosuite_oracle")
    out = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tests/myosuite/myosuite_reference.py"), "registry"],
        env={**os.environ, "PYTHONPATH": compat},
        input="{}",
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def number(x) -> str:
    if float(x) in (float("inf"), float("-inf")):  # np.inf (pos_th, rot_th)
        return ("-" if float(x) < 0 else "") + "std::numeric_limits<double>::infinity()"
    return repr(float(x))


def flat(v) -> list:
    if not isinstance(v, (list, tuple)):  # a scalar entry (relocate's obj_mass_range)
        return [v]
    out = []
    for x in v:
        out.extend(flat(x) if isinstance(x, (list, tuple)) else [x])
    return out


def value(name: str, v, entry_point: str = "") -> str:
    kind = CLASS_TYPES.get(entry_point, {}).get(name, TYPES[name])
    if kind == "numbers" and isinstance(v, dict):  # relocate's obj_mass_range {high, low}
        kind = "table"
    if v is None:  # myosuite's None: the option's empty value
        return {"numbers": "NumberList{}", "string": "std::string()", "strings": "StringList{}", "table": "NamedNumbers{}"}[kind]
    if kind == "int":
        return f"int64_t{{{int(v)}}}"
    if kind == "bool":
        return "true" if v else "false"
    if kind == "double":
        return number(v)
    if kind == "string":
        return f'std::string("{v}")'
    if kind == "strings":
        return "StringList{" + ", ".join(f'"{s}"' for s in v) + "}"
    if kind == "numbers":
        return "NumberList{" + ", ".join(number(x) for x in v) + "}"
    if kind == "weights":
        return "NamedNumbers{" + ", ".join(f'{{"{k}", {{{number(w)}}}}}' for k, w in v.items()) + "}"
    if kind == "table":
        return "NamedNumbers{" + ", ".join(f'{{"{k}", {{' + ", ".join(number(x) for x in flat(r)) + "}}" for k, r in v.items()) + "}"
    raise ValueError(name)


def line(task_id: str, entry: dict) -> str:
    options = [f'{{"mujoco_model", std::string("{entry["kwargs"]["model_path"]}")}}', f'{{"max_episode_steps", int64_t{{{entry["max_episode_steps"]}}}}}']
    for name, v in entry["kwargs"].items():
        if name == "model_path":
            continue
        if name == "edit_fn":  # myosuite's function, by name (model_edit.h)
            name, v = "model_edit", v.removeprefix("<function edit_fn_").removesuffix(">")
        if name == "max_episode_steps":  # RunTrack's own kwarg (its maxTime), not gym.make's limit
            name = "max_time_steps"
        options.append(f'{{"{name}", {value(name, v, entry["entry_point"])}}}')
    return f'  AddTask<{CLASSES[entry["entry_point"]][1]}>(registry, "{task_id}",\n' + "                   {" + ",\n                    ".join(options) + "});\n"


def main() -> None:
    reg = reference_registry()
    here = os.path.dirname(OUT)
    built = {k: v for k, v in CLASSES.items() if os.path.exists(os.path.join(here, v[0]))}
    lines = []
    for task_id, entry in reg.items():
        if entry["entry_point"] not in built:
            continue
        lines.append(line(task_id, entry))
    body = "".join(lines)
    includes = "".join(sorted({f'#include "envs/myosuite/{h}"\n' for h, _ in built.values()}))
    text = f"""// myosuite 2.12.2's task ids that this family implements, each with the
// kwargs myosuite registers it with (its muscle-condition variants
// included), as typed options. Written by scripts/gen_myosuite_registration.py
// from the reference's registry; tests/myosuite/test_myosuite.py checks it.
{includes}#include "envs/myosuite/registration.h"

namespace envpool_lite {{
namespace myosuite {{

void RegisterTasks(Registry& registry) {{
{body}}}

}}  // namespace myosuite
}}  // namespace envpool_lite
"""
    with open(OUT, "w") as f:
        f.write(text)
    # In the project's C++ style (make lint checks it).
    subprocess.run([os.path.join(ROOT, ".venv/bin/clang-format"), "-i", OUT], check=True)
    print(f"{OUT}: {len(lines)} task ids")


if __name__ == "__main__":
    main()
