"""ViZDoom: alignment with vizdoom's own Python API, engine processes and
their clean-up (close, garbage collection, interpreter exit, a killed parent,
a killed or hung engine), determinism and seeding, every task, options.

Engine processes are found as this process's descendants whose executable is
the vizdoom wheel's engine; /dev/shm is checked for ViZDoom's names
(ViZDoomSM*, ViZDoomMQ*) and the temporary directory for the envs' private
directories. Tests that need a clean slate run in a fresh working directory.
"""

import gc
import glob
import importlib.util
import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np
import psutil
import pytest

import envpool_lite

TASKS = [
    "Basic-v1",
    "DeadlyCorridor-v1",
    "DefendTheCenter-v1",
    "DefendTheLine-v1",
    "HealthGathering-v1",
    "HealthGatheringSupreme-v1",
    "MyWayHome-v1",
    "PredictPosition-v1",
    "TakeCover-v1",
    "Deathmatch-v1",
    "RocketBasic-v1",
    "SimplerBasic-v1",
    "VizdoomCustom-v1",
]

pytestmark = [
    pytest.mark.skipif("Basic-v1" not in envpool_lite.list_all_envs(), reason="built without ViZDoom (Boost missing)"),
    pytest.mark.skipif(importlib.util.find_spec("vizdoom") is None, reason="the vizdoom package is not installed"),
]


def scenario(name):
    from envpool_lite import vizdoom as glue

    return os.path.join(glue.scenarios_dir(), name)


def engines(pid=None):
    """The engine processes below this process (or below pid)."""
    out = []
    for p in psutil.Process(pid).children(recursive=True):
        try:
            if p.exe().endswith(os.path.join("vizdoom", "vizdoom")) and p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
        except psutil.Error:
            pass
    return out


def shm_names(exclude=()):
    return sorted(n for n in os.listdir("/dev/shm") if n.startswith("ViZDoom") and n not in exclude)


def private_dirs():
    return glob.glob(os.path.join(tempfile.gettempdir(), "envpool_lite_vizdoom_*"))


