"""Every task id of the install makes, resets and steps (3 random actions):
CI runs it on the 3.12 and 3.13 wheels (make test-wheel), whose alignment
tests are sampled; make test's own alignment tests make and step every id
on the editable build. The ids that cannot be made without an option get
it from needed_options(); the values are checked by each family's alignment
tests.

ENVPOOL_LITE_EVERY_ID_SHARD="i/n" makes every n-th id of each family from
the i-th: CI's two wheel runs take 0/2 and 1/2 (.ci/run), so that between
them every id is made from a wheel once."""

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


def shard(ids: list[str]) -> list[str]:
    """This run's share of a family's ids (ENVPOOL_LITE_EVERY_ID_SHARD)."""
    value = os.environ.get("ENVPOOL_LITE_EVERY_ID_SHARD", "")
    if not value:
        return ids
    i, n = (int(x) for x in value.split("/"))
    assert 0 <= i < n, value
    return ids[i::n]


# One test per family, so that pytest's workers share the ids out.
@pytest.mark.parametrize("family", envpool_lite.families.names())
def test_every_task_id_makes_resets_and_steps(family):
    failed = {}
    for task_id in shard(envpool_lite.families.task_ids(family)):
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
