"""MyoChallenge 2024's OSL run track (myosuite's RunTrack, 6 ids): aligned
step by step with myosuite 2.12.2 (tests/myosuite/myosuite_alignment.py)
through episode ends and auto-resets, over its tracks (flat, random,
random_mixed: stairs, hills, rough), its reset types and options; options
refused at make(); get_state/set_state; render().

The rough track's noise comes from numpy's global generator, which myosuite
never seeds (TrackField._compute_rough_track calls np.random.uniform): the
env draws it from a legacy RandomState of its own seed, and the reference
side seeds np.random with the env's seed before making it
("numpy_global_seed"). test_unseeded_reference_differs_only_in_rough_noise
bounds what an unseeded reference changes."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys

import numpy as np
import pytest
import scope
import state_check
from myosuite_alignment import ORACLE, actions_for, align, reference, require_oracle

import envpool_lite
from envpool_lite.refkit import mujoco_lib

FIXED = ["myoChallengeOslRunFixed-v0", "myoSarcChallengeOslRunFixed-v0", "myoFatiChallengeOslRunFixed-v0"]
RANDOM = ["myoChallengeOslRunRandom-v0", "myoSarcChallengeOslRunRandom-v0", "myoFatiChallengeOslRunRandom-v0"]

# Every patch of the track with a height of its own, and the start at y = 1
# m, where the tracks' patches lie under the height map (the registered
# Random start, y = 59 m, is on the last patch, which stays flat).
STEEP = tuple(round(0.01 * (k + 1), 3) for k in range(24))
NEAR = {"start_pos": 0.0, "end_pos": -50.0, "stairs_difficulties": STEEP, "hills_difficulties": STEEP, "rough_difficulties": STEEP}


def run(tasks: list[dict]) -> int:
    """align() with the reference's global generator seeded as the env's."""
    return align([{"numpy_global_seed": True, **t} for t in tasks])


def test_ids_align():
    # Every id, two seeds' envs, through time-limit auto-resets; make
    # test-full: more steps and envs, the registered time limits too.
    steps = scope.steps(30, full=200)
    envs = scope.steps(2, full=3)
    tasks = [{"task_id": t, "steps": steps, "max_episode_steps": 12, "num_envs": envs, "seed": 7 * k} for k, t in enumerate(FIXED + RANDOM)]
    if scope.FULL:
        tasks += [{"task_id": t, "steps": 400, "num_envs": 2, "seed": 100 + k} for k, t in enumerate(FIXED + RANDOM)]
    assert run(tasks) >= len(tasks) * envs * steps


def test_tracks_and_resets_align():
    # The tracks under the agent: "random" (stairs, hills or rough drawn at
    # each reset), "random_mixed" (24 patches each drawn) and "flat" on the
    # Random id; the reset types ("osl_init": a row of the gait cycle, whose
    # pelvis turn init_qpos keeps into the next episode; "init"; "none");
    # the actions unnormalised (56 of them, the OSL's ignored); a win (past
    # end_pos) and losses (out of the track's width: the info's time becomes
    # maxTime); a whole episode to its fall.
    n = scope.steps(2, full=4)
    steps = scope.steps(36, full=150)
    tasks = [
        {"task_id": "myoChallengeOslRunRandom-v0", "kwargs": NEAR, "seed": 2},
        {"task_id": "myoChallengeOslRunRandom-v0", "kwargs": {**NEAR, "terrain": "random_mixed"}, "seed": 4},
        {"task_id": "myoChallengeOslRunRandom-v0", "kwargs": {**NEAR, "terrain": "flat", "reset_type": "none"}, "seed": 5},
        {"task_id": "myoChallengeOslRunRandom-v0", "kwargs": {**NEAR, "reset_type": "osl_init"}, "seed": 6},
        {"task_id": "myoChallengeOslRunRandom-v0", "kwargs": {"reset_type": "init", "terrain": "random_mixed"}, "seed": 7},
        {"task_id": "myoChallengeOslRunFixed-v0", "kwargs": {"normalize_act": False, "start_pos": -1.0, "end_pos": -0.02}, "seed": 8},
        {"task_id": "myoChallengeOslRunFixed-v0", "kwargs": {"real_width": 0.05, "terrain": "random"}, "seed": 9},
    ]
    tasks = [{"steps": steps, "max_episode_steps": 12, "num_envs": n, **t} for t in tasks]
    tasks.append({"task_id": "myoChallengeOslRunFixed-v0", "steps": scope.steps(220, full=600), "num_envs": 1, "seed": 11})
    run(tasks)


def test_episode_ends_are_reached():
    # What test_tracks_and_resets_align goes through, on this side: each
    # track type under the agent, wins, losses with the info's time at
    # maxTime (dt * the registered 1000 steps = 5 s), the OSL's gait-cycle
    # start.
    def roll(task_id, options, steps, seed, limit=12):
        env = envpool_lite.make_gymnasium(task_id, num_envs=2, seed=seed, max_episode_steps=limit, **options)
        acts = actions_for(env.spec, 2, steps, seed + 17)
        env.reset()
        out = []
        for t in range(steps):
            out.append(env.step(np.stack([a[t] for a in acts])))
        env.close()
        return out

    rows = roll("myoChallengeOslRunRandom-v0", NEAR, 36, 2)
    assert {1.0, 2.0, 3.0} <= {float(x) for r in rows for x in r[4]["obs_dict"]["terrain"].ravel()}
    assert all((r[4]["obs_dict"]["hfield"] != 0).any() for r in rows)
    rows = roll("myoChallengeOslRunFixed-v0", {"normalize_act": False, "start_pos": -1.0, "end_pos": -0.02}, 36, 8)
    assert sum(r[4]["solved"].sum() for r in rows) >= 2
    rows = roll("myoChallengeOslRunFixed-v0", {"real_width": 0.05, "terrain": "random"}, 36, 9)
    lost = [r for r in rows if r[2].any() and not r[4]["solved"].any()]
    assert lost and all(r[4]["time"][r[2]].max() == 5.0 for r in lost)


def test_spaces():
    env = envpool_lite.make_gymnasium("myoChallengeOslRunRandom-v0", num_envs=1)
    assert env.single_action_space.shape == (54,) and env.single_observation_space.shape == (260,)
    assert env.spec.config["max_time_steps"] == 60000 and env.spec.config["init_pose_path"].endswith("sample_gait_cycle.csv")
    env.close()
    env = envpool_lite.make_gymnasium("myoChallengeOslRunFixed-v0", num_envs=1, normalize_act=False, obs_keys=["hfield", "terrain", "time"])
    assert env.single_action_space.shape == (56,) and env.single_observation_space.shape == (100 + 1 + 1 + 54,)
    env.close()


def test_user_gait_cycle_file(tmp_path, monkeypatch):
    # A user's gait cycle (relative to the working directory, as myosuite
    # opens it): 60 rows of the package's, its columns reordered.
    require_oracle()
    sample = ORACLE / "myosuite" / "envs" / "myo" / "assets" / "leg" / "sample_gait_cycle.csv"
    lines = sample.read_text().splitlines()
    names = lines[0].split(",")
    order = list(reversed(range(len(names))))
    rows = [[line.split(",")[i] for i in order] for line in [lines[0]] + lines[120:180]]
    (tmp_path / "cycle.csv").write_text("\n".join(",".join(r) for r in rows) + "\n")
    monkeypatch.chdir(tmp_path)
    options = {"reset_type": "osl_init", "init_pose_path": "cycle.csv"}
    run(
        [
            {
                "task_id": "myoChallengeOslRunRandom-v0",
                "steps": scope.steps(24, full=80),
                "max_episode_steps": 8,
                "num_envs": 2,
                "seed": 2,
                "kwargs": options,
                "reference_kwargs": {**options, "init_pose_path": str(tmp_path / "cycle.csv")},
            }
        ]
    )


BAD = [
    ({"reset_type": "random_start"}, "reset_type"),
    ({"terrain": "hilly"}, "terrain"),
    ({"terrain": "random_mixed"}, "difficulties"),  # 23 patches, 8 difficulties
    ({"terrain": "random", "stairs_difficulties": ()}, "stairs_difficulties"),
    ({"terrain": "random", "hills_difficulties": (0.1,) * 250}, "hills_difficulties"),  # 299 patches
    ({"terrain": "random", "rough_difficulties": (0.1, -0.1, 0.0)}, "rough_difficulties"),
    ({"hills_difficulties": (0.1, float("nan"))}, "hills_difficulties"),
    ({"osl_param_set": 0}, "osl_param_set"),
    ({"reset_type": "osl_init", "init_pose_path": None}, "init_pose_path"),
    ({"real_width": -1.0}, "real_width"),
    ({"real_length": float("inf")}, "real_length"),
    ({"start_pos": float("nan")}, "start_pos"),
]


@pytest.mark.parametrize(("options", "name"), BAD)
def test_bad_options(options, name):
    with pytest.raises(ValueError, match=name):
        envpool_lite.make_gymnasium("myoChallengeOslRunFixed-v0", num_envs=1, **options)


def test_starting_done_is_refused():
    # The setup's step of zero commands ends the episode (myosuite asserts):
    # found when the env is made.
    with pytest.raises(RuntimeError, match="starts in a done state"):
        envpool_lite.make_gymnasium("myoChallengeOslRunFixed-v0", num_envs=1, end_pos=60.0)


def test_bad_gait_cycle_files(tmp_path):
    with pytest.raises(FileNotFoundError, match="init_pose_path"):
        envpool_lite.make_gymnasium("myoChallengeOslRunFixed-v0", num_envs=1, init_pose_path=str(tmp_path / "missing.csv"))
    (tmp_path / "cycle.csv").write_text("hip_flexion_l,elbow,pelvis_euler_roll\n0.1,0.2,0.3\n0.1,0.2,0.3\n")
    with pytest.raises(ValueError, match="elbow"):
        envpool_lite.make_gymnasium("myoChallengeOslRunFixed-v0", num_envs=1, reset_type="osl_init", init_pose_path=str(tmp_path / "cycle.csv"))
    # Not read but for "osl_init" (myosuite only loads it): accepted.
    envpool_lite.make_gymnasium("myoChallengeOslRunFixed-v0", num_envs=1, init_pose_path=str(tmp_path / "cycle.csv")).close()


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_state_replays(mode):
    # The height field (not in the model's saved arrays), the legacy
    # generator of the rough noise, the OSL's state and init_qpos (which
    # "osl_init" changes) come back: mixed tracks and gait-cycle starts,
    # episodes of 5 steps.
    options = {**NEAR, "terrain": "random_mixed", "reset_type": "osl_init", "max_episode_steps": 5}
    seen = state_check.check_roundtrip("myoFatiChallengeOslRunRandom-v0", k=3, m=14, options=options, autoreset_mode=mode, other_pool=mode == "next_step")
    assert seen["dones"] >= 2


def test_pictures_equal_myosuite():
    # The track (stairs or hills drawn, rough left flat), through an episode
    # end: myosuite's renderer uploads the height field when it is made (the
    # first frame), never again, and so does render().
    require_oracle()
    try:
        mujoco_lib.gl_backend("MyoSuite's render()")
    except RuntimeError as e:
        pytest.skip(str(e))
    task_id, w, h, seed = "myoChallengeOslRunRandom-v0", 96, 72, 1
    options = {**NEAR, "rough_difficulties": (0.0,) * 24, "max_episode_steps": 2}
    env = envpool_lite.make_gymnasium(task_id, num_envs=1, seed=seed, render_mode="rgb_array", render_width=w, render_height=h, **options)
    actions = actions_for(env.spec, 1, 5, seed=9)[0]
    try:
        env.reset()
        ours = [env.render()[0].copy()]
        for a in actions:
            env.step(a[None])
            ours.append(env.render()[0].copy())
    finally:
        env.close()
    request = [
        {"task_id": task_id, "seed": seed, "width": w, "height": h, "camera_id": -1, "kwargs": options, "numpy_global_seed": True, "actions": [base64.b64encode(a.tobytes()).decode() for a in actions]}
    ]
    theirs = reference("render", request)[0]
    assert len(theirs) == len(ours)
    for t, (a, b) in enumerate(zip(ours, theirs)):
        want = np.frombuffer(base64.b64decode(b), np.uint8).reshape(h, w, 3)
        assert want.std() > 0
        np.testing.assert_array_equal(a, want, err_msg=f"{task_id}: frame {t}")


# The reference's tracks at each of `resets` resets, with the global
# generator seeded by `global_seed` (None: not seeded), and the draws it
# takes from it: {"types": [...], "fields": [base64 float32], "uniform":
# calls of np.random.uniform, "other": other draws from it}.
_TRACKS = """
import base64, contextlib, io, json, sys
import numpy as np
request = json.loads(sys.stdin.read())
with contextlib.redirect_stdout(io.StringIO()):
    import gymnasium as gym
    import myosuite  # noqa: F401