def wait_until(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


@pytest.fixture
def clean(tmp_path, monkeypatch):
    """A fresh working directory; afterwards nothing of ours is left (other
    processes on the machine may have /dev/shm names and directories of
    their own: only new ones count)."""
    monkeypatch.chdir(tmp_path)
    gc.collect()
    before_shm, before_dirs = set(shm_names()), set(private_dirs())
    yield tmp_path
    gc.collect()
    assert wait_until(lambda: not engines()), "engine processes left"
    assert wait_until(lambda: set(shm_names()) <= before_shm), f"/dev/shm left: {set(shm_names()) - before_shm}"
    assert wait_until(lambda: set(private_dirs()) <= before_dirs), "private directories left"
    assert not [n for n in os.listdir(tmp_path) if n.startswith("_vizdoom")], "files in the working directory"


def zeros(env):
    space = env.single_action_space
    if hasattr(space, "n"):
        return np.zeros(env.num_envs, np.int32)
    return np.zeros((env.num_envs, *space.shape), np.float32)


# --- alignment with vizdoom's DoomGame ---------------------------------------
@pytest.mark.parametrize("gray_scale,frame_skip", [(False, 1), (True, 1), (False, 4)])
def test_alignment_with_vizdoom_python_api(make, tmp_path, monkeypatch, gray_scale, frame_skip):
    """Same cfg, seed and actions as vizdoom.DoomGame at the screen's own
    resolution, one frame: equal screens and rewards at every step, across
    episode ends (the reference starts a new episode where the pool
    auto-resets)."""
    import vizdoom as vzd

    monkeypatch.chdir(tmp_path)  # the reference writes its _vizdoom files here
    seed = 123
    game = vzd.DoomGame()
    game.load_config(scenario("basic.cfg"))
    game.set_window_visible(False)
    game.set_sound_enabled(False)
    game.set_mode(vzd.Mode.PLAYER)
    game.set_screen_format(vzd.ScreenFormat.GRAY8 if gray_scale else vzd.ScreenFormat.CRCGCB)
    game.set_seed(seed)
    game.init()
    try:
        height, width = game.get_screen_height(), game.get_screen_width()
        timeout = game.get_episode_timeout()
        env = make("Basic-v1", num_envs=1, seed=seed, frame_skip=frame_skip, stack_num=1, img_height=height, img_width=width, gray_scale=gray_scale, max_episode_steps=-(-timeout // frame_skip))
        obs, _ = env.reset()
        shape = obs.shape[1:]
        np.testing.assert_array_equal(obs[0], game.get_state().screen_buffer.reshape(shape))
        rng = np.random.default_rng(0)
        # Mostly shooting and strafing toward the monster, so episodes end both ways.
        actions = (rng.random((900, 3)) < [0.3, 0.3, 0.6]).astype(np.float32)
        endings = {"terminated": 0, "truncated": 0}
        steps = 900 if frame_skip == 1 else 300
        for t in range(steps):
            if game.is_episode_finished():
                game.new_episode()
                obs, reward, term, trunc, _ = env.step(actions[t : t + 1])  # the auto-reset
                assert reward[0] == 0 and not term[0] and not trunc[0]
            else:
                ref_reward = game.make_action(actions[t].tolist(), frame_skip)
                obs, reward, term, trunc, _ = env.step(actions[t : t + 1])
                assert reward[0] == np.float32(ref_reward), t
                finished = game.is_episode_finished()
                assert bool(term[0] or trunc[0]) == finished, t
                if finished:
                    endings["truncated" if game.is_episode_timeout_reached() else "terminated"] += 1
                    assert bool(trunc[0]) == game.is_episode_timeout_reached()
                    continue
            np.testing.assert_array_equal(obs[0], game.get_state().screen_buffer.reshape(shape), err_msg=f"step {t}")
        assert endings["terminated"] >= 1 and endings["truncated"] >= 1
    finally:
        game.close()


def test_area_resize_matches_cv2(make):
    """84x84 observations are cv2.INTER_AREA of the screen, to one grey level."""
    cv2 = pytest.importorskip("cv2")
    full = make("Basic-v1", num_envs=1, seed=3, stack_num=1, img_height=240, img_width=320)
    small = make("Basic-v1", num_envs=1, seed=3, stack_num=1)
    a, _ = full.reset()
    b, _ = small.reset()
    for _ in range(3):
        ref = cv2.resize(a[0, 0], (84, 84), interpolation=cv2.INTER_AREA)
        diff = np.abs(ref.astype(int) - b[0, 0].astype(int))
        assert diff.max() <= 1 and diff.mean() < 0.05
        a = full.step(np.ones((1, 3), np.float32))[0]
        b = small.step(np.ones((1, 3), np.float32))[0]


# --- engine processes and clean-up ---------------------------------------------
def test_one_engine_per_env_and_close_reaps_everything(clean):
    before = set(shm_names())
    env = envpool_lite.make("Basic-v1", num_envs=3, seed=0)
    env.reset()
    env.step(zeros(env))
    assert len(engines()) == 3
    assert len(shm_names(before)) == 9  # each engine: shared memory, two message queues
    env.close()
    assert not engines()
    assert not shm_names(before)


def test_garbage_collection_reaps_engines(clean):
    env = envpool_lite.make("Basic-v1", num_envs=2, seed=0)
    env.reset()
    assert len(engines()) == 2
    del env
    gc.collect()
    assert not engines()


def test_many_envs_at_once_in_a_fresh_directory(clean):
    """EnvPool, starting 3 envs at once in a fresh directory, died on
    "Failed to create ./_vizdoom/ directory: File exists"."""
    before = set(shm_names())
    env = envpool_lite.make("Basic-v1", num_envs=12, num_threads=12, seed=0)
    env.reset()
    env.step(zeros(env))
    names = shm_names(before)
    assert len(names) == 36 and len({n[-10:] for n in names}) == 12  # 12 distinct instance ids
    assert os.listdir(clean) == []
    env.close()


SCRIPT = textwrap.dedent(
    """
    import sys, time, numpy as np, psutil, envpool_lite
    env = envpool_lite.make("Basic-v1", num_envs=2, seed=0)
    env.reset()
    env.step(np.zeros((2, 3), np.float32))
    print(" ".join(str(p.pid) for p in psutil.Process().children(recursive=True)), flush=True)
    if sys.argv[1] == "sleep":
        time.sleep(120)
    """
)


@pytest.mark.parametrize("how", ["interpreter_exit", "parent_killed"])
def test_engines_die_with_their_process(clean, how):
    """At interpreter exit (pool never closed), and when the Python process is
    killed outright (SIGKILL: no clean-up runs in it), its engines die and
    leave nothing behind."""
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, "sleep" if how == "parent_killed" else "exit"], stdout=subprocess.PIPE, text=True)
    pids = [int(p) for p in proc.stdout.readline().split()]
    assert len(pids) == 4  # two launchers, two engines
    if how == "parent_killed":
        proc.kill()
    proc.wait(timeout=60)
    proc.stdout.close()

    def gone():
        for pid in pids:
            try:
                if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                    return False
            except psutil.NoSuchProcess:
                pass
        return True

    assert wait_until(gone, 10), "engines outlived their process"


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGSTOP], ids=["SIGKILL", "SIGSTOP"])
def test_dead_or_hung_engine_raises_naming_the_env(clean, sig):
    """An engine killed mid-episode, or one that stops answering, makes recv
    raise EnvStepError for that env within a bounded time (engine_timeout for
    a hung one); the env then starts a new engine at its next action."""
    env = envpool_lite.make("Basic-v1", num_envs=3, seed=0, engine_timeout=2.0)
    env.reset()
    for _ in range(3):
        env.step(zeros(env))
    victim = engines()[1]
    os.kill(victim.pid, sig)
    start = time.monotonic()
    with pytest.raises(envpool_lite.EnvStepError) as err:
        for _ in range(3):
            env.step(zeros(env))
    elapsed = time.monotonic() - start
    assert len(err.value.env_ids) == 1
    assert f"env {err.value.env_ids[0]}:" in str(err.value)
    if sig == signal.SIGSTOP:
        assert "did not answer within 2 s" in str(err.value)
        assert 1.9 < elapsed < 10
    else:
        assert "exited unexpectedly" in str(err.value)
        assert elapsed < 5
    assert wait_until(lambda: not psutil.pid_exists(victim.pid) or psutil.Process(victim.pid).status() == psutil.STATUS_ZOMBIE)
    # The failed env restarts; the others go on.
    obs, reward, term, trunc, info = env.step(zeros(env))
    failed = err.value.env_ids[0]
    assert info["elapsed_step"][failed] == 0
    obs, reward, term, trunc, info = env.step(zeros(env))
    assert info["elapsed_step"][failed] == 1 and len(engines()) == 3
    env.close()


