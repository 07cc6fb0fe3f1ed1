"""Task options and the EnvSpec: what make() accepts and what a task looks like."""

from __future__ import annotations

import difflib
import operator
import warnings
from types import MappingProxyType
from typing import Any, Mapping, Sequence

import gymnasium
import numpy as np

from envpool_lite import _core

# Options every task accepts (the pool's own), with their defaults.
POOL_DEFAULTS: Mapping[str, Any] = MappingProxyType(
    {
        "num_envs": 1,
        "batch_size": 0,  # 0: num_envs (sync)
        "num_threads": 0,  # 0: min(batch_size, cores)
        "thread_affinity_offset": -1,  # -1: no pinning
        "seed": 42,  # int: env i gets seed + i; or one seed per env
    }
)
MAX_SEED = 2**32 - 1
# Options an env declares for make() to fill, not the user: Atari's game (set
# by the registration) and the path of its ROM in the installed ale-py
# package. They are not listed, accepted, or shown in `config`.
INTERNAL_OPTIONS = frozenset({"game", "rom_path"})


def list_all_envs() -> list[str]:
    """Every task id that make() accepts."""
    return sorted(_core.list_tasks())


def _check_task(task_id: str) -> None:
    tasks = _core.list_tasks()
    if task_id not in tasks:
        close = difflib.get_close_matches(task_id, tasks, n=5, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise ValueError(f"unknown task {task_id!r}{hint} (see envpool_lite.list_all_envs())")


def atari_rom_path(task_id: str, game: str) -> str:
    """The ROM of an Atari game, from the installed ale-py package
    (ale_py.roms; the ALE_ROMS_DIR environment variable overrides its folder).
    Raises FileNotFoundError naming the ROM when it is missing."""
    rom = f"{game}.bin"
    try:
        import ale_py.roms
    except ImportError as e:
        raise FileNotFoundError(f"{task_id} needs the ROM {rom!r} from the ale-py package, which is not importable ({e}); install ale-py (the version pyproject.toml pins)") from None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # get_rom_path warns, then returns None
            path = ale_py.roms.get_rom_path(game)
    except OSError as e:  # a missing file or folder, or a ROM that fails its checksum
        raise FileNotFoundError(f"{task_id}: ROM {rom!r} not found or not usable in ale-py's ROM folder ({e})") from None
    if path is None:
        raise FileNotFoundError(f"{task_id}: ROM {rom!r} is not one that the installed ale-py supports")
    return str(path)


def _as_int(name: str, value: Any) -> int:
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an int, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, got {type(value).__name__}") from None


def _coerce_option(name: str, value: Any, default: Any) -> Any:
    """Give an env option the type of its default, or raise TypeError."""
    if isinstance(default, bool):
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
        raise TypeError(f"option {name!r} must be a bool, got {value!r}")
    if isinstance(default, int):
        return _as_int(f"option {name!r}", value)
    if isinstance(default, float):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise TypeError(f"option {name!r} must be a float, got {value!r}")
        return float(value)
    if isinstance(default, str):
        if not isinstance(value, str):
            raise TypeError(f"option {name!r} must be a str, got {value!r}")
        return value
    return value


def seeds_for(seed: Any, ids: Sequence[int] | np.ndarray, num_envs: int) -> list[int]:
    """gymnasium's convention: an int seeds env i with seed + i, a list gives one
    seed per env."""
    if isinstance(seed, (list, tuple, np.ndarray)):
        seeds = [_as_int("seed", s) for s in seed]
        if len(seeds) != num_envs:
            raise ValueError(f"seed list has {len(seeds)} entries, expected one per env ({num_envs})")
        seeds = [seeds[i] for i in ids]
    else:
        base = _as_int("seed", seed)
        seeds = [base + int(i) for i in ids]
    for s in seeds:
        if not 0 <= s <= MAX_SEED:
            raise ValueError(f"seed {s} out of range [0, 2**32 - 1] (env i gets seed + i)")
    return seeds


def _bound(values: list, shape: tuple, dtype: np.dtype, upper: bool) -> np.ndarray:
    """A Box bound: one value for every element, one per element, or none
    (the dtype's own limit)."""
    if not values:
        limit = (np.iinfo(dtype).max if upper else np.iinfo(dtype).min) if np.issubdtype(dtype, np.integer) else (np.inf if upper else -np.inf)
        return np.full(shape, limit, dtype)
    array = np.asarray(values, np.float64)
    array = np.broadcast_to(array, shape) if array.size == 1 else array.reshape(shape)
    return array.astype(dtype)


def _space(spec: dict) -> gymnasium.spaces.Space:
    """The gymnasium space of one env's array."""
    if spec["num_values"] > 0:
        return gymnasium.spaces.Discrete(spec["num_values"])
    dtype = np.dtype(spec["dtype"])
    shape = tuple(spec["shape"])
    low = _bound(spec["low"], shape, dtype, upper=False)
    high = _bound(spec["high"], shape, dtype, upper=True)
    return gymnasium.spaces.Box(low=low, high=high, shape=shape, dtype=dtype)


class EnvSpec:
    """A task with its options resolved: the config, the spaces and dm_env specs."""

    def __init__(self, task_id: str, config: Mapping[str, Any], internal: Mapping[str, Any] | None = None):
        self.task_id = task_id
        self.config = MappingProxyType(dict(config))
        self._internal = dict(internal or {})  # INTERNAL_OPTIONS, filled by make_spec
        self._arrays = _core.task_spec(task_id, self.env_options)
        self.observation_space = _space(self._arrays["obs"])
        self.action_space = _space(self._arrays["action"])
        self.info_specs = tuple(self._arrays["info"])
        self.max_episode_steps = self._arrays["max_episode_steps"]

    @property
    def env_options(self) -> dict[str, Any]:
        """What the C++ env gets: its options, including the internal ones."""
        return {**{k: v for k, v in self.config.items() if k not in POOL_DEFAULTS}, **self._internal}

    def observation_spec(self):
        import dm_env.specs

        space = self.observation_space
        return dm_env.specs.BoundedArray(space.shape, space.dtype, space.low, space.high, name="obs")

    def action_spec(self):
        import dm_env.specs

        space = self.action_space
        if isinstance(space, gymnasium.spaces.Discrete):
            return dm_env.specs.DiscreteArray(int(space.n), dtype=np.int32, name="action")
        return dm_env.specs.BoundedArray(space.shape, space.dtype, space.low, space.high, name="action")

    def __repr__(self) -> str:
        return f"EnvSpec({self.task_id!r}, {dict(self.config)})"


def make_spec(task_id: str, **kwargs: Any) -> EnvSpec:
    """Resolve and validate a task's options (pool options plus the env's own)."""
    _check_task(task_id)
    all_defaults = _core.task_defaults(task_id)
    env_defaults = {k: v for k, v in all_defaults.items() if k not in INTERNAL_OPTIONS}
    internal = {k: v for k, v in all_defaults.items() if k in INTERNAL_OPTIONS}
    if "vzd_path" in env_defaults:  # ViZDoom: asset paths from the vizdoom package
        from envpool_lite import vizdoom

        kwargs = vizdoom.resolve_options(task_id, env_defaults, kwargs)
    valid = {**POOL_DEFAULTS, **env_defaults}
    unknown = sorted(set(kwargs) - set(valid))
    if unknown:
        raise TypeError(f"unknown option(s) {', '.join(map(repr, unknown))} for {task_id}; valid options: {', '.join(sorted(valid))}")
    config = dict(valid)
    for name, value in kwargs.items():
        if name == "seed":
            config[name] = value if isinstance(value, (list, tuple, np.ndarray)) else _as_int("seed", value)
        elif name in POOL_DEFAULTS:
            config[name] = _as_int(name, value)
        else:
            config[name] = _coerce_option(name, value, env_defaults[name])
    num_envs, batch_size = config["num_envs"], config["batch_size"]
    if num_envs < 1:
        raise ValueError(f"num_envs must be >= 1, got {num_envs}")
    if batch_size == 0:
        config["batch_size"] = batch_size = num_envs
    if not 1 <= batch_size <= num_envs:
        raise ValueError(f"batch_size must be in [1, num_envs={num_envs}] (0 means num_envs), got {batch_size}")
    if config["num_threads"] < 0:
        raise ValueError(f"num_threads must be >= 0, got {config['num_threads']}")
    if config["thread_affinity_offset"] < -1:
        raise ValueError("thread_affinity_offset must be >= 0, or -1 for no pinning")
    if "max_episode_steps" in config and config["max_episode_steps"] < 1:
        raise ValueError(f"max_episode_steps must be >= 1, got {config['max_episode_steps']}")
    seeds_for(config["seed"], range(num_envs), num_envs)  # validates
    if "rom_path" in internal:
        internal["rom_path"] = atari_rom_path(task_id, internal["game"])
    return EnvSpec(task_id, config, internal)