calls = {"uniform": 0}
uniform = np.random.uniform
def counted(*a, **k):
    calls["uniform"] += 1
    return uniform(*a, **k)
np.random.uniform = counted
if request["global_seed"] is not None:
    np.random.seed(request["global_seed"])
replay = np.random.RandomState(request["global_seed"] or 0)
replay.set_state(np.random.get_state())
out = {"types": [], "fields": []}
with contextlib.redirect_stdout(io.StringIO()):
    env = gym.make(request["task_id"], seed=request["seed"], **request["kwargs"])
    for _ in range(request["resets"]):
        before = calls["uniform"]
        env.reset()
        field = env.unwrapped.trackfield
        out["types"].append(field.terrain_type.value)
        out["fields"].append(base64.b64encode(field.hfield.data.astype(np.float32).tobytes()).decode())
        length = field.nrow // len(field.rough_difficulties)
        for _ in range(calls["uniform"] - before):
            replay.uniform(-1, 1, size=(length, field.ncol))
out["other"] = not np.array_equal(replay.get_state()[1], np.random.get_state()[1])
sys.stdout.write(json.dumps(out))
"""


def _tracks(task_id: str, seed: int, global_seed: int | None, resets: int, kwargs: dict) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ORACLE), "GIT_PYTHON_REFRESH": "quiet"}
    request = {"task_id": task_id, "seed": seed, "global_seed": global_seed, "resets": resets, "kwargs": kwargs}
    out = subprocess.run([sys.executable, "-c", _TRACKS], input=json.dumps(request), capture_output=True, text=True, timeout=600, env=env)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout)
    result["fields"] = [np.frombuffer(base64.b64decode(f), np.float32).reshape(600, 20) for f in result["fields"]]
    return result


def test_unseeded_reference_differs_only_in_rough_noise():
    # myosuite's global generator drawn twice from other seeds: only the
    # noise of the rough tracks' patches differs (never stairs, hills, the
    # track types, or the flat patches), nothing but those draws use it,
    # and on the registered Random track those patches start 24 m ahead of
    # the start (rows 100 to 474 of 600, y from -40 to 35 m; the start is at
    # 59 m): the ids' default alignment, which does not seed it
    # (test_myosuite.py's), never reaches them.
    require_oracle()
    task_id, resets = "myoChallengeOslRunRandom-v0", scope.steps(6, full=20)
    a = _tracks(task_id, 5, 1, resets, {})
    b = _tracks(task_id, 5, 2, resets, {})
    assert not a["other"] and not b["other"]
    assert a["types"] == b["types"] and 2 in a["types"]
    for kind, fa, fb in zip(a["types"], a["fields"], b["fields"]):
        rows = np.flatnonzero((fa != fb).any(axis=1))
        if kind != 2:
            assert rows.size == 0
            continue
        assert rows.size > 0 and rows.min() >= 100 and rows.max() < 475
        # Each differing row lies in a patch of a nonzero difficulty.
        reversed_rough = envpool_lite.make_spec(task_id).config["rough_difficulties"][::-1]
        assert all(reversed_rough[r // 25] > 0 for r in rows)
        assert np.abs(fa - fb).max() <= max(reversed_rough)
