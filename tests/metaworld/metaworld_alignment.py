"""Step-by-step alignment of a Meta-World pool with metaworld 3.1.1's own envs.

The reference runs on the mujoco metaworld pins (3.3.0), which cannot share
the venv with the mujoco the other families need (3.17.0): scripts/
setup_compat.sh installs metaworld and that mujoco into
build/compat/metaworld_oracle (tests/compat/metaworld_oracle.txt), and
tests/metaworld/metaworld_reference.py steps the reference envs in a subprocess with that
folder first on its path (numpy, scipy and gymnasium stay the venv's own).

The reference of env i of a pool seeded s is `metaworld.make_mt_envs(task_id,
seed=s + i)` (MT1: its 50 goals, partially_observable=False, a task drawn from
the env's np_random at each reset, TimeLimit at max_path_length 500), with the
pool's max_episode_steps and reward_function_version, reset once without a
seed and then reset without a seed after each episode end.

The pool runs first, each env's actions and outputs recorded in the order the
env consumed them (a sync pool steps every env every step; an async pool the
batch each recv() returned); then the reference runs those action sequences;
then every observation element, reward, terminated, truncated and each of the
env's own info fields is compared with ==, through episode ends and NEXT_STEP
auto-resets (the row after an episode end is the env's reset observation,
elapsed_step 0, its action unused). Info values are compared as float64, in
which the reference's bool, int, float32 and float values are all exact.
Ignored: the info keys metaworld's wrappers add (RecordEpisodeStatistics'
"episode" at episode ends, listed by the reference as wrapper_info_keys) and
the pool's own (POOL_INFO).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from libcompat import COMPAT

import envpool_lite

ROOT = Path(__file__).resolve().parents[2]
ORACLE = COMPAT / "metaworld_oracle"
SCRIPT = Path(__file__).resolve().with_name("metaworld_reference.py")
# The pool's info fields that the reference has not.
POOL_INFO = {"env_id", "elapsed_step", "players"}
OBS_SIZE = 39
ACTION_SIZE = 4


def require_oracle() -> None:
    """Skips the calling test (fails it under CI) when the reference is not
    installed."""
    if not (ORACLE / "metaworld" / "__init__.py").is_file() or not (ORACLE / "mujoco" / "__init__.py").is_file():
        message = f"metaworld's reference (metaworld 3.1.1 on mujoco 3.3.0) is not installed in {ORACLE} (run: bash scripts/setup_compat.sh)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def require_task(task_id: str) -> None:
    """Skips the calling test when the pool has no task_id."""
    if task_id not in envpool_lite.list_all_envs():
        pytest.skip(f"{task_id} is not registered in envpool_lite (the metaworld family is not built in)")


def run_reference(
    env_name: str,
    seeds: Sequence[int],
    actions_per_env: Sequence[np.ndarray],
    max_episode_steps: int | None = None,
    reward_function_version: str = "v2",
    timeout: float = 900,
    benchmark: str = "",
    positions: Sequence[int] | None = None,
    benchmark_kwargs: dict[str, Any] | None = None,
    render_kwargs: dict[str, Any] | None = None,
    render_rows: Sequence[int] = (),
) -> dict[str, Any]:
    """Runs tests/metaworld/metaworld_reference.py: env i is metaworld.make_mt_envs(env_name,
    seed=seeds[i], ...) stepped through actions_per_env[i] (float32 [T_i, 4]),
    reset without a seed after each episode end (that row's action unused).
    Returns {"envs": [one dict per env: first_obs, first_rand_vec, obs,
    reward, reward_type, terminated, truncated, is_reset, elapsed, rand_vec,
    info (key: float64 [T_i]), info_type (key: str [T_i])], "env_info_keys",
    "wrapper_info_keys", "reset_info_keys", "versions", "make_seconds",
    "step_seconds"} (see tests/metaworld/metaworld_reference.py). Raises RuntimeError with the
    subprocess's stderr when it fails. With benchmark (a benchmark id), env i
    is instead sub-env positions[i] of metaworld's vector env of benchmark
    seeded seeds[i], made with benchmark_kwargs."""
    require_oracle()
    if len(seeds) != len(actions_per_env):
        raise ValueError(f"{len(seeds)} seeds for {len(actions_per_env)} action sequences")
    request: dict[str, np.ndarray] = {
        "env_name": np.array(env_name),
        "benchmark": np.array(benchmark),
        "positions": np.asarray(positions if positions is not None else [0] * len(seeds), dtype=np.int64),
        "benchmark_kwargs": np.array(json.dumps(benchmark_kwargs or {})),
        "render_kwargs": np.array(json.dumps(render_kwargs or {})),
        "render_rows": np.asarray(render_rows, dtype=np.int64),
        "seeds": np.asarray(seeds, dtype=np.int64),
        "max_episode_steps": np.array(-1 if max_episode_steps is None else int(max_episode_steps), dtype=np.int64),
        "reward_function_version": np.array(reward_function_version),
    }
    for i, actions in enumerate(actions_per_env):
        actions = np.asarray(actions, dtype=np.float32).reshape(-1, ACTION_SIZE)
        request[f"actions_{i}"] = actions
    with tempfile.TemporaryDirectory(prefix="metaworld_reference_") as tmp:
        request_path, result_path = Path(tmp) / "request.npz", Path(tmp) / "result.npz"
        np.savez(request_path, **request)
        env = {**os.environ, "PYTHONPATH": str(ORACLE), "PYTHONWARNINGS": "ignore"}
        if render_kwargs:
            env.setdefault("MUJOCO_GL", "egl")
        command = [sys.executable, str(SCRIPT), str(request_path), str(result_path)]
        proc = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0:
            raise RuntimeError(f"{SCRIPT.name} failed (exit {proc.returncode}) for {env_name} seeds {list(seeds)}:\n--- stderr\n{proc.stderr[-8000:]}\n--- stdout\n{proc.stdout[-2000:]}")
        with np.load(result_path, allow_pickle=False) as data:
            raw = {key: data[key] for key in data.files}
    envs: list[dict[str, Any]] = []
    for i in range(len(seeds)):
        prefix = f"env{i}__"
        fields = {key[len(prefix) :]: value for key, value in raw.items() if key.startswith(prefix)}
        one: dict[str, Any] = {"info": {}, "info_type": {}}
        for name, value in fields.items():
            if name.startswith("info_type__"):
                one["info_type"][name[len("info_type__") :]] = value
            elif name.startswith("info__"):
                one["info"][name[len("info__") :]] = value
            else:
                one[name] = value
        envs.append(one)
    result: dict[str, Any] = {"envs": envs}
    for key in ("env_info_keys", "wrapper_info_keys", "reset_info_keys", "versions"):
        result[key] = [str(v) for v in raw[key]]
    result["make_seconds"] = raw["make_seconds"]
    result["step_seconds"] = raw["step_seconds"]
    return result


def _pool_run(pool, steps: int, num_envs: int, batch_size: int, rng: np.random.Generator, policy: Callable[[np.ndarray], np.ndarray] | None = None):
    """Steps the pool, recording per env its reset observation, the actions
    it consumed in order and the output of each."""
    first_obs: list[np.ndarray | None] = [None] * num_envs
    sent: list[list[np.ndarray]] = [[] for _ in range(num_envs)]
    outputs: list[list[tuple]] = [[] for _ in range(num_envs)]

    def record(obs, reward, terminated, truncated, info, where: str) -> None:
        env_ids = np.asarray(info["env_id"]).tolist()
        for row, i in enumerate(env_ids):
            row_info = {key: np.asarray(value)[row] for key, value in info.items() if isinstance(value, np.ndarray)}  # not players (a dict)
            if first_obs[i] is None:  # env i's first reset (async: returned only now)
                assert not sent[i], f"{where}: env {i} returned its first reset after an action was sent to it"
                first_obs[i] = np.array(obs[row])
                continue
            assert len(outputs[i]) < len(sent[i]), f"{where}: env {i} returned more outputs than it was sent actions"
            outputs[i].append((np.array(obs[row]), reward[row], bool(terminated[row]), bool(truncated[row]), row_info))

    def draw(n: int) -> np.ndarray:
        return rng.uniform(-1.0, 1.0, (n, ACTION_SIZE)).astype(np.float32)

    if policy is not None and batch_size != num_envs:
        raise ValueError("a policy drives a sync pool only")
    if batch_size == num_envs:
        obs, info = pool.reset()
        assert np.array_equal(info["env_id"], np.arange(num_envs)), info["env_id"]
        for i in range(num_envs):
            first_obs[i] = np.array(obs[i])
        for t in range(steps):
            actions = draw(num_envs)
            if policy is not None:  # the policy's action plus the noise
                actions = np.clip(policy(obs) + 0.3 * actions, -1, 1).astype(np.float32)
            for i in range(num_envs):
                sent[i].append(actions[i])
            obs, reward, terminated, truncated, info = pool.step(actions)
            assert np.array_equal(info["env_id"], np.arange(num_envs)), info["env_id"]
            record(obs, reward, terminated, truncated, info, f"sync step {t}")
    else:
        pool.async_reset()
        obs, reward, terminated, truncated, info = pool.recv()
        record(obs, reward, terminated, truncated, info, "async reset")
        for t in range(steps):
            env_ids = np.asarray(info["env_id"])
            actions = draw(len(env_ids))
            pool.send(actions, env_ids)
            for row, i in enumerate(env_ids.tolist()):
                sent[i].append(actions[row])
            obs, reward, terminated, truncated, info = pool.recv()
            record(obs, reward, terminated, truncated, info, f"async step {t}")
    # Actions still in flight have no output: the reference does not take them.
    actions_per_env = [np.array(sent[i][: len(outputs[i])], dtype=np.float32).reshape(-1, ACTION_SIZE) for i in range(num_envs)]
    return first_obs, actions_per_env, outputs


def run_aligned(task_id: str, steps: int, num_envs: int = 2, batch_size: int | None = None, seed: int = 7, **options: Any) -> dict[str, int]:
    """Steps a pool of task_id (options: max_episode_steps,
    reward_function_version, and pool options such as num_threads, which the
    reference has not) with random actions (np.random.default_rng(seed),
    uniform in [-1, 1], float32, drawn per batch as the pool consumes them),
    then metaworld's envs through each env's actions, and compares every field
    with ==. An async pool (batch_size < num_envs) steps the envs of each batch
    it returns. Returns the number of rows compared ("steps": env steps,
    "resets": auto-resets) and of "truncated" and "terminated" episode ends.
    Skips when task_id is not registered or the reference is not installed."""
    require_task(task_id)
    require_oracle()
    batch_size = batch_size or num_envs
    max_episode_steps = options.get("max_episode_steps")
    reward_function_version = options.get("reward_function_version", "v2")
    pool = envpool_lite.make(task_id, env_type="gymnasium", num_envs=num_envs, batch_size=batch_size, seed=seed, **options)
    try:
        space = pool.single_action_space
        assert space.shape == (ACTION_SIZE,) and space.dtype == np.float32, space
        assert np.all(space.low == -1) and np.all(space.high == 1), space
        obs_space = pool.single_observation_space
        assert obs_space.shape == (OBS_SIZE,) and obs_space.dtype == np.float64, obs_space
        first_obs, actions_per_env, outputs = _pool_run(pool, steps, num_envs, batch_size, np.random.default_rng(seed))
    finally:
        pool.close()
    ref = run_reference(task_id, [seed + i for i in range(num_envs)], actions_per_env, max_episode_steps, reward_function_version)
    return _compare(task_id, ref, first_obs, outputs, [seed + i for i in range(num_envs)])


def _compare(task_id: str, ref: dict[str, Any], first_obs: list, outputs: list, seeds: Sequence[int]) -> dict[str, int]:
    """Every field of the pool's rows against the reference's, with ==."""
    env_keys = set(ref["env_info_keys"])
    counts = {"steps": 0, "resets": 0, "truncated": 0, "terminated": 0}
    for i, (want, got_rows) in enumerate(zip(ref["envs"], outputs)):
        where = f"{task_id} env {i} (seed {seeds[i]})"
        assert first_obs[i] is not None, f"{where}: the pool never returned its reset"
        assert np.array_equal(first_obs[i], want["first_obs"]), _obs_diff(f"{where} first reset", first_obs[i], want["first_obs"])
        assert len(got_rows) == len(want["obs"]), (len(got_rows), len(want["obs"]))
        for k, (obs, reward, terminated, truncated, info) in enumerate(got_rows):
            at = f"{where} row {k}"
            assert np.array_equal(obs, want["obs"][k]), _obs_diff(at, obs, want["obs"][k])
            if want["is_reset"][k]:  # NEXT_STEP auto-reset: the row after an episode end
                assert reward == 0 and not terminated and not truncated, f"{at} (reset): reward {reward!r}, terminated {terminated}, truncated {truncated}"
                if "elapsed_step" in info:
                    assert info["elapsed_step"] == 0, f"{at} (reset): elapsed_step {info['elapsed_step']}"
                counts["resets"] += 1
                continue
            assert np.float64(reward) == want["reward"][k], f"{at}: reward {reward!r} != {want['reward'][k]!r} ({want['reward_type'][k]})"
            assert terminated == want["terminated"][k], f"{at}: terminated {terminated} != {want['terminated'][k]}"
            assert truncated == want["truncated"][k], f"{at}: truncated {truncated} != {want['truncated'][k]}"
            keys = set(info) - POOL_INFO
            assert keys == env_keys, f"{at}: info keys {sorted(keys)} != the env's {sorted(env_keys)} (ignored: the wrappers' {ref['wrapper_info_keys']}, the pool's {sorted(POOL_INFO)})"
            for key in sorted(env_keys):
                value = want["info"][key][k]
                assert np.float64(info[key]) == value, f"{at}: info[{key!r}] {info[key]!r} != {value!r} ({want['info_type'][key][k]})"
            if "elapsed_step" in info:
                assert info["elapsed_step"] == want["elapsed"][k], f"{at}: elapsed_step {info['elapsed_step']} != {want['elapsed'][k]}"
            counts["steps"] += 1
            if want["terminated"][k]:
                counts["terminated"] += 1
            elif want["truncated"][k]:
                counts["truncated"] += 1
    return counts


def benchmark_copies(task_id: str, num_envs: int, seed: int, meta_batch_size: int = 20) -> tuple[list[int], list[int]]:
    """Each pool env's sub-env p = i mod B in its copy of metaworld's vector
    env, and that copy's seed (seed + i - p)."""
    from envpool_lite.families.metaworld import benchmark_block

    block = benchmark_block(task_id, {"meta_batch_size": meta_batch_size})
    positions = [i % block for i in range(num_envs)]
    return positions, [seed + i - positions[i] for i in range(num_envs)]


def run_benchmark_aligned(
    task_id: str, steps: int, num_envs: int, batch_size: int | None = None, seed: int = 7, policy: Callable[[np.ndarray], np.ndarray] | None = None, **options: Any
) -> dict[str, int]:
    """run_aligned for a benchmark pool (Meta-World/MT10, .../ML10-train, ...):
    env i of the pool is sub-env p = i mod B of metaworld's vector env of the
    benchmark seeded seed + i - p (B: its sub-envs, a task count for MT,
    meta_batch_size for ML). options: the benchmark's (env_name, use_one_hot,
    meta_batch_size, total_tasks_per_cls, sample_tasks_on_reset,
    terminate_on_success), max_episode_steps, reward_function_version.
    policy (a sync pool only): actions = policy(observations) plus uniform
    noise of 0.3, clipped, so that episodes can end in success."""
    require_task(task_id)
    require_oracle()
    batch_size = batch_size or num_envs
    pool = envpool_lite.make(task_id, env_type="gymnasium", num_envs=num_envs, batch_size=batch_size, seed=seed, **options)
    try:
        first_obs, actions_per_env, outputs = _pool_run(pool, steps, num_envs, batch_size, np.random.default_rng(seed), policy)
    finally:
        pool.close()
    positions, copy_seeds = benchmark_copies(task_id, num_envs, seed, options.get("meta_batch_size", 20))
    kwargs = {k: v for k, v in options.items() if k not in ("max_episode_steps", "reward_function_version", "num_threads")}
    ref = run_reference(
        "",
        copy_seeds,
        actions_per_env,
        options.get("max_episode_steps"),
        options.get("reward_function_version", "v2"),
        benchmark=task_id,
        positions=positions,
        benchmark_kwargs=kwargs,
    )
    return _compare(task_id, ref, first_obs, outputs, copy_seeds)


def _obs_diff(where: str, got: np.ndarray, want: np.ndarray) -> str:
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return f"{where}: obs shape {got.shape} != {want.shape}"
    bad = np.flatnonzero(got != want)
    return f"{where}: obs differs at {bad.tolist()} by up to {np.abs(got - want).max()!r}:\n{got[bad].tolist()}\n{want[bad].tolist()}"


def run_render_aligned(task_id: str, steps: int, rows: Sequence[int], num_envs: int = 1, seed: int = 7, benchmark_kwargs: dict[str, Any] | None = None, **options: Any) -> int:
    """render() of a sync pool of task_id (a task or, with benchmark_kwargs, a
    benchmark id) against the reference env's own render() (gymnasium's
    MujocoRenderer on mujoco 3.3.0) with ==, after the first reset and after
    each of the given step rows (random actions, time-limit resets on the
    way). options: make()'s (camera_name, render_camera_id, render_width,
    render_height, max_episode_steps, ...). Returns the frames compared."""
    require_task(task_id)
    require_oracle()

    render_names = {"camera_name": "camera_name", "render_camera_id": "camera_id", "render_width": "width", "render_height": "height"}
    render_kwargs: dict[str, Any] = {"render_mode": "rgb_array"}
    for ours, theirs in render_names.items():
        if ours in options:
            render_kwargs[theirs] = options[ours]
    pool = envpool_lite.make(task_id, env_type="gymnasium", num_envs=num_envs, seed=seed, render_mode="rgb_array", **options, **(benchmark_kwargs or {}))
    rng = np.random.default_rng(seed)
    everyone = np.arange(num_envs)
    try:
        pool.reset()
        frames = [pool.render(everyone)]
        actions = rng.uniform(-1, 1, (steps, num_envs, ACTION_SIZE)).astype(np.float32)
        for t in range(steps):
            pool.step(actions[t])
            if t in rows:
                frames.append(pool.render(everyone))
    finally:
        pool.close()
    got = np.stack(frames, axis=1)  # [env, frame, H, W, 3]
    limit = options.get("max_episode_steps")
    version = options.get("reward_function_version", "v2")
    per_env = list(actions.transpose(1, 0, 2))
    if benchmark_kwargs is not None:
        positions, seeds = benchmark_copies(task_id, num_envs, seed, benchmark_kwargs.get("meta_batch_size", 20))
        ref = run_reference("", seeds, per_env, limit, version, benchmark=task_id, positions=positions, benchmark_kwargs=benchmark_kwargs, render_kwargs=render_kwargs, render_rows=rows)
    else:
        ref = run_reference(task_id, [seed + i for i in range(num_envs)], per_env, limit, version, render_kwargs=render_kwargs, render_rows=rows)
    for i, env in enumerate(ref["envs"]):
        want = env["frames"]
        assert got[i].shape == want.shape, (got[i].shape, want.shape)
        for f in range(len(want)):
            bad = np.argwhere((got[i][f] != want[f]).any(-1))
            assert len(bad) == 0, f"{task_id} env {i} frame {f}: {len(bad)} pixels differ (first at {bad[:3].tolist()}), by up to {np.abs(got[i][f].astype(int) - want[f]).max()}"
    return got.shape[0] * got.shape[1]
