"""Step-by-step alignment of a gymnasium_robotics pool with gymnasium-robotics'
own envs, for the family's test files: env i of a pool seeded s against the
reference env reset with seed s + i (later resets continue its generator, as
the pool's auto-reset does), the same random actions, every observation key,
reward, terminated, truncated and info field compared with ==, through goal
resampling, episode ends and auto-resets, in a sync or an async pool."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

import envpool_lite

# The pool's info fields that the reference has not.
POOL_INFO = {"env_id", "elapsed_step", "players"}


def _patch_reference() -> None:
    """What gymnasium-robotics 1.4.2 needs to run on mujoco 3.17.0 at all
    (envpool_lite.families.gymnasium_robotics.patch_reference, which the
    renderer applies too), changing no arithmetic."""
    from envpool_lite.families.gymnasium_robotics import patch_reference

    patch_reference()


def reference_env(task_id: str, **kwargs: Any):
    """gymnasium-robotics' env of task_id, without gymnasium's wrappers (the
    pool applies the time limit itself)."""
    import gymnasium_robotics

    gymnasium.register_envs(gymnasium_robotics)
    _patch_reference()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return gymnasium.make(task_id, disable_env_checker=True, **kwargs).unwrapped


def _values_equal(got: Any, want: Any) -> bool:
    return np.array_equal(np.asarray(got), np.asarray(want))


def assert_obs_equal(obs: Any, ref_obs: Any, i: int, where: str) -> None:
    if isinstance(ref_obs, dict):
        assert list(obs) == sorted(ref_obs), f"{where}: obs keys {list(obs)} != {sorted(ref_obs)}"
        for key, value in ref_obs.items():
            got = obs[key][i]
            assert got.dtype == np.asarray(value).dtype, f"{where}: obs[{key!r}] dtype {got.dtype} != {np.asarray(value).dtype}"
            assert np.array_equal(got, value), f"{where}: obs[{key!r}] differs by {np.abs(got - value).max()}:\n{got}\n{value}"
    else:
        assert np.array_equal(obs[i], ref_obs), f"{where}: obs differs by {np.abs(obs[i] - ref_obs).max()}"


def assert_info_equal(info: dict, ref_info: dict, i: int, where: str, reset: bool = False) -> None:
    if not reset:
        assert set(info) - POOL_INFO == set(ref_info), f"{where}: info keys {sorted(set(info) - POOL_INFO)} != {sorted(ref_info)}"
    for key, value in ref_info.items():
        got = info[key][i]
        assert _values_equal(got, value), f"{where}: info[{key!r}] {got!r} != {value!r}"
        want_dtype = np.asarray(value).dtype
        if not isinstance(value, (bool, int, float)):
            assert np.asarray(got).dtype == want_dtype, f"{where}: info[{key!r}] dtype {np.asarray(got).dtype} != {want_dtype}"


def run_aligned(
    task_id: str,
    steps: int,
    num_envs: int = 2,
    batch_size: int | None = None,
    seed: int = 7,
    max_episode_steps: int | None = None,
    action_fn: Callable[[np.random.Generator, gymnasium.spaces.Box, int], np.ndarray] | None = None,
    **options: Any,
) -> dict[str, int]:
    """Steps a pool and num_envs reference envs with the same random actions
    (uniform over the action space, or action_fn's), comparing every field
    with ==. An async pool (batch_size < num_envs) steps the envs of each
    batch it returns. Returns the number of truncations, terminations and
    steps compared."""
    pool_kwargs: dict[str, Any] = dict(options)
    if max_episode_steps is not None:
        pool_kwargs["max_episode_steps"] = max_episode_steps
    batch_size = batch_size or num_envs
    pool = envpool_lite.make(task_id, env_type="gymnasium", num_envs=num_envs, batch_size=batch_size, seed=seed, **pool_kwargs)
    limit = pool.spec.max_episode_steps
    from envpool_lite.families.gymnasium_robotics import reference_id

    refs = [reference_env(reference_id(task_id), **options) for _ in range(num_envs)]
    space = pool.single_action_space
    ref_space = refs[0].action_space
    assert space.shape == ref_space.shape and space.dtype == ref_space.dtype, (space, ref_space)
    assert np.array_equal(space.low, ref_space.low) and np.array_equal(space.high, ref_space.high)
    ref_obs_space = refs[0].observation_space
    if isinstance(ref_obs_space, gymnasium.spaces.Dict):
        for key, sub in ref_obs_space.spaces.items():
            assert pool.single_observation_space[key].shape == sub.shape, key
    rng = np.random.default_rng(seed)
    counts = {"terminated": 0, "truncated": 0, "steps": 0}
    elapsed = [0] * num_envs
    needs_reset = [False] * num_envs

    def draw(n: int) -> np.ndarray:
        if action_fn is not None:
            return np.asarray(action_fn(rng, space, n), dtype=space.dtype)
        return rng.uniform(space.low, space.high, (n,) + space.shape).astype(space.dtype)

    if batch_size == num_envs:
        obs, info = pool.reset()
        for i, ref in enumerate(refs):
            ref_obs, ref_info = ref.reset(seed=seed + i)
            assert_obs_equal(obs, ref_obs, i, f"{task_id} reset env {i}")
            assert_info_equal(info, ref_info, i, f"{task_id} reset env {i}", reset=True)
        env_ids = np.arange(num_envs)
    else:
        pool.async_reset()
        reset_obs = [ref.reset(seed=seed + i)[0] for i, ref in enumerate(refs)]
        obs, _, _, _, info = pool.recv()
        env_ids = info["env_id"]
        for row, i in enumerate(env_ids.tolist()):
            assert_obs_equal(obs, reset_obs[i], row, f"{task_id} async reset env {i}")
    in_flight: dict[int, np.ndarray] = {}  # the action each env was sent
    for t in range(steps):
        actions = draw(len(env_ids))
        if batch_size == num_envs:
            obs, reward, terminated, truncated, info = pool.step(actions)
        else:
            pool.send(actions, env_ids)
            obs, reward, terminated, truncated, info = pool.recv()
        in_flight.update(zip(env_ids.tolist(), actions))
        env_ids = info["env_id"]
        for row, i in enumerate(env_ids.tolist()):
            ref = refs[i]
            where = f"{task_id} step {t} env {i}"
            if i not in in_flight:  # async: env i's first reset, returned only now
                assert_obs_equal(obs, reset_obs[i], row, where + " (first reset)")
                continue
            action = in_flight.pop(i)
            if needs_reset[i]:  # NEXT_STEP autoreset: this step reset env i
                ref_obs, ref_info = ref.reset()
                elapsed[i] = 0
                needs_reset[i] = False
                assert_obs_equal(obs, ref_obs, row, where + " (reset)")
                assert_info_equal(info, ref_info, row, where + " (reset)", reset=True)
                continue
            ref_obs, ref_reward, ref_term, ref_trunc, ref_info = ref.step(action)
            elapsed[i] += 1
            ref_trunc = bool(ref_trunc) or elapsed[i] >= limit
            assert_obs_equal(obs, ref_obs, row, where)
            assert reward[row] == ref_reward, f"{where}: reward {reward[row]!r} != {ref_reward!r}"
            assert bool(terminated[row]) == bool(ref_term), f"{where}: terminated {terminated[row]} != {ref_term}"
            assert bool(truncated[row]) == ref_trunc, f"{where}: truncated {truncated[row]} != {ref_trunc}"
            assert_info_equal(info, ref_info, row, where)
            counts["steps"] += 1
            if ref_term or ref_trunc:
                needs_reset[i] = True
                counts["terminated" if ref_term else "truncated"] += 1
    pool.close()
    for ref in refs:
        ref.close()
    return counts
