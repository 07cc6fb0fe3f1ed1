"""A highway pool beside highway-env 1.12.1's own envs, step by step
(tests/highway/test_highway*.py).

The reference is installed by scripts/setup_compat.sh into
build/compat/highway_oracle (make test runs it): highway-env, pandas and
the notifications module it imports; gymnasium, numpy and pygame-ce are the
venv's. Env i of a pool seeded s is ``gymnasium.make(id, config=...)`` reset
with seed s + i, then reset without a seed after each episode end.

At every step of every env: the observation (every array, ``==`` in its
dtype), the reward (float64, ``==``), terminated, truncated and the info
fields (``speed``, ``crashed``, each of ``rewards``), through crashes, arrivals,
time limits and auto-resets.

At a reset, highway-env's info holds ``action_space.sample()`` and the reward
terms computed with it: a draw from the action space's own generator, which
gymnasium seeds from the operating system's entropy (highway-env makes a new
action space at every reset), so no seed reproduces it. The pool's info at a
reset has the no-op action's terms; the test compares a reset's info where
it does not depend on that action.
"""

from __future__ import annotations

import os
import sys
import warnings

import numpy as np
import pytest
from libcompat import COMPAT

import envpool_lite

ORACLE = COMPAT / "highway_oracle"
VERSION = "1.12.1"


def load_reference():
    """highway_env from build/compat/highway_oracle (registers its ids)."""
    if not (ORACLE / "highway_env" / "__init__.py").is_file():
        message = f"highway-env {VERSION} is not installed in {ORACLE} (run: bash scripts/setup_compat.sh)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    if str(ORACLE) not in sys.path:
        sys.path.append(str(ORACLE))
    _stand_in_for_matplotlib()
    import highway_env

    assert highway_env.__version__ == VERSION, highway_env.__version__
    return highway_env


def _stand_in_for_matplotlib():
    """highway-env's vehicle/dynamics.py imports matplotlib.pyplot at the top
    for its plot() helper, which no env calls. Where matplotlib is not
    installed (the clean-room venv of scripts/cleanroom.sh has no reason to
    have it) an empty module stands in, so that the reference imports; any
    use of it would raise AttributeError."""
    import importlib.util
    import types

    if importlib.util.find_spec("matplotlib") is not None:
        return
    matplotlib = types.ModuleType("matplotlib")
    matplotlib.pyplot = types.ModuleType("matplotlib.pyplot")  # type: ignore[attr-defined]
    sys.modules.setdefault("matplotlib", matplotlib)
    sys.modules.setdefault("matplotlib.pyplot", matplotlib.pyplot)  # type: ignore[attr-defined]


