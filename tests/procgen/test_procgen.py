"""Procgen: exact against procgen 0.10.7's own ProcgenGym3Env, under the
seed convention (env i of a pool seeded s behaves as
ProcgenGym3Env(num=1, env_name=..., rand_seed=s + i, ...) with the same
options).

The reference is the official procgen 0.10.7 wheel (its Python code over its
own copy of libenv.so), installed by scripts/setup_compat.sh into
build/compat/procgen_oracle (make test runs it). It is imported in this
process: procgen/env.py only, without procgen/__init__.py, whose gym
registration needs gym.

At every step of every env the test compares the frame, the reward, done
(procgen's `first` flag) and the three info fields, through episode ends and
auto-resets. procgen starts the next level inside the step that ends an
episode; the pool shows the frame before that step at the episode's end (as
procgen's gym interface, gym3's ToGymEnv) and the next level's first frame at
the reset (the NEXT_STEP reset step, or the same step under SAME_STEP). A
reset in the middle of an episode is procgen's forced reset, act(-1).
"""

from __future__ import annotations

import os
import sys
import types

import numpy as np
import pytest
import scope
from libcompat import COMPAT

import envpool_lite
from envpool_lite.families import procgen as procgen_family

ORACLE = COMPAT / "procgen_oracle"

# EnvPool's registration (envpool/procgen/registration.py): each game's
# timeout and its distribution modes.
GAMES = {
    "bigfish": (6000, [0, 1]),
    "bossfight": (4000, [0, 1]),
    "caveflyer": (1000, [0, 1, 10, 20]),
    "chaser": (1000, [0, 1, 2]),
    "climber": (1000, [0, 1, 20]),
    "coinrun": (1000, [0, 1, 20]),
    "dodgeball": (1000, [0, 1, 2, 10]),
    "fruitbot": (1000, [0, 1]),
    "heist": (1000, [0, 1, 10, 20]),
    "jumper": (1000, [0, 1, 10, 20]),
    "leaper": (500, [0, 1, 2, 20]),
    "maze": (500, [0, 1, 10, 20]),
    "miner": (1000, [0, 1, 10]),
    "ninja": (1000, [0, 1, 20]),
    "plunder": (4000, [0, 1]),
    "starpilot": (1000, [0, 1, 2]),
}
# Jumper's memory levels last 2000 steps (procgen's own, measured: the
# no-op action, every game and mode whose levels can time out).
MODE_TIMEOUTS = {("jumper", 10): 2000}


def timeout_of(game, mode):
    """A level's timeout in a mode, as procgen times it out."""
    return MODE_TIMEOUTS.get((game, mode), GAMES[game][0])


MODE_NAMES = {0: "easy", 1: "hard", 2: "extreme", 10: "memory", 20: "exploration"}
TASKS = {f"{g.capitalize()}{MODE_NAMES[m].capitalize()}-v0": (g, m) for g, (_, modes) in GAMES.items() for m in modes}
RIGHT, RIGHT_UP = 7, 8  # procgen's combos: ("RIGHT",), ("RIGHT", "UP")


@pytest.fixture(scope="module")
def ProcgenGym3Env():
    """procgen's own ProcgenGym3Env (the reference), from build/compat."""
    if not (ORACLE / "procgen" / "env.py").is_file():
        message = f"procgen's reference is not installed in {ORACLE} (run: bash scripts/setup_compat.sh)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    if "procgen" not in sys.modules:
        sys.path.append(str(ORACLE))  # gym3, cffi
        package = types.ModuleType("procgen")
        package.__path__ = [str(ORACLE / "procgen")]
        sys.modules["procgen"] = package
    from procgen.env import ProcgenGym3Env

    return ProcgenGym3Env


