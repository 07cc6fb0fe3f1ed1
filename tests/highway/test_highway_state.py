"""get_state / set_state replay highway-env bit for bit (tests/state_check.py).

The highway envs save np_random's state at the episode's start and the
actions since, and replay them (cpp/envs/highway/abstract.h).
"""

import pytest
import state_check


@pytest.mark.parametrize(("task_id", "other_pool"), state_check.every_id("highway"))
def test_every_id_restores(task_id, other_pool):
    state_check.check_roundtrip(task_id, other_pool=other_pool)


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_through_episode_ends(mode):
    # highway-env's own time limit (duration, in seconds: steps at
    # policy_frequency 1) ends each episode after 5 steps; rendered.
    options = {"duration": 5, "vehicles_count": 8, "max_episode_steps": 100}
    seen = state_check.check_roundtrip("highway-fast-v0", k=8, m=12, options=options, autoreset_mode=mode, render=True)
    assert seen["dones"] >= 2


def test_late_episode_into_fresh_pool():
    # Saved in the 3rd episode of each env (a time limit of 4 steps), then
    # restored into a fresh pool whose envs were in other scenes: lane
    # keeping's reset draws noise while it observes the previous scene
    # (AbstractEnv::BeginEpisode), so the replay starts after those draws.
    seen = state_check.check_roundtrip("lane-keeping-v0", k=10, m=8, options={"max_episode_steps": 4}, render=True)
    assert seen["dones"] >= 2


def test_async_pool():
    state_check.check_async("highway-fast-v0", recvs=24, options={"duration": 6, "vehicles_count": 8, "max_episode_steps": 100})