def make_reference(task: str, config: dict | None = None, **kwargs):
    """``gymnasium.make(task, config=config)``, with the wrappers gymnasium
    adds (its TimeLimit where highway-env registers one).

    highway-env draws nothing (black frames) when SDL_VIDEODRIVER is
    "dummy", which the classic-control and toy-text renderers set for the
    whole process: the reference's viewer is made without it."""
    import gymnasium

    load_reference()
    os.environ.pop("SDL_VIDEODRIVER", None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return gymnasium.make(task, config=config, **kwargs)


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def sample_actions(space, rng, n):
    """n actions of the pool's action space (gymnasium's), from rng."""
    import gymnasium

    if isinstance(space, gymnasium.spaces.Discrete):
        return rng.integers(0, int(space.n), size=n).astype(space.dtype)
    if isinstance(space, gymnasium.spaces.MultiDiscrete):
        return np.stack([rng.integers(0, space.nvec) for _ in range(n)]).astype(space.dtype)
    if np.issubdtype(space.dtype, np.integer):  # the multi-agent tasks' discrete actions
        return rng.integers(space.low, space.high + 1, size=(n, *space.shape)).astype(space.dtype)
    return rng.uniform(space.low, space.high, size=(n, *space.shape)).astype(space.dtype)


def reference_action(ref, action):
    """The pool's action of one env as highway-env takes it: an int for a
    discrete task, a float32 array for a continuous one, a tuple of these
    for a multi-agent task."""
    import gymnasium

    space = ref.action_space
    if isinstance(space, gymnasium.spaces.Tuple):
        return tuple(reference_action_one(s, a) for s, a in zip(space.spaces, action))
    return reference_action_one(space, action)


def reference_action_one(space, action):
    import gymnasium

    if isinstance(space, gymnasium.spaces.Discrete):
        return int(action)
    return np.asarray(action, dtype=np.float32)


def assert_obs_equal(obs, row, ref_obs, what):
    """The pool's observation of row ``row`` == the reference's."""
    if isinstance(ref_obs, dict):
        for key, value in ref_obs.items():
            assert_array_equal(obs[key][row], value, f"{what}[{key!r}]")
    elif isinstance(ref_obs, tuple):
        assert_array_equal(obs[row], np.stack(ref_obs), what)
    else:
        assert_array_equal(obs[row], ref_obs, what)


def assert_array_equal(ours, ref, what):
    ref = np.asarray(ref)
    ours = np.asarray(ours)
    assert ours.shape == ref.shape, f"{what}: shape {ours.shape} != {ref.shape}"
    assert ours.dtype == ref.dtype, f"{what}: dtype {ours.dtype} != {ref.dtype}"
    if not np.array_equal(ours, ref, equal_nan=True):
        bad = np.argwhere(~((ours == ref) | (np.isnan(ours) & np.isnan(ref)) if ours.dtype.kind == "f" else ours == ref))
        first = tuple(bad[0])
        raise AssertionError(f"{what}: {len(bad)} values differ, first at {first}: {ours[first]!r} != {ref[first]!r}")


def assert_info_equal(info, row, ref_info, what, *, at_reset=False):
    assert info["speed"][row] == ref_info["speed"], f"{what}: speed {info['speed'][row]!r} != {ref_info['speed']!r}"
    assert bool(info["crashed"][row]) == bool(ref_info["crashed"]), f"{what}: crashed"
    if at_reset:
        return
    for name, value in ref_info.get("rewards", {}).items():
        key = f"rewards.{name}"
        assert info[key][row] == value, f"{what}: {key} {info[key][row]!r} != {value!r}"
    # A task's own keys (parking's is_success; the multi-agent tasks' tuples).
    for key, value in ref_info.items():
        if key not in ("speed", "crashed", "action", "rewards") and key in info:
            assert_array_equal(info[key][row], np.asarray(value, dtype=info[key].dtype), f"{what}: info[{key!r}]")


def assert_frames_equal(env, refs, what):
    """render() of every env == the reference's render() (rgb_array)."""
    frames = env.render()
    for i, ref in enumerate(refs):
        assert_array_equal(frames[i], ref.render(), f"{what} env {i} render()")


def run(task: str, config: dict | None = None, *, num_envs: int = 2, steps: int = 60, seed: int = 3, policy_seed: int = 0, actions=None, render: bool = False, **pool_kwargs):
    """The pool and num_envs references side by side for ``steps`` batches;
    returns counts of how episodes ended. With ``render``, the pictures of
    every env after every step too."""
    highway_env = load_reference()  # noqa: F841
    kwargs = {} if config is None else {"config": config}
    render_kwargs = {"render_mode": "rgb_array"} if render else {}
    env = envpool_lite.make_gymnasium(task, num_envs=num_envs, seed=seed, **kwargs, **pool_kwargs, **render_kwargs)
    refs = [make_reference(task, config, **render_kwargs) for _ in range(num_envs)]
    rng = np.random.default_rng(policy_seed)
    stats = {"crashed": 0, "terminated": 0, "truncated": 0, "steps": 0}
    try:
        obs, info = env.reset()
        for i, ref in enumerate(refs):
            ref_obs, ref_info = ref.reset(seed=seed + i)
            assert_obs_equal(obs, i, ref_obs, f"{task} env {i} reset obs")
            assert_info_equal(info, i, ref_info, f"{task} env {i} reset info", at_reset=True)
        if render:
            assert_frames_equal(env, refs, f"{task} reset")
        needs_reset = np.zeros(num_envs, bool)
        for t in range(steps):
            act = sample_actions(env.single_action_space, rng, num_envs) if actions is None else actions(t, num_envs)
            obs, rew, term, trunc, info = env.step(act)
            for i, ref in enumerate(refs):
                what = f"{task} env {i} step {t}"
                if needs_reset[i]:
                    ref_obs, ref_info = ref.reset()
                    assert_obs_equal(obs, i, ref_obs, what + " (auto-reset) obs")
                    assert_info_equal(info, i, ref_info, what + " (auto-reset) info", at_reset=True)
                    continue
                ref_obs, ref_rew, ref_term, ref_trunc, ref_info = ref.step(reference_action(ref, act[i]))
                assert_obs_equal(obs, i, ref_obs, what + " obs")
                assert rew[i] == ref_rew, f"{what}: reward {rew[i]!r} != {ref_rew!r}"
                assert bool(term[i]) == bool(ref_term) and bool(trunc[i]) == bool(ref_trunc), f"{what}: terminated/truncated {term[i]}/{trunc[i]} != {ref_term}/{ref_trunc}"
                assert_info_equal(info, i, ref_info, what + " info")
                stats["steps"] += 1
                stats["crashed"] += bool(ref_info["crashed"])
                stats["terminated"] += bool(ref_term)
                stats["truncated"] += bool(ref_trunc) and not bool(ref_term)
            if render:
                assert_frames_equal(env, refs, f"{task} step {t}")
            needs_reset = term | trunc
    finally:
        env.close()
        for ref in refs:
            ref.close()
    return stats
