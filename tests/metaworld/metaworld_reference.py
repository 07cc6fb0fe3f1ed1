"""Meta-World's own envs, stepped through given actions: the reference side of
tests/metaworld/metaworld_alignment.py, run in a subprocess with
PYTHONPATH=build/compat/metaworld_oracle (metaworld 3.1.1 on the mujoco it
pins, 3.3.0, which shadows the venv's; numpy, scipy and gymnasium are the
venv's own).

    python tests/metaworld/metaworld_reference.py request.npz result.npz

request.npz: env_name (str), seeds (int64 [n]), max_episode_steps (int64,
-1 for metaworld's default), reward_function_version (str: "v2" or "v1"),
and actions_<i> (float32 [T_i, 4]), the actions env i receives, in order.

With benchmark (str, optional: a benchmark id such as "Meta-World/MT10"),
positions (int64 [n]) and benchmark_kwargs (a JSON dict: env_name,
use_one_hot, meta_batch_size, ...), env i is instead sub-env positions[i] of
gymnasium.make_vec(benchmark, vector_strategy="sync", seed=seeds[i],
**benchmark_kwargs) (one vector env per distinct seed; Meta-World/MT1 is
gymnasium.make's single env), each stepped on its own; an ML sub-env's first
reset is its sample_tasks() (metaworld's ML envs have no task before it).

With render_kwargs (a JSON dict: render_mode="rgb_array" and the env's
camera_name, camera_id, width, height) and render_rows (int64 [r]), each env
also records env.render() after its first reset and after each listed row:
env<i>__frames uint8 [1 + r, H, W, 3].

Otherwise env i is `metaworld.make_mt_envs(env_name, seed=seeds[i],
max_episode_steps=..., reward_function_version=...)` (MT1: its 50 goals,
partially_observable=False, a task drawn at each reset from the env's
np_random, TimeLimit), reset once without a seed (the seed is given at
construction, as make_mt_envs does). Then for each action: if the previous
row ended an episode (terminated or truncated) the env is reset() and the row
records the reset observation (the action is not used, as the pool's
NEXT_STEP auto-reset ignores it), else the row records step(action).

result.npz, for env i (rows k = 0 .. T_i - 1, one per action):
  env<i>__first_obs       float64 [39]     the observation of the first reset
  env<i>__first_rand_vec  float64 [d]      the task's goal vector at that reset
  env<i>__obs             float64 [T, 39]
  env<i>__reward          float64 [T]      (0 on reset rows)
  env<i>__reward_type     str [T]          the reward's Python type per row
                                           ("float", "float32", "float64";
                                           "" on reset rows)
  env<i>__terminated, env<i>__truncated, env<i>__is_reset   bool [T]
  env<i>__elapsed         int64 [T]        TimeLimit's step count after the row
                                           (0 on reset rows)
  env<i>__rand_vec        float64 [T, d]   the goal vector drawn at a reset
                                           row (NaN elsewhere)
  env<i>__info__<key>     float64 [T]      each of the env's own info fields
                                           (NaN on reset rows): bool, int,
                                           float32 and float values are all
                                           exact in float64
  env<i>__info_type__<key> str [T]         its Python type per row ("" on
                                           reset rows)
and for all envs:
  env_info_keys           str [k]  the keys of the unwrapped env's step info
  wrapper_info_keys       str [m]  the keys metaworld's wrappers added to it
                                   (RecordEpisodeStatistics' "episode" at
                                   episode ends): not part of the env
  reset_info_keys         str [r]  the keys of reset()'s info (none)
  versions                str [3]  metaworld, mujoco, numpy
  make_seconds            float64 [n]  time to make each env
  step_seconds            float64 [n]  time of each env's loop (resets
                                       included)
"""

from __future__ import annotations

import json
import sys
import time
import warnings

import numpy as np


def _load_request(path: str) -> dict:
    with np.load(path, allow_pickle=False) as request:
        seeds = [int(s) for s in request["seeds"]]
        return {
            "benchmark": str(request["benchmark"]) if "benchmark" in request else "",
            "positions": [int(p) for p in request["positions"]] if "positions" in request else [0] * len(seeds),
            "benchmark_kwargs": json.loads(str(request["benchmark_kwargs"])) if "benchmark_kwargs" in request else {},
            "render_kwargs": json.loads(str(request["render_kwargs"])) if "render_kwargs" in request else {},
            "render_rows": {int(k) for k in request["render_rows"]} if "render_rows" in request else set(),
            "env_name": str(request["env_name"]),
            "seeds": seeds,
            "max_episode_steps": int(request["max_episode_steps"]),
            "reward_function_version": str(request["reward_function_version"]),
            "actions": [np.asarray(request[f"actions_{i}"], dtype=np.float32) for i in range(len(seeds))],
        }


