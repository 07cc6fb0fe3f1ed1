"""ViZDoom: alignment with vizdoom's own Python API (screens, rewards and
rendered pictures), engine processes and their clean-up (close, garbage
collection, interpreter exit, a killed parent, a killed or hung engine),
determinism and seeding, every task, options (the cfg's screen format,
EnvPool's reward, combined-action options).

Engine processes are found as this process's descendants whose executable is
the vizdoom wheel's engine; /dev/shm is checked for ViZDoom's names
(ViZDoomSM*, ViZDoomMQ*) and the temporary directory for the envs' private
directories, telling ours from those of other processes on the machine (a
second pytest worker, another suite) by who holds them: an engine maps its
instance's names, a private directory names its owner's pid. Tests that need
a clean slate run in a fresh working directory.
"""

import gc
import glob
import importlib.util
import json
import os
import re
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
import scope

import envpool_lite

TASKS = [
    "Basic-v1",
    "BasicAudio-v1",
    "BasicNotifications-v1",
    "Cig-v1",
    "DeadlyCorridor-v1",
    "DefendTheCenter-v1",
    "DefendTheLine-v1",
    "HealthGathering-v1",
    "HealthGatheringSupreme-v1",
    "MultiDuel-v1",
    "MyWayHome-v1",
    "PredictPosition-v1",
    "TakeCover-v1",
    "Deathmatch-v1",
    "RocketBasic-v1",
    "SimplerBasic-v1",
    "D1Basic-v1",  # EnvPool's maps, from the envpool-assets package
    "D2Navigation-v1",
    "D3Battle-v1",
    "D4Battle2-v1",
    "VizdoomCustom-v1",
]
# Their cfgs say screen_format = GRAY8.
GRAY_TASKS = {"RocketBasic-v1", "SimplerBasic-v1", "D1Basic-v1", "D2Navigation-v1", "D3Battle-v1", "D4Battle2-v1"}

pytestmark = [
    pytest.mark.skipif("Basic-v1" not in envpool_lite.list_all_envs(), reason="built without ViZDoom (Boost missing)"),
    pytest.mark.skipif(importlib.util.find_spec("vizdoom") is None, reason="the vizdoom package is not installed"),
]


def scenario(name):
    from envpool_lite.families import vizdoom as glue

    return os.path.join(glue.scenarios_dir(), name)


def engines(pid=None):
    """The engine processes below this process (or below pid)."""
    return [p for p in psutil.Process(pid).children(recursive=True) if _is_engine(p)]


def every_engine():
    """Every engine process on the machine (another process's pools too: a
    second pytest worker, another suite)."""
    return [p for p in psutil.process_iter() if _is_engine(p)]


def _is_engine(p):
    try:
        return p.exe().endswith(os.path.join("vizdoom", "vizdoom")) and p.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


# ViZDoom's /dev/shm names: its shared memory and two message queues per
# engine, each named for the engine's instance id.
SHM_NAME = re.compile(r"ViZDoom(?:SM|MQCtr|MQDoom)(\w+)")


def shm_names(exclude=()):
    return sorted(n for n in os.listdir("/dev/shm") if n.startswith("ViZDoom") and n not in exclude)


def held_ids(processes):
    """The instance ids whose /dev/shm names these processes map (an engine
    maps its shared memory and message queues while it lives)."""
    ids = set()
    for p in processes:
        try:
            ids.update(SHM_NAME.findall(Path(f"/proc/{p.pid}/maps").read_text()))
        except OSError:
            pass
    return ids


def our_shm_names():
    """The /dev/shm names of this process's live engines."""
    ids = held_ids(engines())
    return {n for n in shm_names() if SHM_NAME.fullmatch(n) and SHM_NAME.fullmatch(n).group(1) in ids}


def orphaned_shm_names(before):
    """The names new since `before` that no live engine on the machine holds:
    what a closed pool left behind. Another process's live engines hold
    theirs (and a starting engine maps its names within moments)."""
    ids = held_ids(every_engine())
    return {n for n in shm_names(before) if not (SHM_NAME.fullmatch(n) and SHM_NAME.fullmatch(n).group(1) in ids)}


