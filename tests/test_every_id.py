"""Every task id of the install makes, resets and steps (3 random actions):
CI runs it on the 3.12 and 3.13 wheels (make test-wheel), whose alignment
tests are sampled; make test's own alignment tests make and step every id
on the editable build. The ids that cannot be made without an option get
it from needed_options(); the values are checked by each family's alignment
tests."""

from __future__ import annotations

import os

import numpy as np
import pytest

import envpool_lite


def needed_options(task_id: str) -> dict:
    """The options an id cannot be made without."""
    if task_id == "VizdoomCustom-v1":  # any cfg: ViZDoom's own basic scenario
        import vizdoom

        return {"cfg_path": os.path.join(vizdoom.scenarios_path, "basic.cfg")}
    if task_id in ("Meta-World/MT1", "Meta-World/goal_observable", "Meta-World/goal_hidden"):
        return {"env_name": "reach-v3"}
    if task_id.startswith("Meta-World/ML1-"):
        return {"env_name": "reach-v3", "meta_batch_size": 1}
    if task_id.startswith("Meta-World/MT"):
        return {"num_envs": int(task_id.removeprefix("Meta-World/MT"))}  # one env per task
    if task_id.startswith("Meta-World/ML"):
        # the smallest meta batch the benchmark's split divides
        for size in (1, 5, 10, 25, 45):
            try:
                envpool_lite.make_spec(task_id, num_envs=size, meta_batch_size=size)
                return {"num_envs": size, "meta_batch_size": size}
            except ValueError:
                continue
    return {}


# One test per family, so that pytest's workers share the ids out.
@pytest.mark.parametrize("family", envpool_lite.families.names())
def test_every_task_id_makes_resets_and_steps(family):
    failed = {}
    ids = envpool_lite.families.task_ids(family)
    for task_id in ids:
        options = {"num_envs": 1, "seed": 3, **needed_options(task_id)}
        try:
            env = envpool_lite.make(task_id, **options)
            try:
                env.reset()
                env.single_action_space.seed(0)
                n = options["num_envs"]
                for _ in range(3):
                    obs, reward, terminated, truncated, info = env.step(np.stack([env.single_action_space.sample() for _ in range(n)]))
                    assert terminated.shape == (n,), terminated.shape
            finally:
                env.close()
        except Exception as e:  # every failure, not just the first
            failed[task_id] = repr(e)[:300]
    assert not failed, failed


def test_every_family_is_here():
    assert len(envpool_lite.list_all_envs()) > 400