class Ref:
    """One env of the reference, stepped as the pool's env is: step() shows
    the frame before the step when the step ends an episode; reset() shows
    the next level, forcing one (procgen's action -1) mid-episode."""

    def __init__(self, cls, game, mode, seed, render=False, **options):
        kwargs = dict(options)
        if "use_easy_jump" in kwargs:  # not a ProcgenGym3Env argument: libenv's option
            from procgen.env import DISTRIBUTION_MODE_DICT, BaseProcgenEnv

            opts = {k: kwargs.pop(k) for k in ("center_agent", "use_backgrounds", "use_monochrome_assets", "restrict_themes", "use_generated_assets", "paint_vel_info", "use_easy_jump") if k in kwargs}
            opts = {"center_agent": True, "use_backgrounds": True, "use_monochrome_assets": False, "restrict_themes": False, "use_generated_assets": False, "paint_vel_info": False, **opts}
            opts["distribution_mode"] = DISTRIBUTION_MODE_DICT[MODE_NAMES[mode]]
            self.env = BaseProcgenEnv(1, game, opts, rand_seed=seed, num_threads=0, **kwargs)
        else:
            self.env = cls(num=1, env_name=game, rand_seed=seed, num_threads=0, distribution_mode=MODE_NAMES[mode], render_mode="rgb_array" if render else None, **kwargs)
        self.render = render
        self.pending = True  # the first level is on show at the first reset
        self.shown = self.frame()

    def frame(self):
        reward, ob, first = self.env.observe()
        info = self.env.get_info()[0]
        return {
            "obs": ob["rgb"][0].copy(),
            "reward": float(reward[0]),
            "first": bool(first[0]),
            "level_seed": int(info["level_seed"]),
            "prev_level_seed": int(info["prev_level_seed"]),
            "prev_level_complete": int(info["prev_level_complete"]),
            "rgb": info["rgb"].copy() if self.render else None,
        }

    def reset(self):
        if not self.pending:
            self.env.act(np.array([-1], dtype=np.int32))
        self.pending = False
        self.shown = self.frame()
        return {**self.shown, "reward": 0.0}

    def step(self, action):
        before = self.shown
        self.env.act(np.array([action], dtype=np.int32))
        now = self.frame()
        if now["first"]:
            self.pending = True
            self.shown = {**now, "obs": before["obs"], "rgb": before["rgb"]}
        else:
            self.shown = now
        return self.shown


class Policy:
    """Random actions, leaning right (so that platformers finish levels)."""

    def __init__(self, seed, right=0.5):
        self.rng = np.random.default_rng(seed)
        self.right = right

    def __call__(self, n):
        actions = self.rng.integers(0, 15, n).astype(np.int32)
        lean = self.rng.random(n) < self.right
        actions[lean] = self.rng.choice([RIGHT, RIGHT_UP], int(lean.sum()))
        return actions


def check_row(got_obs, got_info, i, row, want, channel_first=False):
    obs = got_obs[row]
    if channel_first:
        obs = obs.transpose(1, 2, 0)
    assert np.array_equal(obs, want["obs"]), f"env {i}: frame differs"
    for key in ("level_seed", "prev_level_seed", "prev_level_complete"):
        assert got_info[key][row] == want[key], f"env {i}: {key} {got_info[key][row]} != {want[key]}"