def private_dirs():
    return glob.glob(os.path.join(tempfile.gettempdir(), "envpool_lite_vizdoom_*"))


def orphaned_dirs(before):
    """The envs' private directories new since `before` whose owner (the pid
    the env writes into the directory) is this process or no longer alive:
    another live process's envs own theirs."""
    left = set()
    for d in set(private_dirs()) - set(before):
        try:
            owner = int(Path(d, "owner").read_text())
        except (OSError, ValueError):
            continue  # being made or removed right now
        if owner == os.getpid() or not psutil.pid_exists(owner):
            left.add(d)
    return left


def wait_until(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


@pytest.fixture
def clean(tmp_path, monkeypatch):
    """A fresh working directory; afterwards nothing of ours is left. Other
    processes on the machine (a second pytest worker, another suite) may
    make and close ViZDoom envs meanwhile: only what no live engine or
    process owns counts."""
    monkeypatch.chdir(tmp_path)
    gc.collect()
    before_shm, before_dirs = set(shm_names()), set(private_dirs())
    yield tmp_path
    gc.collect()
    assert wait_until(lambda: not engines()), "engine processes left"
    assert wait_until(lambda: not orphaned_shm_names(before_shm)), f"/dev/shm left: {orphaned_shm_names(before_shm)}"
    assert wait_until(lambda: not orphaned_dirs(before_dirs)), f"private directories left: {orphaned_dirs(before_dirs)}"
    assert not [n for n in os.listdir(tmp_path) if n.startswith("_vizdoom")], "files in the working directory"


def zeros(env):
    space = env.single_action_space
    if hasattr(space, "n"):
        return np.zeros(env.num_envs, np.int32)
    return np.zeros((env.num_envs, *space.shape), np.float32)


# --- alignment with vizdoom's DoomGame ---------------------------------------
def reference_game(cfg, seed, screen_format="CRCGCB", episode_timeout=None):
    """vizdoom's own DoomGame on a standard scenario, headless (the caller
    closes it; run it in a scratch working directory: it writes _vizdoom
    files there)."""
    import vizdoom as vzd

    game = vzd.DoomGame()
    game.load_config(scenario(cfg))
    game.set_window_visible(False)
    game.set_sound_enabled(False)
    game.set_mode(vzd.Mode.PLAYER)
    game.set_screen_format(getattr(vzd.ScreenFormat, screen_format))
    if episode_timeout is not None:
        game.set_episode_timeout(episode_timeout)
    game.set_seed(seed)
    game.init()
    return game


@pytest.mark.parametrize("gray_scale,frame_skip", [(False, 1), (True, 1), (False, 4)])
def test_alignment_with_vizdoom_python_api(make, tmp_path, monkeypatch, gray_scale, frame_skip):
    """Same cfg, seed and actions as vizdoom.DoomGame at the screen's own
    resolution, one frame: equal screens and rewards at every step, across
    episode ends (the reference starts a new episode where the pool
    auto-resets)."""
    monkeypatch.chdir(tmp_path)  # the reference writes its _vizdoom files here
    seed = 123
    game = reference_game("basic.cfg", seed, "GRAY8" if gray_scale else "CRCGCB")
    try:
        height, width = game.get_screen_height(), game.get_screen_width()
        timeout = game.get_episode_timeout()
        env = make("Basic-v1", num_envs=1, seed=seed, frame_skip=frame_skip, stack_num=1, img_height=height, img_width=width, gray_scale=gray_scale, max_episode_steps=-(-timeout // frame_skip))
        obs, _ = env.reset()
        shape = obs.shape[1:]
        np.testing.assert_array_equal(obs[0], game.get_state().screen_buffer.reshape(shape))
        rng = np.random.default_rng(0)
        # Mostly shooting and strafing toward the monster, so episodes end both ways.
        steps = scope.steps(900, full=4000) if frame_skip == 1 else scope.steps(300, full=1300)
        actions = (rng.random((max(steps, 900), 3)) < [0.3, 0.3, 0.6]).astype(np.float32)
        endings = {"terminated": 0, "truncated": 0}
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
    full = make("Basic-v1", num_envs=1, seed=3, stack_num=1, img_height=240, img_width=320, gray_scale=True)
    small = make("Basic-v1", num_envs=1, seed=3, stack_num=1, gray_scale=True)
    a, _ = full.reset()
    b, _ = small.reset()
    for _ in range(3):
        ref = cv2.resize(a[0, 0], (84, 84), interpolation=cv2.INTER_AREA)
        diff = np.abs(ref.astype(int) - b[0, 0].astype(int))
        assert diff.max() <= 1 and diff.mean() < 0.05
        a = full.step(np.ones((1, 3), np.float32))[0]
        b = small.step(np.ones((1, 3), np.float32))[0]


# --- rendering -----------------------------------------------------------------
@pytest.mark.parametrize("gray_scale", [False, True], ids=["rgb", "gray"])
def test_render_is_the_engines_screen(make, tmp_path, monkeypatch, gray_scale):
    """render() is the engine's screen at the cfg's resolution, RGB (a GRAY8
    screen in all three channels), exactly as vizdoom.DoomGame shows it for
    the same cfg, seed and actions; the same twice; after an episode's last
    step, the last screen; before the first reset, black."""
    monkeypatch.chdir(tmp_path)
    seed = 77
    game = reference_game("basic.cfg", seed, "GRAY8" if gray_scale else "CRCGCB", episode_timeout=0)

    def picture():
        screen = game.get_state().screen_buffer
        return np.repeat(screen[:, :, None], 3, 2) if gray_scale else screen.transpose(1, 2, 0)

    try:
        env = make("Basic-v1", num_envs=1, seed=seed, gray_scale=gray_scale, render_mode="rgb_array", max_episode_steps=1000)
        assert env.spec.render_shape == (240, 320)
        black = env.render()
        assert black.shape == (1, 240, 320, 3) and black.dtype == np.uint8 and not black.any()
        env.reset()
        rng = np.random.default_rng(0)
        actions = (rng.random((80, 3)) < [0.3, 0.3, 0.6]).astype(np.float32)
        expected, ended = picture(), 0
        for t in range(80):
            frame = env.render(env_ids=[0])
            assert frame.shape == (1, 240, 320, 3) and frame.dtype == np.uint8
            np.testing.assert_array_equal(frame[0], expected, err_msg=f"step {t}")
            np.testing.assert_array_equal(env.render(env_ids=[0]), frame)
            if game.is_episode_finished():
                game.new_episode()  # where the pool auto-resets
            else:
                game.make_action(actions[t].tolist(), 4)
            env.step(actions[t : t + 1])
            if game.is_episode_finished():
                ended += 1  # no new screen: the last one stays
            else:
                expected = picture()
        assert ended >= 2
    finally:
        game.close()


def test_render_batches(make):
    """render(env_ids) stacks the envs' pictures in the order asked; every
    env draws its own game."""
    env = make("Basic-v1", num_envs=3, seed=5, render_mode="rgb_array")
    env.reset()
    for _ in range(3):
        env.step(np.tile([[1, 0, 0]], (3, 1)).astype(np.float32))
    pair = env.render(env_ids=[2, 0])
    assert pair.shape == (2, 240, 320, 3) and pair.dtype == np.uint8
    np.testing.assert_array_equal(pair[0], env.render(env_ids=2)[0])
    np.testing.assert_array_equal(pair[1], env.render(env_ids=[0])[0])
    np.testing.assert_array_equal(np.asarray(env.render()), env.render(env_ids=[0, 1, 2]))
    assert (pair[0] != pair[1]).any()  # env i is seeded seed + i: Basic's monster stands elsewhere
    assert not np.array_equal(pair[1][..., 0], pair[1][..., 1])  # colour


def test_gray8_is_a_function_of_the_rgb_screen(tmp_path, monkeypatch):
    """The engine computes a GRAY8 pixel from the colour its RGB formats show
    as the byte 0.21 R + 0.72 G + 0.07 B in double (viz_buffers.cpp): gray
    renders could be derived from an RGB engine exactly (vizdoom_env.h says
    why gray envs keep GRAY8)."""
    monkeypatch.chdir(tmp_path)
    rgb_game = reference_game("deadly_corridor.cfg", 4)
    gray_game = reference_game("deadly_corridor.cfg", 4, "GRAY8")
    try:
        rng = np.random.default_rng(0)
        for t in range(40):  # noqa: B007 (read after the loop)
            if rgb_game.is_episode_finished():
                break
            r, g, b = rgb_game.get_state().screen_buffer.astype(np.float64)
            np.testing.assert_array_equal(((0.21 * r + 0.72 * g) + 0.07 * b).astype(np.uint8), gray_game.get_state().screen_buffer)
            action = (rng.random(rgb_game.get_available_buttons_size()) < 0.4).astype(float).tolist()
            rgb_game.make_action(action, 4)
            gray_game.make_action(action, 4)
        assert t > 20
    finally:
        rgb_game.close()
        gray_game.close()


# --- engine processes and clean-up ---------------------------------------------
def test_one_engine_per_env_and_close_reaps_everything(clean):
    env = envpool_lite.make("Basic-v1", num_envs=3, seed=0)
    env.reset()
    env.step(zeros(env))
    assert len(engines()) == 3
    names = our_shm_names()
    assert len(names) == 9  # each engine: shared memory, two message queues
    env.close()
    assert not engines()
    assert not names & set(shm_names())


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
    env = envpool_lite.make("Basic-v1", num_envs=12, num_threads=12, seed=0)
    env.reset()
    env.step(zeros(env))
    names = our_shm_names()
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
def test_tasks_are_every_vizdoom_id_and_envpools():
    """TASKS is every ViZDoom id, and EnvPool 1.x's 21: a task per cfg with
    its wad in EnvPool's maps folder (the vizdoom scenarios and D1-D4), and
    the custom one."""
    assert set(TASKS) == set(envpool_lite.families.task_ids("vizdoom"))
    assert len(TASKS) == 21


def test_envpool_maps_need_envpool_assets(monkeypatch):
    from envpool_lite.families import vizdoom as glue

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "envpool_assets" else real(name, *a))
    with pytest.raises(ImportError, match=re.escape("needs envpool-assets, which is not installed: pip install 'envpool_lite[vizdoom,vizdoom-maps]'")):
        envpool_lite.make("D1Basic-v1")
    assert glue.scenario_cfg("Basic-v1", "basic").endswith("basic.cfg")  # the others need nothing more


@pytest.mark.parametrize("task", TASKS)
def test_every_task_makes_and_steps(clean, task):
    """Every task makes, resets, steps (async), and closes leaving no engine
    (Cig-v1 and MultiDuel-v1, whose maps have deathmatch starts only, host
    a one-player deathmatch)."""
    kwargs = {}
    if task == "VizdoomCustom-v1":
        kwargs = {"cfg_path": scenario("defend_the_center.cfg"), "wad_path": scenario("defend_the_center.wad")}
    combined = TASKS.index(task) % 2 == 1
    env = envpool_lite.make(task, num_envs=2, batch_size=1, num_threads=2, use_combined_action=combined, **kwargs)
    channels = 1 if task in GRAY_TASKS else 3
    assert env.single_observation_space.shape == (4 * channels, 84, 84)
    assert env.spec.config.gray_scale == (channels == 1)
    assert hasattr(env.single_action_space, "n") == combined
    rng = np.random.default_rng(0)
    env.async_reset()
    for _ in range(6):
        obs, reward, term, trunc, info = env.recv()
        assert obs.shape == (1, 4 * channels, 84, 84) and obs.dtype == np.uint8 and np.isfinite(reward).all()
        space = env.single_action_space
        action = rng.integers(0, space.n, 1).astype(np.int32) if combined else (rng.random((1, *space.shape)) < 0.5).astype(np.float32)
        env.send(action, info["env_id"])
    env.recv()
    assert len(engines()) == 2
    env.close()
    assert not engines()


def test_deathmatch_only_maps_need_a_deathmatch(clean):
    """cig.wad has no single-player start: without Cig-v1's default
    game_args the engine refuses, and the error says what to do."""
    assert envpool_lite.make_spec("Cig-v1").config.game_args.startswith("-host 1 -deathmatch")
    with pytest.raises(RuntimeError, match=r"No player 1 start .*game_args=\"-host 1 -deathmatch\""):
        envpool_lite.make("VizdoomCustom-v1", cfg_path=scenario("cig.cfg"))


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
    env = make("Basic-v1", num_envs=1, game_variables="HEALTH, KILLCOUNT", gray_scale=True)
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
    env = make("Basic-v1", num_envs=1, frame_skip=1, seed=1, gray_scale=True)
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
    # Both forms reach the env as the same typed table.
    assert shaped.spec.config["reward_config"] == shaped_str.spec.config["reward_config"] == {"AMMO2": (0.0, -2.0)}
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


def test_channels_follow_the_cfg(tmp_path):
    """gray_scale's default is the cfg's screen_format (EnvPool's: GRAY8 is
    one channel, anything else or nothing RGB, each frame's R, G, B planes
    consecutive); True or False forces it; config says what is used."""
    spec = envpool_lite.make_spec
    assert spec("Basic-v1").observation_space.shape == (12, 84, 84) and spec("Basic-v1").config.gray_scale is False
    assert spec("SimplerBasic-v1").observation_space.shape == (4, 84, 84) and spec("SimplerBasic-v1").config.gray_scale is True
    assert spec("RocketBasic-v1").config.gray_scale is True
    assert spec("Basic-v1", gray_scale=True).observation_space.shape == (4, 84, 84)
    assert spec("SimplerBasic-v1", gray_scale=False).observation_space.shape == (12, 84, 84)
    assert spec("SimplerBasic-v1", gray_scale=None).config.gray_scale is True  # None: the cfg's
    assert spec("Basic-v1").render_shape == (240, 320)
    # A custom cfg, read as ViZDoom reads it (case-insensitive, # comments, last value wins).
    cfg = tmp_path / "custom.cfg"
    body = Path(scenario("basic.cfg")).read_text()
    for text, gray in [("Screen_Format = gray8", True), ("# screen_format = GRAY8", False), ("screen_format = GRAY8\nscreenformat=RGB24", False), ("screen_format = DOOM_256_COLORS8", True)]:
        cfg.write_text(body + "\n" + text + "\n")
        custom = spec("VizdoomCustom-v1", cfg_path=str(cfg), wad_path=scenario("basic.wad"))
        assert custom.config.gray_scale is gray, text
        assert custom.observation_space.shape[0] == (4 if gray else 12)
    with pytest.raises(TypeError, match="gray_scale"):
        spec("Basic-v1", gray_scale=1)


# EnvPool 1.2.5's default reward tables (envpool/vizdoom/vizdoom_env.h).
ENVPOOL_REWARD_CONFIG = {
    "FRAGCOUNT": (1, -1.5),
    "KILLCOUNT": (1, 0),
    "DEATHCOUNT": (-0.75, 0.75),
    "HITCOUNT": (0.01, -0.01),
    "DAMAGECOUNT": (0.003, -0.003),
    "HEALTH": (0.005, -0.003),
    "ARMOR": (0.005, -0.001),
    **{f"WEAPON{i}": w for i, w in enumerate([(0.02, -0.01)] * 3 + [(0.1, -0.05)] * 3 + [(0.2, -0.1)] * 2)},
    **{f"AMMO{i}": w for i, w in enumerate([(0.0002, -0.0001)] * 3 + [(0.001, -0.0005)] * 3 + [(0.002, -0.001)] * 2)},
}
ENVPOOL_WEAPON_REWARD = {0: 0.0002, 1: 0.0002, 2: 0.0002, 3: 0.001, 4: 0.001, 5: 0.001, 6: 0.002, 7: 0.002}
ENVPOOL_VARIABLES = [
    "AMMO2",
    "AMMO3",
    "AMMO4",
    "AMMO5",
    "AMMO6",
    "AMMO7",
    "ARMOR",
    "DAMAGECOUNT",
    "DEATHCOUNT",
    "FRAGCOUNT",
    "HEALTH",
    "HITCOUNT",
    "KILLCOUNT",
    "SELECTED_WEAPON",
    "SELECTED_WEAPON_AMMO",
    "USER2",
]


def envpool_reward(names, prev, cur, weapon, duration=5):
    """EnvPool's reward for one step from the game variables before and
    after it (its GetState, re-written): float32 weights and terms summed in
    float32 in the variables' order, DAMAGECOUNT and HITCOUNT rises capped,
    then the weapon reward once a weapon with ammo has been held `duration`
    steps (`weapon`: [slot, steps held], updated)."""
    total, slot, ammo = np.float32(0), -1, 0
    for name in names:
        delta = cur[name] - prev[name]
        if name == "DAMAGECOUNT":
            delta = min(delta, 200)
        elif name == "HITCOUNT":
            delta = min(delta, 5)
        elif name == "SELECTED_WEAPON":
            slot = int(cur[name])
        elif name == "SELECTED_WEAPON_AMMO":
            ammo = int(cur[name])
        pos, neg = (float(np.float32(w)) for w in ENVPOOL_REWARD_CONFIG.get(name, (0, 0)))
        total = np.float32(total + np.float32(delta * pos)) if delta >= 0 else np.float32(total - np.float32(delta * neg))
    weapon[:] = [slot, weapon[1] + 1] if slot == weapon[0] else [slot, 1]
    if slot >= 0 and weapon[1] >= duration and ammo > 0:
        total = np.float32(float(total) + float(np.float32(ENVPOOL_WEAPON_REWARD.get(slot, 0))))
    return total


def test_envpool_reward_mode(make):
    """reward_mode="envpool" is EnvPool's reward exactly (recomputed here
    from the game variables): its shaping only, 0 on the step that ends an
    episode; the info reports the variables EnvPool tracks."""
    env = make("DefendTheCenter-v1", num_envs=1, seed=3, use_combined_action=True, reward_mode="envpool", gray_scale=True)
    scenario_env = make("DefendTheCenter-v1", num_envs=1, seed=3, use_combined_action=True, gray_scale=True)
    names = [f["name"] for f in env.spec.info_specs]
    assert names == ["AMMO2", "HEALTH", *[n for n in ENVPOOL_VARIABLES if n not in ("AMMO2", "HEALTH")]]
    _, info = env.reset()
    scenario_env.reset()
    rng = np.random.default_rng(0)
    prev, weapon = {n: info[n][0] for n in names}, [int(info["SELECTED_WEAPON"][0]), 1]
    seen = {"terminal": 0, "kill": 0, "weapon": 0}
    for t in range(150):
        action = rng.integers(0, env.single_action_space.n, 1).astype(np.int32)
        _, reward, term, trunc, info = env.step(action)
        _, scenario_reward, *_ = scenario_env.step(action)
        cur = {n: info[n][0] for n in names}
        if info["elapsed_step"][0] == 0:  # the auto-reset after an episode's end
            prev, weapon = cur, [int(cur["SELECTED_WEAPON"]), 1]
            continue
        if term[0]:
            assert reward[0] == 0  # EnvPool has no state then
            seen["terminal"] += 1
        else:
            expected = envpool_reward(names, prev, cur, weapon)
            assert reward[0] == expected, (t, reward[0], expected)
            assert reward[0] != scenario_reward[0] or scenario_reward[0] == 0
            seen["kill"] += cur["KILLCOUNT"] > prev["KILLCOUNT"]
            seen["weapon"] += weapon[1] >= 5
        prev = cur
    assert all(seen.values()), seen


def test_selected_weapon_reward(make):
    """In scenario mode, selected_weapon_reward_config adds its reward once
    the selected weapon (Basic: the pistol, slot 2) has been held
    weapon_duration steps (the reset counts as one) while it has ammo."""
    plain = make("Basic-v1", num_envs=1, seed=1, gray_scale=True)
    shaped = make("Basic-v1", num_envs=1, seed=1, gray_scale=True, selected_weapon_reward_config={2: 0.5}, weapon_duration=3)
    assert shaped.spec.config.selected_weapon_reward_config == {2: 0.5}
    plain.reset()
    _, info = shaped.reset()
    assert info["SELECTED_WEAPON"][0] == 2 and info["SELECTED_WEAPON_AMMO"][0] > 0
    for t in range(4):
        action = np.array([[t % 2, 1 - t % 2, 0]], np.float32)
        reward = plain.step(action)[1][0]
        extra = shaped.step(action)[1][0] - reward
        assert extra == pytest.approx(0.5 if t >= 1 else 0.0), t


def test_force_speed_and_delta_buttons_resize_the_combined_actions():
    """EnvPool's relations: force_speed holds SPEED (half the actions);
    each delta_button_config entry (num, min, max) multiplies them by num;
    the float-vector action keeps one entry per button."""
    spec = envpool_lite.make_spec
    n = spec("Deathmatch-v1", use_combined_action=True).action_space.n
    assert spec("Deathmatch-v1", use_combined_action=True, force_speed=True).action_space.n * 2 == n
    one = {"LOOK_UP_DOWN_DELTA": [11, -10, 10]}
    two = {"MOVE_LEFT_RIGHT_DELTA": (11, -10.0, 10.0), **one}
    assert spec("Deathmatch-v1", use_combined_action=True, delta_button_config=one).action_space.n == 11 * n
    assert spec("Deathmatch-v1", use_combined_action=True, delta_button_config=two).action_space.n == 121 * n
    vector = spec("Deathmatch-v1", delta_button_config=two, force_speed=True)
    assert vector.action_space.shape == (20,)
    assert vector.config.delta_button_config == {"MOVE_LEFT_RIGHT_DELTA": (11, -10, 10), "LOOK_UP_DOWN_DELTA": (11, -10, 10)}
    assert spec("Basic-v1", use_combined_action=True, force_speed=True).action_space.n == 6  # no SPEED button


def test_combined_actions_with_speed_and_a_delta_button(make, tmp_path):
    """force_speed and a delta button, decoded: index i = lr + 3 * attack +
    6 * d presses {none, MOVE_LEFT, MOVE_RIGHT}, ATTACK, SPEED always, and
    sets TURN_LEFT_RIGHT_DELTA to (-10, 0, 10)[d]: the same game as those
    float vectors."""
    cfg = tmp_path / "speed_delta.cfg"
    text = Path(scenario("basic.cfg")).read_text().replace("ATTACK", "ATTACK SPEED TURN_LEFT_RIGHT_DELTA")
    cfg.write_text(text)
    paths = {"cfg_path": str(cfg), "wad_path": scenario("basic.wad")}
    combined = make("VizdoomCustom-v1", **paths, num_envs=1, seed=2, use_combined_action=True, force_speed=True, delta_button_config={"TURN_LEFT_RIGHT_DELTA": (3, -10, 10)})
    vector = make("VizdoomCustom-v1", **paths, num_envs=1, seed=2)
    assert combined.single_action_space.n == 18 and vector.single_action_space.shape == (5,)
    combined.reset()
    vector.reset()
    for t, index in enumerate([13, 13, 1, 17, 6, 2, 15, 0, 11, 5]):
        lr, attack, d = index % 3, index // 3 % 2, index // 6
        buttons = [lr == 1, lr == 2, attack, 1, (-10.0, 0.0, 10.0)[d]]
        oa, ra, *_ = combined.step(np.array([index], np.int32))
        ob, rb, *_ = vector.step(np.array([buttons], np.float32))
        np.testing.assert_array_equal(oa, ob, err_msg=str(t))
        np.testing.assert_array_equal(ra, rb)


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
    spec = envpool_lite.make_spec
    with pytest.raises(ValueError, match="reward_mode"):
        spec("Basic-v1", reward_mode="EnvPool")
    with pytest.raises(TypeError, match="reward_config"):
        spec("Basic-v1", reward_config={"HEALTH": "much"})
    with pytest.raises(ValueError, match="selected_weapon_reward_config"):
        spec("Basic-v1", selected_weapon_reward_config={12: 1.0})
    with pytest.raises(TypeError, match="selected_weapon_reward_config"):
        spec("Basic-v1", selected_weapon_reward_config={"pistol": 1.0})
    with pytest.raises(ValueError, match="weapon_duration"):
        spec("Basic-v1", weapon_duration=-1)
    with pytest.raises(TypeError, match="weapon_duration"):
        spec("Basic-v1", weapon_duration=2.5)
    with pytest.raises(TypeError, match="force_speed"):
        spec("Basic-v1", force_speed=1)
    with pytest.raises(ValueError, match="delta_button_config: 'LOOK_UP' is not a delta button"):
        spec("Deathmatch-v1", delta_button_config={"LOOK_UP": (3, -1, 1)})
    with pytest.raises(ValueError, match="delta_button_config: the scenario has no LOOK_UP_DOWN_DELTA"):
        spec("Basic-v1", delta_button_config={"LOOK_UP_DOWN_DELTA": (3, -1, 1)})
    with pytest.raises(ValueError, match="delta_button_config: LOOK_UP_DOWN_DELTA's num must be >= 1"):
        spec("Deathmatch-v1", delta_button_config={"LOOK_UP_DOWN_DELTA": (0, -1, 1)})
    with pytest.raises(ValueError, match="delta_button_config entry"):
        spec("Deathmatch-v1", delta_button_config="LOOK_UP_DOWN_DELTA:3:-1")
    with pytest.raises(TypeError, match="delta_button_config"):
        spec("Deathmatch-v1", delta_button_config={"LOOK_UP_DOWN_DELTA": (2.5, -1, 1)})
    with pytest.raises(TypeError, match="delta_button_config"):
        spec("Deathmatch-v1", delta_button_config=[("LOOK_UP_DOWN_DELTA", 3, -1, 1)])
    with pytest.raises(TypeError, match="game_variables"):
        spec("Basic-v1", game_variables=["HEALTH", 3])
    with pytest.raises(ValueError, match="selected_weapon_reward_config"):
        spec("Basic-v1", selected_weapon_reward_config="pistol:1")


def test_table_options_reach_the_env_typed():
    """The table options' forms (EnvPool's dicts, the string forms) become one
    typed value each, and reward_mode="envpool" fills in EnvPool's tables only
    where none is given ("none" or {} is an empty table)."""
    from envpool_lite.families import vizdoom as glue

    spec = envpool_lite.make_spec
    assert spec("Basic-v1", game_variables="HEALTH, KILLCOUNT").config["game_variables"] == ("HEALTH", "KILLCOUNT")
    assert spec("Basic-v1", game_variables=["HEALTH"]).config["game_variables"] == ("HEALTH",)
    assert spec("Basic-v1", reward_config={"HEALTH": 0.5}).config["reward_config"] == {"HEALTH": (0.5, -0.5)}
    assert spec("Basic-v1", selected_weapon_reward_config="3:0.001,4:0.5").config["selected_weapon_reward_config"] == {3: 0.001, 4: 0.5}
    deltas = spec("Deathmatch-v1", delta_button_config="LOOK_UP_DOWN_DELTA:11:-10:10").config["delta_button_config"]
    assert deltas == spec("Deathmatch-v1", delta_button_config={"LOOK_UP_DOWN_DELTA": (11, -10, 10)}).config["delta_button_config"] == {"LOOK_UP_DOWN_DELTA": (11.0, -10.0, 10.0)}
    envpool = spec("Basic-v1", reward_mode="envpool").config
    assert envpool["reward_config"] == glue.ENVPOOL_REWARD_CONFIG
    assert envpool["selected_weapon_reward_config"] == glue.ENVPOOL_WEAPON_REWARD
    for empty in ("none", {}):
        assert spec("Basic-v1", reward_mode="envpool", reward_config=empty).config["reward_config"] == {}
    assert spec("Basic-v1", reward_mode="envpool", reward_config="").config["reward_config"] == glue.ENVPOOL_REWARD_CONFIG
    assert spec("Basic-v1").config["reward_config"] == {}


def test_benchmark_runs_basic_with_vizdoom_gym(clean):
    """benchmarks/fps.py measures Basic-v1 on envpool_lite and vizdoom's own
    gymnasium env (a smoke test: no speed is asserted)."""
    root = Path(__file__).resolve().parents[2]
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
