"""get_state / set_state replay Atari bit for bit (tests/state_check.py)."""

import pytest
import state_check


# Every id restored into the same pool; one in 13 also into a fresh pool
# (each env of a pool loads its ROM into ALE, about 65 ms).
@pytest.mark.parametrize(("task_id", "other_pool"), state_check.every_id("atari", fresh_every=13))
def test_every_id_restores(task_id, other_pool):
    state_check.check_roundtrip(task_id, other_pool=other_pool)


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_through_episode_ends(mode):
    # Breakout with episodic_life: each lost life ends an episode (the game
    # goes on), the fifth a game; 11 ends over 2 envs take one env through a
    # game over and its reset. Sticky actions (ALE's generator and the
    # action it repeats) and no-op starts (the env's generator) are on.
    options = {"episodic_life": True, "repeat_action_probability": 0.25, "noop_max": 30, "max_episode_steps": 10000}
    seen = state_check.check_roundtrip("Breakout-v5", k=20, m=250, options=options, autoreset_mode=mode, render=True)
    assert seen["dones"] >= 11


def test_async_pool():
    # Sticky actions at 0.75: a restored env's first frame most likely
    # repeats the action ALE last applied, which the state holds.
    state_check.check_async("Pong-v5", recvs=40, options={"repeat_action_probability": 0.75, "max_episode_steps": 30})