def make_reference(env_name: str, seed: int, max_episode_steps: int | None, reward_function_version: str, **extra):
    """metaworld's MT1 env of env_name, as make_mt_envs makes it (extra: its
    render arguments)."""
    import metaworld

    kwargs = {"reward_function_version": reward_function_version, **extra}
    if max_episode_steps is not None:
        kwargs["max_episode_steps"] = max_episode_steps
    return metaworld.make_mt_envs(env_name, seed=seed, **kwargs)


def make_benchmark(benchmark: str, seed: int, kwargs: dict):
    """metaworld's vector env of a benchmark id (gymnasium.make_vec(
    "Meta-World/MT10", seed=seed, ...)), as a list of its sub-envs
    (Meta-World/MT1 is a single env in metaworld: a list of one)."""
    import gymnasium
    import metaworld  # noqa: F401  (registers the Meta-World/ ids)

    kwargs = dict(kwargs)
    # Wrapper switches, not constructor arguments (make_ml_envs_train binds
    # terminate_on_success itself): set on each sub-env, as users do with
    # envs.call("toggle_...").
    toggles = {name: kwargs.pop(name) for name in ("terminate_on_success", "sample_tasks_on_reset") if name in kwargs}
    if benchmark == "Meta-World/MT1":
        envs = [gymnasium.make(benchmark, seed=seed, **kwargs)]
    elif benchmark in ("Meta-World/goal_observable", "Meta-World/goal_hidden"):
        # Their entry point takes env_name and seed only (v2 rewards, no
        # TimeLimit of their own: gymnasium.make adds the one asked for).
        assert kwargs.pop("reward_function_version") == "v2", "metaworld's one-goal envs have v2 rewards only"
        envs = [gymnasium.make(benchmark, seed=seed, **kwargs)]
    elif benchmark == "Meta-World/ML1-train":
        # metaworld 3.1.1 registers Meta-World/ML1-train with a lambda that
        # reads the loop's `split` late: the id builds the test split (test
        # goals, terminate_on_success on). The train split is
        # make_ml_envs_train, which the pool's ML1-train follows.
        import metaworld

        name = kwargs.pop("env_name")
        envs = list(metaworld.make_ml_envs_train(name, seed=seed, vector_strategy="sync", **kwargs).envs)
    else:
        envs = list(gymnasium.make_vec(benchmark, vector_strategy="sync", seed=seed, **kwargs).envs)
    for env in envs:
        for name, on in toggles.items():
            env.get_wrapper_attr(f"toggle_{name}")(on)
    return envs


def _time_limit(env):
    import gymnasium

    while not isinstance(env, gymnasium.wrappers.TimeLimit):
        env = env.env
    return env


