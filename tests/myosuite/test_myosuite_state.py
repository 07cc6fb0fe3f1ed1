"""get_state / set_state replay MyoSuite bit for bit (tests/state_check.py):
the model's arrays (target sites, a carried weight's mass), both mjData
(the robot's and the observed one), the generators and the fatigue model."""

from __future__ import annotations

import numpy as np
import pytest
import scope
import state_check

import envpool_lite

# Every id under myosuite's name; EnvPool's names for them ("MyoSuite/<id>",
# the same envs) every 40th in make test, all in make test-full.
IDS = [(t, o) for k, (t, o) in enumerate(state_check.every_id("myosuite", fresh_every=8)) if not t.startswith("MyoSuite/") or scope.FULL or k % 40 == 1]


@pytest.mark.parametrize(("task_id", "other_pool"), IDS)
def test_every_id_restores(task_id, other_pool):
    state_check.check_roundtrip(task_id, other_pool=other_pool)


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
@pytest.mark.parametrize(
    ("task_id", "options"),
    [
        # A random weight at each reset, random targets and start.
        ("myoElbowPose1D6MExoRandom-v0", {}),
        # Fatigue drawn at each reset from its own generator.
        ("myoFatiFingerReachRandom-v0", {"fatigue_reset_random": True}),
        # Soccer's goalkeeper on colored noise (a buffer of 10 samples, drawn
        # anew at each reset and when spent); table tennis' contact
        # trajectory and rallies.
        ("myoChallengeSoccerP2-v0", {"goalkeeper_probabilities": (0.0, 1.0, 0.0)}),
        # Chase tag's repeller and drawn terrain (in the model's height
        # field).
        ("myoChallengeChaseTagP2eval-v0", {"opponent_probabilities": (0.0, 0.3, 0.3, 0.4)}),
        ("myoChallengeTableTennisP0-v0", {"ball_xyz_range": {"high": [1.89, 0.6677, 1.2373], "low": [1.89, 0.6677, 1.2373]}, "ball_qvel": True, "rally_count": 2}),
    ],
)
def test_through_episode_ends(task_id, options, mode):
    seen = state_check.check_roundtrip(task_id, k=3, m=14, options={"max_episode_steps": 5, **options}, autoreset_mode=mode, other_pool=False)
    assert seen["dones"] >= 2


def test_async():
    state_check.check_async("myoHandReachRandom-v0")


def test_a_state_is_not_a_replay():
    # A restored env is the saved one, not a fresh one: its target (drawn at
    # the reset) and its muscles' activations come back; a state of another
    # seed's env makes this env that env.
    a = envpool_lite.make_gymnasium("myoHandPoseRandom-v0", num_envs=1, seed=1)
    b = envpool_lite.make_gymnasium("myoHandPoseRandom-v0", num_envs=1, seed=2)
    try:
        a.reset()
        b.reset()
        act = np.full((1, 39), 0.7, np.float32)
        for _ in range(3):
            a.step(act)
        state = a.get_state()
        want = a.step(act)
        b.set_state(None, state)
        b.recv()
        got = b.step(act)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[4]["obs_dict"]["act"], want[4]["obs_dict"]["act"])
        # Without set_state, b (another seed) steps elsewhere: the check can fail.
        b.reset()
        b.step(act)
        assert not np.array_equal(b.step(act)[0], want[0])
    finally:
        a.close()
        b.close()
