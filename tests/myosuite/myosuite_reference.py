"""The reference side of the myosuite family's tests: myosuite 2.12.2's own
envs, run in a subprocess with PYTHONPATH=build/compat/myosuite_oracle (its
pins, mujoco 3.6.0 and gymnasium 1.2.2, cannot live in the venv).

Commands (JSON on stdin, JSON on stdout):
  registry: every id myosuite registers, with its entry point, time limit
    and kwargs (numpy arrays as lists, functions by name).
  colored_noise: a list of {"seed", "beta", "rows", "steps", "scale",
    "draws"}: pink-noise-rl's samples (colored_noise() says how).
  rollout: a list of {"task_id", "seeds", "actions" (per env, per step:
    the float32 action's bytes, base64), "kwargs", "max_episode_steps",
    "numpy_global_seed" (np.random.seed(s) first: run track's rough noise)}:
    each env made with gym.make(id, seed=s, **kwargs), reset, driven with its
    actions (rollout() says how); every observation, reward, flag and the
    info fields the tests compare (float32 and float64 arrays as base64
    bytes, scalars as JSON numbers: bit-exact round trips)."""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import sys
from typing import Any

import numpy as np


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.floating, np.integer, np.bool_)):
        return value.item()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if callable(value):
        return f"<function {getattr(value, '__name__', '?')}>"
    return value


def _quiet_import():
    with contextlib.redirect_stdout(io.StringIO()):
        import gymnasium
        import myosuite  # noqa: F401
    return gymnasium


def registry() -> dict[str, Any]:
    gym = _quiet_import()
    import myosuite

    root = os.path.dirname(os.path.abspath(myosuite.__file__))
    out = {}
    for task_id, spec in gym.registry.items():
        entry = spec.entry_point
        if not isinstance(entry, str) or not entry.startswith("myosuite"):
            continue
        kwargs = dict(spec.kwargs)
        if entry == "myosuite.envs.myo.myodm.myodm_v0:TrackEnv":
            # TrackEnv opens its model_path (and obsd_model_path) appended to
            # its module's folder ("/../assets/..."); its reference is a dict
            # or the path of a file, which this family takes as
            # reference_path (relative to the myosuite package, normalised).
            here = os.path.join(root, "envs", "myo", "myodm")
            for key in ("model_path", "obsd_model_path"):
                if isinstance(kwargs.get(key), str):
                    kwargs[key] = os.path.relpath(os.path.normpath(here + kwargs[key]), root)
            if isinstance(kwargs.get("reference"), str):
                kwargs["reference_path"] = os.path.relpath(os.path.normpath(kwargs.pop("reference")), root)
        for key in ("model_path", "obsd_model_path", "init_pose_path"):
            path = kwargs.get(key)
            if isinstance(path, str) and os.path.isabs(path):
                # relative to the myosuite package, normalised
                kwargs[key] = os.path.relpath(os.path.normpath(path), root)
        out[task_id] = {"entry_point": entry, "max_episode_steps": spec.max_episode_steps, "kwargs": _plain(kwargs)}
    return out


def _b64(a: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(a).tobytes()).decode()


def _arrays(obs, info) -> dict[str, Any]:
    out = {"obs": _b64(np.asarray(obs, np.float32))}
    for key in ("time", "rwd_dense", "rwd_sparse", "solved", "done"):
        if key in info:
            out[key] = float(np.asarray(info[key]).reshape(-1)[0])
    if "obs_dict" in info:
        out["obs_dict"] = {k: _b64(np.asarray(v, np.float64).reshape(-1)) for k, v in info["obs_dict"].items()}
    if "rwd_dict" in info:
        out["rwd_dict"] = {k: float(np.asarray(v).reshape(-1)[0]) for k, v in info["rwd_dict"].items()}
    return out