def run_env(
    env, actions: np.ndarray, env_keys: set[str], wrapper_keys: set[str], reset_keys: set[str], first_reset_samples: bool = False, render_rows: set[int] | frozenset[int] = frozenset()
) -> dict[str, np.ndarray]:
    """Steps one reference env through actions (see the module's doc)."""
    inner = env.unwrapped
    limit = _time_limit(env)
    seen: list[list[str]] = []
    step = inner.step

    def recording_step(action):
        # The unwrapped env's own info keys, before the wrappers add theirs
        # (they add to the same dict); the arithmetic is untouched.
        result = step(action)
        seen.append(list(result[4]))
        return result

    inner.step = recording_step
    steps = len(actions)
    if first_reset_samples:
        # PseudoRandomTaskSelectWrapper (ML): no task until sample_tasks(),
        # which sets the next one and resets.
        obs0, info0 = env.get_wrapper_attr("sample_tasks")()
    else:
        obs0, info0 = env.reset()
    reset_keys.update(info0)
    dim = np.asarray(inner._last_rand_vec).size
    out: dict[str, np.ndarray] = {
        "first_obs": np.asarray(obs0, dtype=np.float64).copy(),
        "first_rand_vec": np.asarray(inner._last_rand_vec, dtype=np.float64).copy(),
        "obs": np.zeros((steps, np.asarray(obs0).size), np.float64),
        "reward": np.zeros(steps, np.float64),
        "terminated": np.zeros(steps, bool),
        "truncated": np.zeros(steps, bool),
        "is_reset": np.zeros(steps, bool),
        "elapsed": np.zeros(steps, np.int64),
        "rand_vec": np.full((steps, dim), np.nan),
    }
    frames = [env.render()] if render_rows else []  # the first reset, then the rows
    reward_type = [""] * steps
    info: dict[str, np.ndarray] = {}
    info_type: dict[str, list[str]] = {}
    done = False
    for k, action in enumerate(actions):
        if done:
            obs, reset_info = env.reset()
            reset_keys.update(reset_info)
            out["obs"][k] = obs
            out["is_reset"][k] = True
            out["rand_vec"][k] = inner._last_rand_vec
            done = False
            if k in render_rows:
                frames.append(env.render())
            continue
        obs, reward, terminated, truncated, step_info = env.step(action.copy())
        own = seen.pop()
        env_keys.update(own)
        wrapper_keys.update(set(step_info) - set(own))
        out["obs"][k] = obs
        out["reward"][k] = reward
        reward_type[k] = type(reward).__name__
        out["terminated"][k] = terminated
        out["truncated"][k] = truncated
        out["elapsed"][k] = limit._elapsed_steps
        for key in own:
            if key not in info:
                info[key] = np.full(steps, np.nan)
                info_type[key] = [""] * steps
            info[key][k] = step_info[key]
            info_type[key][k] = type(step_info[key]).__name__
        done = bool(terminated) or bool(truncated)
        if k in render_rows:
            frames.append(env.render())
    inner.step = step
    if frames:
        out["frames"] = np.stack(frames)
    out["reward_type"] = np.array(reward_type)
    for key in info:
        out[f"info__{key}"] = info[key]
        out[f"info_type__{key}"] = np.array(info_type[key])
    return out


def main(request_path: str, result_path: str) -> None:
    warnings.simplefilter("ignore")
    import metaworld
    import mujoco

    request = _load_request(request_path)
    limit = request["max_episode_steps"]
    result: dict[str, np.ndarray] = {}
    env_keys: set[str] = set()
    wrapper_keys: set[str] = set()
    reset_keys: set[str] = set()
    make_seconds, step_seconds = [], []
    benchmark = request["benchmark"]
    copies: dict[int, list] = {}  # a benchmark's vector env per seed
    for i, (seed, actions) in enumerate(zip(request["seeds"], request["actions"])):
        assert actions.ndim == 2 and actions.shape[1] == 4, f"actions_{i} has shape {actions.shape}, not [T, 4]"
        start = time.perf_counter()
        if benchmark:
            kwargs = dict(request["benchmark_kwargs"], reward_function_version=request["reward_function_version"], **request["render_kwargs"])
            if limit >= 0:
                kwargs["max_episode_steps"] = limit
            if seed not in copies:
                copies[seed] = make_benchmark(benchmark, seed, kwargs)
            env = copies[seed][request["positions"][i]]
        else:
            env = make_reference(request["env_name"], seed, None if limit < 0 else limit, request["reward_function_version"], **request["render_kwargs"])
        make_seconds.append(time.perf_counter() - start)
        start = time.perf_counter()
        out = run_env(env, actions, env_keys, wrapper_keys, reset_keys, first_reset_samples=benchmark.startswith("Meta-World/ML"), render_rows=request["render_rows"])
        step_seconds.append(time.perf_counter() - start)
        if not benchmark:
            env.close()
        result.update({f"env{i}__{name}": value for name, value in out.items()})
    result["env_info_keys"] = np.array(sorted(env_keys), dtype=str)
    result["wrapper_info_keys"] = np.array(sorted(wrapper_keys), dtype=str)
    result["reset_info_keys"] = np.array(sorted(reset_keys), dtype=str)
    result["versions"] = np.array([metaworld.__version__ if hasattr(metaworld, "__version__") else _dist_version("metaworld"), mujoco.__version__, np.__version__])
    result["make_seconds"] = np.array(make_seconds)
    result["step_seconds"] = np.array(step_seconds)
    np.savez(result_path, **result)


def _dist_version(name: str) -> str:
    from importlib.metadata import version

    return version(name)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python tests/metaworld/metaworld_reference.py request.npz result.npz")
    main(sys.argv[1], sys.argv[2])
