"""The pool's options as one typed object (_core.PoolOptions, checked in
C++: cpp/core/pool_options.h) and the task built once (_core.Task)."""

import copy
import pickle

import numpy as np
import pytest

import envpool_lite
from envpool_lite import _core


def test_make_spec_builds_the_pool_options_once_with_batch_size_resolved():
    spec = envpool_lite.make_spec("CartPole-v1", num_envs=6, seed=10)
    options = spec.pool_options
    assert (options.num_envs, options.batch_size, options.num_threads, options.thread_affinity_offset) == (6, 6, 0, -1)
    assert spec.config["batch_size"] == 6
    assert options.seeds == [10, 11, 12, 13, 14, 15]
    assert not options.same_step_autoreset and not options.render


def test_the_pool_is_built_from_the_specs_options():
    env = envpool_lite.make("CartPole-v1", num_envs=4, batch_size=2, seed=3)
    try:
        assert len(env) == 4 and env._pool.batch_size == 2
        assert env.spec.pool_options.batch_size == env.config["batch_size"] == 2
    finally:
        env.close()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (dict(num_envs=0), r"num_envs must be in \[1, 1048576\], got 0"),
        (dict(num_envs=4, batch_size=5), r"batch_size must be in \[1, num_envs=4\] \(0 means num_envs\), got 5"),
        (dict(num_threads=-1), r"num_threads must be in \[0, 1024\]"),
        (dict(thread_affinity_offset=-2), "thread_affinity_offset must be in"),
        (dict(num_envs=2, seeds=[1, 2, 3]), r"seeds has 3 entries, expected one per env \(2\)"),
    ],
)
def test_the_rules_live_in_cpp_and_make_reports_them(options, message):
    with pytest.raises(ValueError, match=message):
        _core.PoolOptions(**options)
    if "seeds" not in options:
        with pytest.raises(ValueError, match=message):
            envpool_lite.make_spec("CartPole-v1", **options)


def test_replace_checks_its_fields_and_keeps_the_rest():
    options = _core.PoolOptions(num_envs=4, seeds=[5, 6, 7, 8])
    part = options.replace(num_envs=2, batch_size=1, seeds=[7, 8], first_env_id=2, shares_cores=True)
    assert (part.num_envs, part.batch_size, part.seeds, part.first_env_id, part.shares_cores) == (2, 1, [7, 8], 2, True)
    assert options.num_envs == 4 and options.seeds == [5, 6, 7, 8]  # unchanged
    with pytest.raises(TypeError, match="no field 'nums'"):
        options.replace(nums=1)
    with pytest.raises(TypeError, match="takes an int"):
        options.replace(num_envs=1.5)
    with pytest.raises(TypeError, match="takes an int"):
        options.replace(num_envs=True)
    with pytest.raises(ValueError, match="batch_size must be in"):
        options.replace(num_envs=2)  # batch_size 4 stays, and is checked again


def test_pool_options_pickle_for_a_ray_worker():
    options = _core.PoolOptions(num_envs=3, batch_size=2, seeds=[1, 2, 3], render=True)
    again = pickle.loads(pickle.dumps(options))
    assert again._asdict() == options._asdict()


def test_a_spec_copies_and_pickles_with_its_task_made_again():
    spec = envpool_lite.make_spec("CartPole-v1", num_envs=2, max_episode_steps=50)
    for other in (copy.deepcopy(spec), pickle.loads(pickle.dumps(spec))):
        assert other.task is not spec.task and other.task.task_id == "CartPole-v1"
        assert other.config == spec.config and other.task.spec == spec.task.spec
        assert other.pool_options._asdict() == spec.pool_options._asdict()


def test_a_huge_number_is_reported_not_wrapped():
    with pytest.raises(ValueError, match="num_envs must be in"):
        envpool_lite.make_spec("CartPole-v1", num_envs=10**30)
    with pytest.raises(ValueError, match="batch_size must be in"):
        envpool_lite.make_spec("CartPole-v1", batch_size=-(10**30))
    assert np.iinfo(np.int64).max  # the value is saturated to int64, then refused