def run(cls, task, *, num_envs=2, batch_size=None, steps=200, seed=11, policy=None, render=False, same_step=False, max_episode_steps=None, **options):
    """Step a pool of `task` beside one reference env per env and compare
    every field at every step (steps: batches received); returns counts of
    how episodes ended. batch_size < num_envs: async, send/recv."""
    game, mode = TASKS[task]
    timeout = timeout_of(game, mode)
    kwargs = dict(options)
    if max_episode_steps is not None:
        kwargs["max_episode_steps"] = max_episode_steps
    if same_step:
        import gymnasium

        kwargs["autoreset_mode"] = gymnasium.vector.AutoresetMode.SAME_STEP
    channel_first = bool(kwargs.get("channel_first"))
    ref_options = {k: v for k, v in options.items() if k not in ("channel_first", "num_threads")}
    refs = [Ref(cls, game, mode, seed + i, render=render, **ref_options) for i in range(num_envs)]
    env = envpool_lite.make_gymnasium(task, num_envs=num_envs, batch_size=batch_size or num_envs, seed=seed, render_mode="rgb_array" if render else None, **kwargs)
    policy = policy or Policy(seed)
    stats = dict.fromkeys(("completed", "lost", "timeout", "limit", "next_level", "steps"), 0)
    needs_reset = np.zeros(num_envs, bool)
    elapsed = np.zeros(num_envs, int)
    actions = policy(num_envs)
    try:
        if batch_size:  # the resets come back in batches, as steps do
            env.async_reset()
            needs_reset[:] = True
        else:
            obs, info = env.reset()
            for i in range(num_envs):
                check_row(obs, info, i, i, refs[i].reset(), channel_first)
        for _ in range(steps):
            if batch_size:
                obs, rew, term, trunc, info = env.recv()
            else:
                actions = policy(num_envs)
                obs, rew, term, trunc, info = env.step(actions)
            ids = info["env_id"]
            for row, i in enumerate(ids):
                if needs_reset[i]:
                    want = refs[i].reset()
                    elapsed[i] = 0
                    assert not term[row] and not trunc[row] and rew[row] == 0
                else:
                    want = refs[i].step(int(actions[i]))
                    elapsed[i] += 1
                    stats["steps"] += 1
                    assert rew[row] == want["reward"], f"env {i}: reward {rew[row]} != {want['reward']}"
                    ended = bool(term[row] or trunc[row])
                    if want["first"]:
                        assert ended, f"env {i}: procgen ended the episode, the pool did not"
                        complete = want["prev_level_complete"] == 1
                        if trunc[row]:  # the level's own timeout
                            assert not complete and elapsed[i] == timeout, (elapsed[i], timeout)
                            stats["timeout"] += 1
                        else:
                            stats["completed" if complete else "lost"] += 1
                    elif ended:  # only the pool's max_episode_steps ends it
                        assert trunc[row] and not term[row] and elapsed[i] == max_episode_steps, (elapsed[i], max_episode_steps)
                        stats["limit"] += 1
                    elif want["prev_level_complete"]:
                        stats["next_level"] += 1  # use_sequential_levels
                    if same_step and ended:
                        final = info["final_obs"][row]
                        assert np.array_equal(final.transpose(1, 2, 0) if channel_first else final, want["obs"]), f"env {i}: final_obs differs"
                        want = refs[i].reset()
                        elapsed[i] = 0
                check_row(obs, info, i, row, want, channel_first)
                if render:
                    frame = env.render(np.array([i]))[0]
                    assert np.array_equal(frame, refs[i].shown["rgb"]), f"env {i}: render() differs"
            if not same_step:
                needs_reset[ids] = term | trunc
            if batch_size:
                actions[ids] = policy(len(ids))
                env.send(actions[ids], ids)
    finally:
        env.close()
    return stats


def test_task_ids():
    """The 50 ids EnvPool registers, with each game's timeout in its mode as
    max_episode_steps, procgen's observation and its 15 actions."""
    assert sorted(envpool_lite.families.task_ids("procgen")) == sorted(TASKS)
    for task, (game, mode) in TASKS.items():
        spec = envpool_lite.make_spec(task)
        assert spec.config["max_episode_steps"] == timeout_of(game, mode)
        assert spec.config["distribution_mode"] == mode
        assert spec.observation_space.shape == (64, 64, 3) and spec.observation_space.dtype == np.uint8
        assert spec.action_space.n == 15


@pytest.mark.parametrize("task", sorted(TASKS))
def test_every_task_exact(ProcgenGym3Env, task):
    """Every id, 2 envs for 300 steps each: frames, rewards, dones and info
    equal to procgen's, through the episode ends that come."""
    run(ProcgenGym3Env, task, steps=scope.steps(300, full=2000))


