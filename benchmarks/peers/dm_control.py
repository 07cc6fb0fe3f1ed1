"""dm_control's own suite (task.peers["dm_control"]: (domain, task)), one env
in a Python for-loop: system "dm_control_loop"."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np

from peers.common import Config, Skip

if TYPE_CHECKING:
    from envpool_lite.families import BenchmarkTask


def run_dm_control_loop(task: BenchmarkTask, cfg: Config, steps: int) -> float:
    """One dm_control env (suite.load) in a Python for-loop (one env only)."""
    if not task.peers.get("dm_control"):
        raise Skip("not a dm_control task")
    if cfg.num_envs != 1:
        raise Skip("a single env loop")
    try:
        from dm_control import suite
    except ImportError:
        raise Skip("dm_control not installed", missing=True) from None
    env = suite.load(*task.peers["dm_control"], task_kwargs={"random": 0})
    if task.options.get("from_pixels"):
        from dm_control.suite.wrappers import pixels

        size = {"height": task.options["img_height"], "width": task.options["img_width"], "camera_id": task.options["camera_id"]}
        env = pixels.Wrapper(env, pixels_only=True, render_kwargs=size)
    spec = env.action_spec()
    actions = list(np.random.default_rng(0).uniform(spec.minimum, spec.maximum, size=(1024, *spec.shape)))
    env.reset()
    start = time.perf_counter()
    for i in range(steps):
        if env.step(actions[i % 1024]).last():
            env.reset()
    return steps / (time.perf_counter() - start)
