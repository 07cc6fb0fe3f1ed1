"""get_state / set_state replay Meta-World bit for bit (tests/state_check.py).

A benchmark pool (MT10, ML45-train...) is made of whole benchmark vector
envs (num_envs a multiple of their sub-envs, which state_check's pools of 2
and 3 envs are not): its ids are checked here with pools of one such vector
env, and states loaded into envs of other sub-envs (other tasks), which then
become the saved sub-env.
"""

from __future__ import annotations

import numpy as np
import pytest
import scope
import state_check
from test_every_id import needed_options

import envpool_lite

# Benchmark ids that need num_envs a multiple of 5 or more.
WHOLE = {t for t in envpool_lite.families.task_ids("metaworld") if needed_options(t).get("num_envs", 1) > 1}
# The largest (7 s to make MT50's 50 models): make test-full only.
LARGE = {"Meta-World/MT25", "Meta-World/MT50", "Meta-World/ML25-train", "Meta-World/ML45-train"}


@pytest.mark.parametrize(("task_id", "other_pool"), [p for p in state_check.every_id("metaworld", fresh_every=8) if p[0] not in WHOLE])
def test_every_id_restores(task_id, other_pool):
    # EnvPool's names of the tasks (the same envs as metaworld's) with the v1
    # rewards, whose fields (maxPullDist...) the v2 rewards do not read.
    options = {"reward_function_version": "v1"} if task_id.startswith("MetaWorld/") else None
    state_check.check_roundtrip(task_id, options=options, other_pool=other_pool)


def saved_order(out, ids):
    """A batch's rows in the order of ids (a whole pool's batch comes in the
    order of its env ids)."""
    got = [int(i) for i in out[-1]["env_id"]]
    assert sorted(got) == sorted(int(i) for i in ids)
    return state_check.rows(out, [got.index(int(i)) for i in ids])


def check_benchmark(task_id: str, options: dict | None = None, k: int = 3, m: int = 10, reseed: bool = False) -> None:
    """One whole benchmark vector env (B envs): save after k steps, record m;
    restore each env its own state, then every env its neighbour's (another
    sub-env, another task), and replay; with reseed, a reset with the pool's seed afterwards makes every env the
    sub-env its id makes it again."""
    opts = state_check.task_options(task_id, k, options)
    n = needed_options(task_id)["num_envs"]
    env = envpool_lite.make(task_id, env_type="gymnasium", num_envs=n, seed=11, **opts)
    everyone = np.arange(n)
    try:
        env.action_space.seed(5)
        actions = [env.action_space.sample() for _ in range(k + m)]
        first = state_check.copy_out(env.reset())
        last = first
        for a in actions[:k]:
            last = state_check.copy_out(env.step(a))
        states = env.get_state()
        record = [state_check.copy_out(env.step(a)) for a in actions[k:]]
        assert sum(int(np.sum(r[2] | r[3])) for r in record) >= n  # through a reset

        env.set_state(None, states)
        state_check._check_row(state_check.copy_out(env.recv()), last, f"{task_id}: the row after set_state")
        for i, a in enumerate(actions[k:]):
            state_check.assert_same(state_check.copy_out(env.step(a)), record[i], f"{task_id}: step {k + i} after set_state")

        # Env (i + 1) mod n gets env i's state: another sub-env's.
        ids = np.roll(everyone, -1).astype(np.int32)
        env.set_state(ids, states)
        moved = saved_order(state_check.copy_out(env.recv()), ids)
        state_check._check_row(moved, last, f"{task_id}: the row after set_state into other sub-envs", skip_env_ids=True)
        for i, a in enumerate(actions[k:]):
            out = saved_order(state_check.copy_out(env.step(a, env_id=ids)), ids)
            state_check.assert_same(out, record[i], f"{task_id}: step {k + i} after set_state into other sub-envs", skip_env_ids=True)

        if reseed:
            state_check.assert_same(state_check.copy_out(env.reset(seed=11)), first, f"{task_id}: reset(seed) after set_state into other sub-envs")
    finally:
        env.close()


# MT10 with its one-hot of the task; ML10-test back home after a reseed.
OPTIONS = {"Meta-World/MT10": {"use_one_hot": True}}


@pytest.mark.parametrize("task_id", sorted(WHOLE))
def test_benchmark_restores(task_id):
    if task_id in LARGE and not scope.FULL:
        pytest.skip("make test-full: MT10 and the five-env ML splits cover the benchmark envs")
    check_benchmark(task_id, OPTIONS.get(task_id), reseed=task_id == "Meta-World/ML10-test")


def test_render_camera_travels():
    # render()'s free camera is set up at an env's first frame (looking at
    # the median of the geoms, where sweep-v3's puck counts) and kept: a
    # state carries it into an env that had set up its own.
    opts = {"render_width": 48, "render_height": 48, "render_mode": "rgb_array"}
    a = envpool_lite.make("sweep-v3", env_type="gymnasium", num_envs=1, seed=3, **opts)
    b = envpool_lite.make("sweep-v3", env_type="gymnasium", num_envs=1, seed=4, **opts)
    try:
        a.reset()
        a.render([0])
        for _ in range(3):
            a.step(np.ones((1, 4), np.float32))
        state = a.get_state()
        frame = a.render([0])
        b.reset()
        b.render([0])
        b.set_state(None, state)
        b.recv()
        state_check.assert_same(b.render([0]), frame, "sweep-v3: render() after set_state")
    finally:
        a.close()
        b.close()


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
@pytest.mark.parametrize(
    ("task_id", "options", "render"),
    [
        ("reach-v3", {"render_width": 48, "render_height": 48}, True),
        # A pseudo-random goal list, shuffled at each pass (ML1's 50 goals).
        ("Meta-World/ML1-train", {"sample_tasks_on_reset": True}, False),
    ],
)
def test_through_episode_ends(task_id, options, render, mode):
    # Meta-World only truncates (max_episode_steps 5): 14 steps, one env.
    seen = state_check.check_roundtrip(task_id, k=3, m=14, options={"max_episode_steps": 5, **options}, autoreset_mode=mode, render=render, other_pool=False)
    assert seen["dones"] >= 3


def test_async_pool():
    state_check.check_async("pick-place-v3", recvs=16)