def rollout(request: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """One task's envs, each made with gym.make(task_id, seed=s, **kwargs),
    reset, then driven as a NEXT_STEP pool drives it: each action steps the
    env, except the action after an episode end, which is spent on the
    reset (as the pool's auto-reset spends it)."""
    gym = _quiet_import()
    kwargs = dict(request.get("kwargs", {}))
    if isinstance(kwargs.get("reference"), dict):
        # MyoDM's reference dict: numpy arrays, as myosuite registers it
        # (JSON brings lists).
        kwargs["reference"] = {k: np.asarray(v) for k, v in kwargs["reference"].items()}
    for key in ("start_center", "goal_center", "start_shifts", "goal_shifts"):
        if isinstance(kwargs.get(key), list):
            # BimanualEnvV1's: numpy arrays, as its defaults are (a list
            # breaks its obs dict: expand_dims indexes it with a tuple).
            kwargs[key] = np.asarray(kwargs[key])
    if request.get("max_episode_steps"):
        kwargs["max_episode_steps"] = request["max_episode_steps"]
    result = []
    for seed, actions in zip(request["seeds"], request["actions"]):
        if request.get("numpy_global_seed"):
            # RunTrack's rough track draws from numpy's global generator,
            # which nothing else draws from: seeded as the env seeds its own.
            np.random.seed(seed % 2**32)
        with contextlib.redirect_stdout(io.StringIO()):
            env = gym.make(request["task_id"], seed=seed, **kwargs)
            obs, _ = env.reset()
        steps = [{"reset": True, **_arrays(obs, env.unwrapped.get_env_infos())}]
        ended = False
        for a in actions:
            with contextlib.redirect_stdout(io.StringIO()):
                if ended:
                    obs, _ = env.reset()
                    steps.append({"reset": True, **_arrays(obs, env.unwrapped.get_env_infos())})
                    ended = False
                    continue
                action = np.frombuffer(base64.b64decode(a), np.float32).copy()
                obs, reward, terminated, truncated, info = env.step(action)
            steps.append({"reward": float(reward), "terminated": bool(terminated), "truncated": bool(truncated), **_arrays(obs, info)})
            ended = terminated or truncated
        env.close()
        result.append(steps)
    return result


def render(request: dict[str, Any]) -> list[str]:
    """One env, gym.make(task_id, seed=s, **kwargs), reset and stepped with
    its actions (reset after an episode end, as rollout() does); after the
    reset and each step, the frame of myosuite's offscreen renderer
    (env.unwrapped.mj_renderer.render_offscreen) at the size and camera
    asked, as base64 bytes."""
    gym = _quiet_import()
    if request.get("numpy_global_seed"):  # as rollout() seeds it
        np.random.seed(request["seed"] % 2**32)
    with contextlib.redirect_stdout(io.StringIO()):
        env = gym.make(request["task_id"], seed=request["seed"], **request.get("kwargs", {}))
        env.reset()
    renderer = env.unwrapped.mj_renderer
    w, h, camera = request["width"], request["height"], request["camera_id"]
    frames = [_b64(renderer.render_offscreen(width=w, height=h, camera_id=camera))]
    ended = False
    for a in request["actions"]:
        action = np.frombuffer(base64.b64decode(a), np.float32).copy()
        with contextlib.redirect_stdout(io.StringIO()):
            if ended:  # the action after an episode end is spent on the reset, as in rollout()
                env.reset()
                ended = False
            else:
                _, _, terminated, truncated, _ = env.step(action)
                ended = terminated or truncated
        frames.append(_b64(renderer.render_offscreen(width=w, height=h, camera_id=camera)))
    env.close()
    return frames


def colored_noise(request: dict[str, Any]) -> str:
    """pink-noise-rl's ColoredNoiseProcess(beta, size=(rows, steps), scale,
    rng=default_rng(seed)), as ChaseTag's and Soccer's opponents make it:
    its first `draws` samples, (draws, rows) float64 bytes, base64."""
    import pink

    rng = np.random.default_rng(request["seed"])
    noise = pink.ColoredNoiseProcess(beta=request["beta"], size=(request["rows"], request["steps"]), scale=request["scale"], rng=rng)
    return _b64(np.array([noise.sample() for _ in range(request["draws"])], np.float64))


def rollouts(request: list[dict[str, Any]]) -> list[Any]:
    """Several tasks' rollouts in one process; an error is reported per task."""
    out = []
    for task in request:
        try:
            out.append(rollout(task))
        except Exception as e:  # noqa: BLE001 - reported to the test
            out.append({"error": f"{type(e).__name__}: {e}"})
    return out


def main() -> None:
    command = sys.argv[1]
    request = json.loads(sys.stdin.read() or "{}")
    if command == "registry":
        result: Any = registry()
    elif command == "render":
        result = [render(r) for r in request]
    elif command == "colored_noise":
        result = [colored_noise(r) for r in request]
    else:
        result = rollouts(request)
    sys.stdout.write(json.dumps(result))


if __name__ == "__main__":
    main()
