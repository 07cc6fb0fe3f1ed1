"""BabyAI: bit-exact with minigrid 3.2.0's levels, driven by minigrid's own
BabyAI bot so that instructions are carried out (go to, open, pick up, put
next to; and, then, after you), not only wandered through.

Every BabyAI id is also in tests/minigrid/test_minigrid.py's random-action run (with
max_steps=60). Here each id runs with its own max_steps (the level's, or
the instruction's navigations times the maze size), the actions of
minigrid's BabyAIBot planning on the reference env (some random, so that
plans break, wrong objects are picked up and strict levels fail), and
every step compares the image, the direction, the mission (512 bytes), the
reward (float64, ==), terminated, truncated and the agent's position,
through episode ends and auto-resets.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest
from libcompat import COMPAT

import envpool_lite
from envpool_lite.families.minigrid import decode_mission

ORACLE = COMPAT / "minigrid_oracle"
TASKS = [t for t in envpool_lite.families.task_ids("minigrid") if t.startswith("BabyAI-")]

pytestmark = pytest.mark.usefixtures("quiet_gymnasium")


@pytest.fixture(scope="module")
def oracle():
    if not (ORACLE / "minigrid" / "utils" / "baby_ai_bot.py").is_file():
        message = f"minigrid 3.2.0 is not installed in {ORACLE} (run: bash scripts/setup_compat.sh)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    if str(ORACLE) not in sys.path:
        sys.path.append(str(ORACLE))
    import gymnasium
    import minigrid  # noqa: F401
    from minigrid.utils.baby_ai_bot import BabyAIBot

    return (lambda task, **kwargs: gymnasium.make(task, **kwargs).unwrapped), BabyAIBot


class PlanningBudget(Exception):
    """The bot searched more than its budget for one action."""


def budgeted(bot_cls, searches=200):
    """minigrid's BabyAIBot, its planning for one action cut at `searches`
    breadth-first searches. On UnlockToUnlock the bot replans for ever (it
    keeps searching for the door it stands at); on every other level an
    action takes at most 14. A count, not a clock: the run is the same on
    every machine, however loaded."""

    class Bot(bot_cls):
        budget = searches

        def replan(self, action_taken=None):
            self.budget = searches
            return super().replan(action_taken)

        def _breadth_first_search(self, *args, **kwargs):
            self.budget -= 1
            if self.budget < 0:
                raise PlanningBudget(f"more than {searches} searches for one action")
            return super()._breadth_first_search(*args, **kwargs)

    return Bot


class Driver:
    """One reference env and the bot planning on it; a random action now
    and then (the bot then plans afresh)."""

    def __init__(self, env, bot_cls, rng, epsilon):
        self.env, self.bot_cls, self.rng, self.epsilon = env, budgeted(bot_cls), rng, epsilon
        self.bot = None

    def restart(self):
        self.bot = self.bot_cls(self.env)

    def action(self):
        if self.bot is not None and self.rng.random() >= self.epsilon:
            try:
                return int(self.bot.replan())
            except (PlanningBudget, AssertionError, IndexError, TypeError):
                pass  # the bot gives up (asserts, or finds no path) on some levels, or plans for ever (UnlockToUnlock)
        self.bot = None
        return int(self.rng.integers(0, 7))

    def after_random(self):
        if self.bot is None:
            self.restart()


def run(oracle, task, *, num_envs=2, steps=300, seed=3, epsilon=0.1, **kwargs):
    make_ref, bot_cls = oracle
    env = envpool_lite.make_gymnasium(task, num_envs=num_envs, seed=seed, **kwargs)
    refs = [make_ref(task, **kwargs) for _ in range(num_envs)]
    rng = np.random.default_rng(seed)
    drivers = [Driver(r, bot_cls, rng, epsilon) for r in refs]
    stats = {"success": 0, "failure": 0, "truncated": 0}

    def check(obs, info, i, ref_obs):
        assert np.array_equal(obs["image"][i], ref_obs["image"]), f"{task} env {i}: image differs"
        assert obs["direction"][i] == ref_obs["direction"], f"{task} env {i}: direction"
        assert decode_mission(obs["mission"][i]) == ref_obs["mission"], f"{task} env {i}: mission"
        assert tuple(info["agent_pos"][i]) == tuple(int(v) for v in refs[i].agent_pos), f"{task} env {i}: agent_pos"

    try:
        obs, info = env.reset()
        for i, r in enumerate(refs):
            check(obs, info, i, r.reset(seed=seed + i)[0])
            drivers[i].restart()
        needs_reset = np.zeros(num_envs, bool)
        for _ in range(steps):
            actions = np.array([0 if needs_reset[i] else d.action() for i, d in enumerate(drivers)])
            obs, rew, term, trunc, info = env.step(actions)
            for i, r in enumerate(refs):
                if needs_reset[i]:
                    ref_obs, _ = r.reset()
                    drivers[i].restart()
                    assert rew[i] == 0 and not term[i] and not trunc[i]
                else:
                    ref_obs, ref_rew, ref_term, ref_trunc, _ = r.step(int(actions[i]))
                    assert rew[i] == ref_rew, f"{task} env {i}: reward {rew[i]!r} != {ref_rew!r}"
                    assert term[i] == ref_term and trunc[i] == ref_trunc, f"{task} env {i}: {term[i]}/{trunc[i]} != {ref_term}/{ref_trunc}"
                    if ref_term:
                        stats["success" if ref_rew > 0 else "failure"] += 1
                    elif ref_trunc:
                        stats["truncated"] += 1
                    drivers[i].after_random()
                check(obs, info, i, ref_obs)
            needs_reset = term | trunc
    finally:
        env.close()
    return stats


@pytest.mark.parametrize("task", TASKS)
def test_every_level_exact_with_the_bot(oracle, task):
    """Every id, 300 steps of 2 envs (the endings are asserted per kind of
    instruction below; the long levels, BossLevel's, may not end in 300)."""
    run(oracle, task)


def test_instructions_succeed(oracle):
    """The bot completes every kind of instruction: the reward is
    1 - 0.9 * step_count / max_steps, with max_steps the level's own."""
    for task in (
        "BabyAI-GoToLocal-v0",
        "BabyAI-OpenDoor-v0",
        "BabyAI-PickupLoc-v0",
        "BabyAI-PutNextLocal-v0",
        "BabyAI-GoToSeqS5R2-v0",
        "BabyAI-MiniBossLevel-v0",
        "BabyAI-SynthS5R2-v0",
        "BabyAI-MoveTwoAcrossS5N2-v0",
        "BabyAI-PutNextS5N2Carrying-v0",
        "BabyAI-KeyInBox-v0",
    ):
        stats = run(oracle, task, num_envs=2, steps=300, epsilon=0.02)
        assert stats["success"] >= 2, (task, stats)


def test_strict_levels_fail(oracle):
    """Debug levels end with reward 0 when the wrong door is opened or the
    wrong object picked up (random actions)."""
    total = {"failure": 0}
    for task in ("BabyAI-OpenDoorDebug-v0", "BabyAI-PickupDistDebug-v0", "BabyAI-OpenDoorsOrderN4Debug-v0"):
        stats = run(oracle, task, num_envs=2, steps=300, epsilon=0.7)
        total["failure"] += stats["failure"]
    assert total["failure"] >= 3, total


def test_dynamic_max_steps_truncates(oracle):
    """Without max_steps, a level's limit is its instruction's navigations
    times room_size**2 * num_rows * num_cols (64 for GoToObj)."""
    stats = run(oracle, "BabyAI-GoToObjS4-v0", num_envs=2, steps=200, epsilon=1.0)
    assert stats["truncated"] + stats["success"] >= 2, stats


@pytest.mark.parametrize(
    ("task", "kwargs"),
    [
        ("BabyAI-GoToLocal-v0", {"room_size": 6, "num_dists": 3, "max_steps": 50}),
        ("BabyAI-GoTo-v0", {"num_rows": 2, "num_cols": 2, "doors_open": True}),
        ("BabyAI-OpenDoor-v0", {"select_by": "loc", "debug": True}),
        ("BabyAI-OpenDoor-v0", {"select_by": None}),
        ("BabyAI-OpenTwoDoors-v0", {"first_color": "green", "second_color": None, "strict": True}),
        ("BabyAI-PutNextS5N2-v0", {"room_size": 6, "objs_per_room": 3, "start_carrying": True}),
        ("BabyAI-BossLevel-v0", {"num_dists": 6, "locked_room_prob": 1.0, "locations": False}),
        ("BabyAI-KeyCorridor-v0", {"obj_type": "key", "room_size": 4}),
        ("BabyAI-UnlockPickup-v0", {"distractors": True, "max_steps": 80}),
        ("BabyAI-GoToRedBall-v0", {"agent_view_size": 5}),
    ],
)
def test_options(oracle, task, kwargs):
    run(oracle, task, steps=150, **kwargs)


@pytest.mark.parametrize(
    ("task", "kwargs", "words"),
    [
        ("BabyAI-OpenDoor-v0", {"select_by": "size"}, "select_by"),
        ("BabyAI-OpenTwoDoors-v0", {"first_color": "pink"}, "first_color"),
        ("BabyAI-PutNextLocal-v0", {"num_objs": 19}, "num_objs"),
        ("BabyAI-PutNextS4N1-v0", {"objs_per_room": 10}, "objs_per_room"),
        ("BabyAI-GoTo-v0", {"room_size": 2}, "room_size"),
        ("BabyAI-BossLevel-v0", {"locked_room_prob": 1.5}, "locked_room_prob"),
        ("BabyAI-KeyCorridor-v0", {"obj_type": "door"}, "obj_type"),
        ("BabyAI-GoToLocal-v0", {"agent_view_size": 6}, "agent_view_size"),
    ],
)
def test_bad_options(task, kwargs, words):
    with pytest.raises(ValueError, match=words):
        envpool_lite.make_gymnasium(task, **kwargs)


def test_impossible_level_raises_instead_of_hanging():
    """minigrid would generate for ever: too many distinct objects for the
    room. Here the reset fails with a clear error and the pool closes."""
    env = envpool_lite.make_gymnasium("BabyAI-GoToLocal-v0", room_size=3, num_dists=5)
    with pytest.raises(RuntimeError, match="no level accepted"):
        env.reset()
    env.close()


def test_mission_is_512_bytes():
    env = envpool_lite.make_gymnasium("BabyAI-BossLevel-v0", num_envs=2)
    assert env.single_observation_space["mission"].shape == (512,)
    obs, _ = env.reset()
    assert all(len(m) > 5 for m in decode_mission(obs["mission"]))
    env.close()
