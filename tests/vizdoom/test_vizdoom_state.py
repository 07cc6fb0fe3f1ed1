"""get_state / set_state: ViZDoom envs cannot save their state, and say why.

Measured on ViZDoom 1.3.2 (cpp/envs/vizdoom/vizdoom_env.h, kNoState): the
engine's savegames (DoomGame.save / load) run engine tics of their own, a
paused engine still loses its input state (accelerative turning, held keys),
and the client library's random generator that seeds every next episode
cannot be read or set. So get_state raises NotImplementedError naming the
family and that reason, and leaves the pool usable.
"""

import importlib.util

import numpy as np
import pytest
import state_check
from test_every_id import needed_options

import envpool_lite

pytestmark = [
    pytest.mark.skipif("Basic-v1" not in envpool_lite.list_all_envs(), reason="built without ViZDoom (Boost missing)"),
    pytest.mark.skipif(importlib.util.find_spec("vizdoom") is None, reason="the vizdoom package is not installed"),
]

REASON = "cannot save an env's state: ViZDoom's savegames do not restore an env exactly"


def _make(task_id, **options):
    try:
        return envpool_lite.make(task_id, env_type="gymnasium", num_envs=1, seed=3, **needed_options(task_id), **options)
    except ImportError as e:  # D1Basic-v1 ... D4Battle2-v1 without envpool-assets
        pytest.skip(str(e))


@pytest.mark.parametrize(("task_id", "other_pool"), state_check.every_id("vizdoom"))
def test_every_id_refuses_clearly(task_id, other_pool):
    env = _make(task_id)
    try:
        env.reset()
        with pytest.raises(NotImplementedError, match=f"the vizdoom family \\(task '{task_id}'\\) {REASON}"):
            env.get_state()
        # The pool goes on after the refusal.
        env.step(np.stack([env.single_action_space.sample()]))
    finally:
        env.close()


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_refuses_through_episode_ends(mode):
    # Basic-v1 at max_episode_steps=3: the 10 steps go through auto-resets;
    # get_state refuses at every row, a done one included.
    env = _make("Basic-v1", max_episode_steps=3, autoreset_mode=mode, render_mode="rgb_array")
    try:
        env.reset()
        dones = 0
        for _ in range(10):
            _, _, term, trunc, _ = env.step(np.stack([env.single_action_space.sample()]))
            dones += int(term[0] or trunc[0])
            with pytest.raises(NotImplementedError, match=REASON):
                env.get_state()
        assert dones >= 2
        assert env.render().shape[-1] == 3
    finally:
        env.close()


def test_async_pool_refuses():
    env = envpool_lite.make("Basic-v1", env_type="gymnasium", num_envs=2, batch_size=1, seed=3)
    try:
        env.async_reset()
        out = env.recv()
        ids = out[4]["env_id"]
        with pytest.raises(NotImplementedError, match=REASON):
            env.get_state(ids)
        env.send(np.stack([env.single_action_space.sample()]), ids)
        env.recv()
    finally:
        while env._pool.in_flight:
            env.recv()
        env.close()
