"""get_state / set_state replay pgx's games bit for bit (tests/state_check.py)."""

import pytest
import state_check


@pytest.mark.parametrize(("task_id", "other_pool"), state_check.every_id("pgx"))
def test_every_id_restores(task_id, other_pool):
    state_check.check_roundtrip(task_id, other_pool=other_pool)


# Random actions end these games quickly (illegal moves lose at once in
# tic_tac_toe; breakout's ball is missed). pgx renders nothing.
@pytest.mark.parametrize("mode", ["next_step", "same_step"])
@pytest.mark.parametrize(("task_id", "k"), [("tic_tac_toe", 4), ("minatar-breakout", 10)])
def test_through_episode_ends(task_id, k, mode):
    seen = state_check.check_roundtrip(task_id, k=k, m=60, options={"max_episode_steps": 0}, autoreset_mode=mode)
    assert seen["dones"] >= 2


def test_async_pool():
    # backgammon draws its dice from the step keys
    state_check.check_async("backgammon", recvs=40, options={"max_episode_steps": 0})