def _launcher_wrapper(path, body):
    """A stand-in for vizdoom_launcher (ENVPOOL_LITE_VIZDOOM_LAUNCHER) that
    runs `body`, then the real launcher as itself."""
    real = os.path.join(os.path.dirname(envpool_lite._core.__file__), "vizdoom_launcher")
    path.write_text(f'#!/bin/bash\n{body}\nexec -a "$0" {real} "$@"\n')
    path.chmod(0o755)
    return str(path)


def test_an_engine_that_dies_while_starting_raises(clean, monkeypatch):
    """vizdoom 1.3.2's client library segfaults when its engine exits before
    it is up; ours (patched) raises, and the pool is not built."""
    monkeypatch.setenv("ENVPOOL_LITE_VIZDOOM_LAUNCHER", _launcher_wrapper(clean.parent / "dies.sh", "exit 3"))
    with pytest.raises(RuntimeError, match="the ViZDoom engine did not start"):
        envpool_lite.make("Basic-v1", num_envs=2, seed=0)


def test_a_taken_instance_name_is_retried(clean, monkeypatch):
    """The launcher refuses an instance name a live engine holds (it leaves
    a `collision` file); the env starts again under a new name."""
    marker = clean.parent / "collided"
    body = f'if [ ! -e {marker} ]; then touch {marker}; echo taken > "$(dirname "$0")/collision"; exit 3; fi'
    monkeypatch.setenv("ENVPOOL_LITE_VIZDOOM_LAUNCHER", _launcher_wrapper(clean.parent / "collide.sh", body))
    env = envpool_lite.make("Basic-v1", num_envs=2, seed=0)
    assert marker.exists()
    obs, _ = env.reset()
    env.step(zeros(env))
    assert len(engines()) == 2
    env.close()


# --- determinism and seeds ----------------------------------------------------
def rollout(make, seed, steps=40, reseed=None, **kwargs):
    env = make("Basic-v1", num_envs=2, seed=seed, **kwargs)
    obs, _ = env.reset()
    rng = np.random.default_rng(1)
    actions = rng.random((steps, 2, 3)).astype(np.float32)
    if reseed is not None:
        for t in range(5):
            env.step(actions[t])
        obs, _ = env.reset(seed=reseed)
    out, rewards = [obs.copy()], []
    for t in range(steps):
        obs, reward, term, trunc, info = env.step(actions[t])
        out.append(obs.copy())
        rewards.append(reward.copy())
    env.close()
    return np.array(out), np.array(rewards)


