"""get_state / set_state replay Box2D bit for bit (tests/state_check.py).

The Box2D envs save the episode's start and actions and replay it
(cpp/envs/box2d/replay.h); BipedalWalker and CarRacing keep one b2World
for their whole life, whose past decides the next episodes' contact order,
so a state taken episodes into a pool's life must also load into a fresh
pool: test_late_episode_into_fresh_pool.
"""

import numpy as np
import pytest
import state_check
from state_check import assert_same, copy_out

import envpool_lite


@pytest.mark.parametrize(("task_id", "other_pool"), state_check.every_id("box2d"))
def test_every_id_restores(task_id, other_pool):
    state_check.check_roundtrip(task_id, other_pool=other_pool)


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_through_episode_ends(mode):
    # LunarLander under random actions crashes within ~100 steps; the time
    # limit ends the others. Rendered: its particles age at each render().
    seen = state_check.check_roundtrip("LunarLander-v3", k=30, m=90, options={"max_episode_steps": 1000}, autoreset_mode=mode, render=True)
    assert seen["dones"] >= 2


@pytest.mark.parametrize("task_id", ["BipedalWalker-v3", "CarRacing-v3"])
def test_late_episode_into_fresh_pool(task_id):
    # Saved in the 4th episode of each env (a time limit of 6 steps), after
    # three resets that emptied and refilled the world, restored into a
    # fresh pool whose worlds had one episode; rendered, through episode ends.
    seen = state_check.check_roundtrip(task_id, k=22, m=8, options={"max_episode_steps": 6}, render=True)
    assert seen["dones"] >= 2


def test_rendered_between_steps():
    # LunarLander's render() ages its exhaust particles and destroys the dead
    # ones (Box2D bodies): a state saved after renders brings them back as
    # they were, also in a fresh pool. Action 2 fires the main engine.
    actions = np.random.default_rng(3).choice([0, 2, 2, 3], size=40).astype(np.int32)
    k = 25

    def make(num_envs, seed):
        return envpool_lite.make("LunarLander-v3", env_type="gymnasium", num_envs=num_envs, seed=seed, render_mode="rgb_array")

    def run(env, ids):
        out = []
        for a in actions[k:]:
            step = copy_out(env.step(np.full(len(ids), a), env_id=np.array(ids, np.int32)))
            out.append((step, env.render(ids)))
        return tuple(out)

    env = make(2, 11)
    env.reset()
    for a in actions[:k]:
        env.step(np.full(2, a))
        env.render([0, 1])
    states = env.get_state()
    record = run(env, [0, 1])
    env.set_state(None, states)
    env.recv()
    assert_same(run(env, [0, 1]), record, "after set_state")
    env.close()

    env = make(3, 1000)
    env.reset()
    env.set_state([2, 0], states)
    env.recv()
    assert_same(run(env, [2, 0]), record, "after set_state in another pool", skip_env_ids=True)
    env.close()


def test_async_pool():
    state_check.check_async("LunarLanderContinuous-v3", recvs=40, options={"max_episode_steps": 30})