def test_endings(ProcgenGym3Env):
    """Level completions, losses and the game's own timeouts, each seen and
    exact (truncated exactly at the timeout, terminated otherwise)."""
    stats = run(ProcgenGym3Env, "CoinrunEasy-v0", num_envs=3, steps=700, policy=Policy(3, right=0.8))
    assert stats["completed"] >= 2 and stats["lost"] >= 2, stats
    stats = run(ProcgenGym3Env, "LeaperHard-v0", num_envs=2, steps=100, policy=Policy(4, right=0.0))
    assert stats["lost"] >= 1, stats
    # Standing still in a maze: the level times out at 500 steps.
    stats = run(ProcgenGym3Env, "MazeHard-v0", num_envs=2, steps=1010, policy=lambda n: np.full(n, 4, np.int32))
    assert stats["timeout"] == 4, stats
    # Jumper's memory levels time out at 2000 steps, not the game's 1000:
    # the pool's default limit must not end them first.
    stats = run(ProcgenGym3Env, "JumperMemory-v0", num_envs=1, steps=2002, policy=lambda n: np.full(n, 4, np.int32))
    assert stats["timeout"] == 1 and stats["steps"] == 2001, stats


def test_sequential_levels(ProcgenGym3Env):
    """use_sequential_levels: a completed level goes on to the next (seed +
    997) in the same episode, with procgen's per-level timeout."""
    stats = run(ProcgenGym3Env, "CoinrunEasy-v0", num_envs=3, steps=700, policy=Policy(5, right=0.8), use_sequential_levels=True)
    assert stats["next_level"] >= 2 and stats["lost"] >= 1, stats
    assert envpool_lite.make_spec("CoinrunEasy-v0", use_sequential_levels=True).max_episode_steps == 0


@pytest.mark.parametrize(
    "options",
    [
        {"num_levels": 3, "start_level": 5},
        {"num_levels": 1, "start_level": 2**31 - 2},
        {"use_backgrounds": False, "restrict_themes": True},
        {"use_monochrome_assets": True, "center_agent": False},
        {"use_generated_assets": True, "paint_vel_info": True},
        {"use_easy_jump": True},
        {"channel_first": True},
    ],
    ids=lambda o: ",".join(o),
)
def test_options(ProcgenGym3Env, options):
    """procgen's options reach the game as ProcgenGym3Env passes them."""
    run(ProcgenGym3Env, "CoinrunHard-v0", steps=150, policy=Policy(6, right=0.8), **options)
    run(ProcgenGym3Env, "StarpilotEasy-v0", steps=100, **options)


def test_options_change_frames():
    """Each drawing option changes the first frame (so that test_options
    compares what the option does, not the default twice)."""

    def first(**options):
        env = envpool_lite.make_gymnasium("CoinrunHard-v0", num_envs=1, seed=1, **options)
        obs = env.reset()[0][0]
        env.close()
        return obs

    default = first()
    for options in ({"use_backgrounds": False}, {"use_monochrome_assets": True}, {"center_agent": False}, {"use_generated_assets": True}, {"paint_vel_info": True}, {"restrict_themes": True}):
        assert not np.array_equal(first(**options), default), options
    assert np.array_equal(first(channel_first=True).transpose(1, 2, 0), default)


def test_level_range(ProcgenGym3Env):
    env = envpool_lite.make_gymnasium("MazeEasy-v0", num_envs=8, num_levels=2, start_level=40, seed=0)
    _, info = env.reset()
    assert set(info["level_seed"]) <= {40, 41}
    env.close()


def test_async_threads(ProcgenGym3Env):
    """Async batches over two worker threads: each env still its reference."""
    run(ProcgenGym3Env, "BigfishEasy-v0", num_envs=6, batch_size=3, steps=300, num_threads=2)
    run(ProcgenGym3Env, "CoinrunEasy-v0", num_envs=5, batch_size=2, steps=400, num_threads=2, policy=Policy(7, right=0.8))


def test_same_step(ProcgenGym3Env):
    """SAME_STEP: the step that ends an episode shows the next level's first
    frame (procgen's own convention) and the last frame in final_obs."""
    stats = run(ProcgenGym3Env, "CoinrunEasy-v0", num_envs=3, steps=400, policy=Policy(8, right=0.8), same_step=True)
    assert stats["completed"] + stats["lost"] >= 2, stats