def test_determinism_and_seeds(make):
    a = rollout(make, 5)
    b = rollout(make, 5)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    # Each env its own seed (env i: seed + i); Basic's monster spawns at a random place.
    assert (a[0][0, 0] != a[0][0, 1]).any()
    c = rollout(make, 4)
    np.testing.assert_array_equal(c[0][0, 1], a[0][0, 0])
    # reset(seed=s) is a fresh env seeded s.
    d = rollout(make, 9, reseed=5)
    np.testing.assert_array_equal(d[0], a[0])
    np.testing.assert_array_equal(d[1], a[1])


# --- every task, options -----------------------------------------------------
@pytest.mark.parametrize("task", TASKS)
def test_every_task_makes_and_steps(make, task):
    kwargs = {}
    if task == "VizdoomCustom-v1":
        kwargs = {"cfg_path": scenario("defend_the_center.cfg"), "wad_path": scenario("defend_the_center.wad")}
    combined = TASKS.index(task) % 2 == 1
    env = make(task, num_envs=2, batch_size=1, num_threads=2, use_combined_action=combined, **kwargs)
    assert env.single_observation_space.shape == (4, 84, 84)
    assert hasattr(env.single_action_space, "n") == combined
    rng = np.random.default_rng(0)
    env.async_reset()
    for _ in range(6):
        obs, reward, term, trunc, info = env.recv()
        assert obs.shape == (1, 4, 84, 84) and obs.dtype == np.uint8 and np.isfinite(reward).all()
        space = env.single_action_space
        action = rng.integers(0, space.n, 1).astype(np.int32) if combined else (rng.random((1, *space.shape)) < 0.5).astype(np.float32)
        env.send(action, info["env_id"])
    env.recv()


def test_two_pools_in_one_process(make):
    a = make("Basic-v1", num_envs=2, batch_size=1, seed=0)
    b = make("DefendTheCenter-v1", num_envs=2, seed=0, gray_scale=False, use_combined_action=True)
    a.async_reset()
    b.reset()
    for _ in range(10):
        _, _, _, _, info = a.recv()
        a.send(np.ones((1, 3), np.float32), info["env_id"])
        obs, *_ = b.step(np.array([1, 2], np.int32))
        assert obs.shape == (2, 12, 84, 84)
    a.recv()


def test_spaces_and_info(make):
    env = make("Basic-v1", num_envs=1, game_variables="HEALTH, KILLCOUNT")
    assert env.single_observation_space.shape == (4, 84, 84)
    space = env.single_action_space
    assert space.shape == (3,) and space.dtype == np.float32
    obs, info = env.reset()
    assert info["AMMO2"][0] == 50 and info["HEALTH"][0] == 100 and info["KILLCOUNT"][0] == 0
    assert env.spec.max_episode_steps == 75  # basic.cfg: 300 tics at frame_skip 4
    rgb = make("Basic-v1", num_envs=1, gray_scale=False, stack_num=2, img_height=60, img_width=80)
    assert rgb.single_observation_space.shape == (6, 60, 80)
    combined = make("Basic-v1", num_envs=1, use_combined_action=True)
    assert combined.single_action_space.n == 6  # {none, left, right} x {no attack, attack}
    deathmatch = envpool_lite.make_spec("Deathmatch-v1", use_combined_action=True)
    # ATTACK, SPEED, STRAFE x3 pairs x {none, weapon 1..6} x next/prev weapon; deltas at 0
    assert deathmatch.action_space.n == 2 * 2 * 2 * 3 * 3 * 3 * 7 * 3


def test_frame_stack_is_oldest_first(make):
    env = make("Basic-v1", num_envs=1, frame_skip=1, seed=1)
    obs, _ = env.reset()
    assert all((obs[0, k] == obs[0, 3]).all() for k in range(3))  # a reset fills the stack
    prev = obs.copy()
    for _ in range(5):
        obs, *_ = env.step(np.array([[0, 1, 0]], np.float32))
        np.testing.assert_array_equal(obs[0, :3], prev[0, 1:])
        assert (obs[0, 3] != obs[0, 2]).any()
        prev = obs.copy()