def test_short_limit_and_forced_reset(ProcgenGym3Env):
    """max_episode_steps below the game's timeout ends episodes mid-level;
    the next reset is procgen's forced reset (act(-1)), as is reset() in the
    middle of an episode."""
    stats = run(ProcgenGym3Env, "BigfishHard-v0", num_envs=2, steps=130, max_episode_steps=40)
    assert stats["limit"] >= 4, stats
    env = envpool_lite.make_gymnasium("ChaserHard-v0", num_envs=2, seed=3)
    refs = [Ref(ProcgenGym3Env, "chaser", 1, 3 + i) for i in range(2)]
    env.reset()
    for r in refs:
        r.reset()
    for _ in range(20):
        env.step(np.full(2, 4, np.int32))
        for r in refs:
            r.step(4)
    obs, info = env.reset()
    for i, r in enumerate(refs):
        check_row(obs, info, i, i, r.reset())
    env.close()


def test_render(ProcgenGym3Env):
    """render(): procgen's 512x512 frame (its info["rgb"] with
    render_mode="rgb_array"), through an episode end."""
    stats = run(ProcgenGym3Env, "CoinrunEasy-v0", num_envs=2, steps=150, render=True, policy=Policy(9, right=0.8))
    assert stats["completed"] + stats["lost"] >= 1, stats


def test_reseed(ProcgenGym3Env):
    """reset(seed=s): env i is ProcgenGym3Env(rand_seed=s + i) from then on."""
    env = envpool_lite.make_gymnasium("HeistEasy-v0", num_envs=2, seed=1)
    env.reset()
    env.step(np.zeros(2, np.int32))
    obs, info = env.reset(seed=100)
    refs = [Ref(ProcgenGym3Env, "heist", 0, 100 + i) for i in range(2)]
    for i, r in enumerate(refs):
        check_row(obs, info, i, i, r.reset())
    actions = Policy(10)
    for _ in range(50):
        a = actions(2)
        obs, _, _, _, info = env.step(a)
        for i, r in enumerate(refs):
            check_row(obs, info, i, i, r.step(int(a[i])))
    env.close()


def test_faces():
    """gym and dm faces: the same episodes, in their own conventions."""
    import dm_env

    g = envpool_lite.make_gymnasium("CoinrunEasy-v0", num_envs=2, seed=5)
    d = envpool_lite.make_dm("CoinrunEasy-v0", num_envs=2, seed=5)
    o1, _ = g.reset()
    g_first = o1.copy()
    ts = d.reset()
    assert np.array_equal(o1, ts.observation.obs) and (ts.step_type == dm_env.StepType.FIRST).all()
    policy = Policy(11, right=0.8)
    ends = 0
    for _ in range(300):
        a = policy(2)
        o1, r1, term, trunc, _ = g.step(a)
        ts = d.step(a)
        assert np.array_equal(o1, ts.observation.obs) and np.array_equal(r1, ts.reward)
        assert np.array_equal(term | trunc, ts.step_type == dm_env.StepType.LAST)
        assert np.array_equal(ts.discount[term], np.zeros(term.sum()))
        ends += int((term | trunc).sum())
    assert ends >= 1
    g.close()
    d.close()
    gym_env = envpool_lite.make_gym("CoinrunEasy-v0", num_envs=2, seed=5)
    first = gym_env.reset()
    first = first[0] if isinstance(first, tuple) else first
    assert np.array_equal(first, g_first)
    gym_env.close()


@pytest.mark.parametrize(
    ("task", "kwargs", "error", "words"),
    [
        ("BigfishHard-v0", {"distribution_mode": 10}, ValueError, "bigfish has no mode 10"),
        ("BigfishHard-v0", {"distribution_mode": "memory"}, ValueError, "bigfish has no mode 10"),
        ("BigfishHard-v0", {"distribution_mode": 3}, ValueError, "distribution_mode"),
        ("BigfishHard-v0", {"distribution_mode": "medium"}, ValueError, "distribution_mode"),
        ("BossfightHard-v0", {"distribution_mode": 20}, ValueError, "no mode 20"),
        ("CoinrunHard-v0", {"num_levels": -1}, ValueError, "num_levels"),
        ("CoinrunHard-v0", {"start_level": 2**31}, ValueError, "start_level"),
        ("CoinrunHard-v0", {"start_level": -1}, ValueError, "start_level"),
        ("CoinrunHard-v0", {"start_level": 2**31 - 10, "num_levels": 20}, ValueError, "start_level"),
        ("CoinrunExploration-v0", {"num_levels": 5}, ValueError, "exploration"),
        ("CoinrunHard-v0", {"seed": 2**31}, ValueError, "2**31 - 1"),
        ("CoinrunHard-v0", {"seed": 2**31 - 2, "num_envs": 3}, ValueError, "2**31 - 1"),
        ("CoinrunHard-v0", {"seed": 1, "rand_seed": 2}, TypeError, "rand_seed"),
        ("CoinrunHard-v0", {"env_name": "maze"}, TypeError, "env_name"),
        ("CoinrunHard-v0", {"max_episode_steps": 0}, ValueError, "max_episode_steps"),
        ("CoinrunHard-v0", {"use_backgrounds": "no"}, TypeError, "use_backgrounds"),
        ("Coinrun-v0", {}, ValueError, "unknown task"),
    ],
)
def test_bad_options(task, kwargs, error, words):
    with pytest.raises(error, match=words.replace("*", r"\*")):
        envpool_lite.make_gymnasium(task, **kwargs)


def test_rand_seed_alias(ProcgenGym3Env):
    """rand_seed (ProcgenGym3Env's name) is the seed."""
    a = envpool_lite.make_gymnasium("NinjaHard-v0", num_envs=2, rand_seed=77)
    b = envpool_lite.make_gymnasium("NinjaHard-v0", num_envs=2, seed=77)
    assert np.array_equal(a.reset()[0], b.reset()[0])
    assert a.spec.config["seed"] == 77


def test_bad_action_keeps_pool_usable():
    env = envpool_lite.make_gymnasium("StarpilotEasy-v0", num_envs=2, seed=1)
    env.reset()
    for bad in (15, -1, 99):
        with pytest.raises(ValueError, match="action"):
            env.step(np.array([0, bad], np.int32))
    obs, *_ = env.step(np.array([1, 2], np.int32))
    assert obs.shape == (2, 64, 64, 3)
    env.close()


def test_missing_or_wrong_library(tmp_path, monkeypatch):
    """make() says what to install when libenv.so or its assets are missing,
    or are another procgen release's."""
    monkeypatch.setattr(procgen_family, "data_dir", lambda: str(tmp_path))
    with pytest.raises(ImportError, match="reinstall envpool_lite"):
        envpool_lite.make_gymnasium("CoinrunHard-v0")
    (tmp_path / "assets").mkdir()
    (tmp_path / "libenv.so").write_bytes(b"")
    (tmp_path / "version.txt").write_text("0.10.4\n")
    with pytest.raises(ImportError, match="procgen 0.10.4's libenv.so, this build needs procgen 0.10.7"):
        envpool_lite.make_gymnasium("CoinrunHard-v0")
    (tmp_path / "version.txt").write_text("0.10.7\n")  # the right release, a broken file
    with pytest.raises(ImportError, match="cannot load .*libenv.so.*reinstall envpool_lite"):
        envpool_lite.make_gymnasium("CoinrunHard-v0")
    monkeypatch.undo()
    assert envpool_lite.make_gymnasium("CoinrunHard-v0").reset()[0].shape == (1, 64, 64, 3)


def test_library_needs_no_system_qt():
    """The installed libenv.so is procgen's, with Qt built in: it needs only
    libc, libstdc++, zlib and glib (EnvPool's Procgen needs the system's
    Qt 5)."""
    import subprocess

    lib, _ = procgen_family.library_and_assets("CoinrunHard-v0")
    needed = subprocess.run(["ldd", lib], capture_output=True, text=True, check=True).stdout
    assert "not found" not in needed, needed
    assert "Qt" not in needed, needed