def test_combined_actions_decode_to_button_vectors(make):
    """Index i = d0 + 3 * d1 with d0 in {none, MOVE_LEFT, MOVE_RIGHT} (the
    cfg lists MOVE_LEFT first) and d1 in {no ATTACK, ATTACK}."""
    table = {0: [0, 0, 0], 1: [1, 0, 0], 2: [0, 1, 0], 3: [0, 0, 1], 4: [1, 0, 1], 5: [0, 1, 1]}
    a = make("Basic-v1", num_envs=1, seed=2, use_combined_action=True)
    b = make("Basic-v1", num_envs=1, seed=2)
    a.reset()
    b.reset()
    for t in range(30):
        index = [2, 2, 5, 1, 4, 3, 0][t % 7]
        oa, ra, *_ = a.step(np.array([index], np.int32))
        # Binary buttons are pressed at >= 0.5.
        ob, rb, *_ = b.step(np.array([table[index]], np.float32) * 0.7)
        np.testing.assert_array_equal(oa, ob)
        np.testing.assert_array_equal(ra, rb)


def test_reward_config_shapes_from_game_variable_deltas(make):
    """{"AMMO2": (0, -2)}: on top of the scenario's own reward, every round
    fired (AMMO2 falls by one) costs 2; the string form is the same."""
    plain = make("Basic-v1", num_envs=1, seed=6)
    shaped = make("Basic-v1", num_envs=2, seed=6, reward_config={"AMMO2": (0.0, -2.0)})
    shaped_str = make("Basic-v1", num_envs=1, seed=6, reward_config="AMMO2:0:-2")
    assert shaped.spec.config["reward_config"] == "AMMO2:0.0:-2.0"
    _, info = plain.reset()
    shaped.reset(seed=[6, 6])
    shaped_str.reset()
    last, fired = info["AMMO2"][0], 0
    for t in range(12):
        action = np.array([[t % 2, 0, 1]], np.float32)
        _, reward, term, trunc, info = plain.step(action)
        _, shaped_reward, *_ = shaped.step(np.repeat(action, 2, 0))
        _, str_reward, *_ = shaped_str.step(action)
        if term[0] or trunc[0]:
            break
        used = last - info["AMMO2"][0]
        fired += used
        assert shaped_reward[0] == pytest.approx(reward[0] - 2 * used)
        assert str_reward[0] == shaped_reward[0]
        last = info["AMMO2"][0]
    assert fired > 0


def test_option_errors():
    with pytest.raises(ValueError, match="cfg_path"):
        envpool_lite.make_spec("VizdoomCustom-v1")
    with pytest.raises(ValueError, match="unknown ViZDoom game variable 'HEALTHY'"):
        envpool_lite.make_spec("Basic-v1", game_variables="HEALTHY")
    with pytest.raises(ValueError, match="NAME:pos:neg"):
        envpool_lite.make_spec("Basic-v1", reward_config="HEALTH:1")
    with pytest.raises(ValueError, match="is not a file"):
        envpool_lite.make_spec("VizdoomCustom-v1", cfg_path="no_such.cfg")
    with pytest.raises(ValueError, match="frame_skip"):
        envpool_lite.make_spec("Basic-v1", frame_skip=0)


def test_benchmark_runs_basic_with_vizdoom_gym(clean):
    """benchmarks/fps.py measures Basic-v1 on envpool_lite and vizdoom's own
    gymnasium env (a smoke test: no speed is asserted)."""
    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("fps", root / "benchmarks" / "fps.py")
    fps = importlib.util.module_from_spec(spec)
    sys.modules["fps"] = fps  # dataclasses look their module up there
    spec.loader.exec_module(fps)
    out = clean / "fps.json"
    fps.main(["--tasks", "Basic-v1", "--configs", "2:1:1", "--steps", "60", "--repeats", "1", "--systems", "envpool_lite,vizdoom_gym", "--out", str(out), "--no-plot"])
    report = json.loads(out.read_text())
    assert {r["system"] for r in report["results"]} == {"envpool_lite", "vizdoom_gym"}
    assert all(r["steps_per_s"] > 0 and r["frames_per_s"] == 4 * r["steps_per_s"] for r in report["results"])
    assert report["single_thread_limit_steps_per_s"]["Basic-v1"] > 0
    out.unlink()
