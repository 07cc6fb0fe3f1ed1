"""Task options and the EnvSpec: what make() accepts and what a task looks like."""

from __future__ import annotations

import collections
import collections.abc
import difflib
import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np

from envpool_lite import _core, families, refkit
from envpool_lite.options import MAX_RENDER_SIZE, POOL_DEFAULTS, RENDER_DEFAULTS, as_int, seeds_for


def list_all_envs() -> list[str]:
    """Every task id that make() accepts."""
    return sorted(_core.list_tasks())


def _check_task(task_id: str) -> None:
    tasks = _core.list_tasks()
    if task_id not in tasks:
        close = difflib.get_close_matches(task_id, tasks, n=5, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise ValueError(f"unknown task {task_id!r}{hint} (see envpool_lite.list_all_envs())")


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def _is_sequence(value: Any) -> bool:
    """A list, tuple or array (a str is not a sequence of options)."""
    return isinstance(value, (collections.abc.Sequence, np.ndarray)) and not isinstance(value, (str, bytes))


def _numbers(name: str, value: Any, what: str) -> tuple[float, ...]:
    if not _is_sequence(value) or not all(_is_number(v) for v in value):
        raise TypeError(f"option {name!r} must be {what}, got {value!r}")
    return tuple(float(v) for v in value)


def _coerce_option(name: str, value: Any, kind: str, default: Any) -> Any:
    """An env option as the type its env declares (``kind``, the name of its
    C++ type: _core.task_options), or TypeError naming it."""
    if kind == "bool":
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
        raise TypeError(f"option {name!r} must be a bool, got {value!r}")
    if kind == "int":
        return as_int(f"option {name!r}", value)  # its range: the env's MakeSpec
    if kind == "float":
        if not _is_number(value):
            raise TypeError(f"option {name!r} must be a float, got {value!r}")
        return float(value)
    if kind == "str":
        if not isinstance(value, str):
            raise TypeError(f"option {name!r} must be a str, got {value!r}")
        return value
    if kind == "number_list":  # e.g. a (low, high) range: as many as the default
        what = f"a tuple of {len(default)} numbers" if default else "a tuple of numbers"
        numbers = _numbers(name, value, what)
        # () goes on to the env, which says whether it takes none (a
        # family's form of None, e.g. a random position).
        if default and numbers and len(numbers) != len(default):
            raise TypeError(f"option {name!r} must be {what}, got {value!r}")
        return numbers
    if kind == "string_list":
        if not _is_sequence(value) or not all(isinstance(v, str) for v in value):
            raise TypeError(f"option {name!r} must be a list of str, got {value!r}")
        return tuple(value)
    if kind == "named_numbers":
        if not isinstance(value, collections.abc.Mapping) or not all(isinstance(k, str) for k in value):
            raise TypeError(f"option {name!r} must be a dict {{str: tuple of numbers}}, got {value!r}")
        return {k: _numbers(f"{name}[{k!r}]", v, "a tuple of numbers") for k, v in value.items()}
    if kind == "int_keyed_numbers":
        if not isinstance(value, collections.abc.Mapping) or not all(isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_)) for k in value):
            raise TypeError(f"option {name!r} must be a dict {{int: number}}, got {value!r}")
        out = {}
        for k, v in value.items():
            if not _is_number(v):
                raise TypeError(f"option {name!r}[{k!r}] must be a number, got {v!r}")
            out[int(k)] = float(v)
        return out
    raise TypeError(f"option {name!r} has a type envpool_lite does not know ({kind})")


def _bound(values: list, shape: tuple, dtype: np.dtype, upper: bool) -> np.ndarray:
    """A Box bound: one value for every element, one per element, or none
    (the dtype's own limit)."""
    if not values:
        limit = (np.iinfo(dtype).max if upper else np.iinfo(dtype).min) if np.issubdtype(dtype, np.integer) else (np.inf if upper else -np.inf)
        return np.full(shape, limit, dtype)
    array = np.asarray(values, np.float64)
    array = np.broadcast_to(array, shape) if array.size == 1 else array.reshape(shape)
    return array.astype(dtype)


class Config(collections.abc.Mapping):
    """A task's resolved options: a read-only mapping that also reads as
    attributes (``config["num_envs"]`` and ``config.num_envs``), like the
    namedtuple EnvPool's ``spec.config`` is (``_asdict()`` included)."""

    __slots__ = ("_values",)

    def __init__(self, values: Mapping[str, Any]):
        object.__setattr__(self, "_values", dict(values))

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self):
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "_values":
            raise AttributeError(name)
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"config has no option {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("config is read-only: options are fixed at make()")

    def __dir__(self):
        return [*self._values, "_asdict"]

    def _asdict(self) -> dict[str, Any]:
        return dict(self._values)

    def __reduce__(self):
        return (Config, (self._values,))

    def __repr__(self) -> str:
        return "Config(" + ", ".join(f"{k}={v!r}" for k, v in self._values.items()) + ")"


class ArraySpec:
    """One array of a task as EnvPool's ``action_array_spec`` and
    ``state_array_spec`` describe it: dtype, per-env shape (-1 for a
    per-player dimension), minimum, maximum and whether it is discrete."""

    __slots__ = ("dtype", "shape", "minimum", "maximum", "is_discrete")

    def __init__(self, dtype: Any, shape: Sequence[int], minimum: Any, maximum: Any, is_discrete: bool = False):
        self.dtype = np.dtype(dtype).type
        self.shape = list(shape)
        self.minimum = minimum
        self.maximum = maximum
        self.is_discrete = is_discrete

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, ArraySpec):
            return NotImplemented
        return all(np.array_equal(getattr(self, k), getattr(other, k)) for k in self.__slots__)

    def __repr__(self) -> str:
        return f"ArraySpec(dtype={np.dtype(self.dtype).name}, shape={self.shape}, minimum={self.minimum!r}, maximum={self.maximum!r}, is_discrete={self.is_discrete})"


def _array_spec(spec: dict) -> ArraySpec:
    dtype = np.dtype(spec["dtype"])
    info = np.iinfo(dtype) if np.issubdtype(dtype, np.integer) else None

    def bound(values: list, default: float) -> Any:
        if not values:
            return default
        return dtype.type(values[0]) if len(values) == 1 else np.asarray(values, dtype)

    low = bound(spec["low"], info.min if info else (False if dtype == np.bool_ else -np.inf))
    high = bound(spec["high"], info.max if info else (True if dtype == np.bool_ else np.inf))
    return ArraySpec(dtype, spec["shape"], low, high, spec["num_values"] > 0)


def _scalar_spec(dtype: Any, low: Any = None, high: Any = None, shape: Sequence[int] = ()) -> ArraySpec:
    dtype = np.dtype(dtype)
    info = np.iinfo(dtype) if np.issubdtype(dtype, np.integer) else None
    low = low if low is not None else (info.min if info else (False if dtype == np.bool_ else -np.inf))
    high = high if high is not None else (info.max if info else (True if dtype == np.bool_ else np.inf))
    return ArraySpec(dtype, shape, low, high)


def _dm_spec(name: str, spec: ArraySpec):
    import dm_env.specs

    if spec.is_discrete:
        return dm_env.specs.DiscreteArray(int(spec.maximum) + 1, dtype=spec.dtype, name=name)
    shape = tuple(s for s in spec.shape if s != -1)
    return dm_env.specs.BoundedArray(shape, spec.dtype, spec.minimum, spec.maximum, name=name)


def _space(spec: dict) -> gymnasium.spaces.Space:
    """The gymnasium space of one env's array."""
    if spec["num_values"] > 0:
        return gymnasium.spaces.Discrete(spec["num_values"])
    dtype = np.dtype(spec["dtype"])
    shape = tuple(spec["shape"])
    low = _bound(spec["low"], shape, dtype, upper=False)
    high = _bound(spec["high"], shape, dtype, upper=True)
    return gymnasium.spaces.Box(low=low, high=high, shape=shape, dtype=dtype)


def nest_keys(items: Iterable[tuple[str, Any]]) -> collections.OrderedDict:
    """(key, value) pairs as a dict, in order, with the keys "a/b" nested:
    {"a": {"b": value}}."""
    out: collections.OrderedDict = collections.OrderedDict()
    for key, value in items:
        *path, last = key.split("/")
        node = out
        for part in path:
            node = node.setdefault(part, collections.OrderedDict())
        node[last] = value
    return out


def _dict_space(spaces: Mapping[str, Any]) -> gymnasium.spaces.Dict:
    return gymnasium.spaces.Dict(collections.OrderedDict((k, _dict_space(v) if isinstance(v, Mapping) else v) for k, v in spaces.items()))


class EnvSpec:
    """A task with its options resolved: the config, the spaces and dm_env
    specs, and EnvPool's spec surface (``action_array_spec``,
    ``state_array_spec``, ``reward_threshold``)."""

    def __init__(
        self, task_id: str, config: Mapping[str, Any], internal: Mapping[str, Any] | None = None, *, pool_options: _core.PoolOptions | None = None, env_option_names: frozenset[str] | None = None
    ):
        self.task_id = task_id
        self.id = task_id  # gymnasium's EnvSpec.id (SB3 and RecordVideo read it)
        self.config = Config(config)
        self._internal = dict(internal or {})  # the family's internal options, filled by make_spec
        # The options the task's env takes (make_spec knows them; else asked).
        self._env_option_names = frozenset(_core.task_options(task_id)) if env_option_names is None else env_option_names
        # The typed options of the C++ task and pool, each made once: the
        # task's Config and spec (_core.Task), and the pool's options, seeds
        # included (_core.PoolOptions: checked in C++, batch_size resolved).
        self.task = _core.Task(task_id, self.env_options)
        if pool_options is None:
            pool_options = pool_options_of(self.config)
        self.pool_options: _core.PoolOptions = pool_options
        self._arrays = self.task.spec
        # Players (docs/how-it-works.md): a task of several players has a
        # player axis first in its observation and its reward.
        self.num_players: int = self._arrays["num_players"]
        asked = self.config["max_num_players"]
        if asked is None:
            self.config = Config({**config, "max_num_players": self.num_players})
        elif asked != self.num_players:
            raise ValueError(f"max_num_players must be {self.num_players} for {task_id} (the players of its game), got {asked}")
        # A dict observation's keys, in order; () for an array observation.
        self.obs_keys: tuple[str, ...] = tuple(a["name"] for a in self._arrays["obs_dict"])
        # An array observation's name in the dm face's observation: "obs",
        # or the name the env gives its one array.
        self.obs_name: str = self._arrays["obs"]["name"] or "obs"
        self.observation_space: gymnasium.spaces.Space
        if self.obs_keys:
            # An OrderedDict: gymnasium's Dict would sort a dict's keys. Keys
            # "a/b" are key b of a dict at key a (a nested observation, as
            # Franka Kitchen's goals are).
            spaces = nest_keys((a["name"], _space(a)) for a in self._arrays["obs_dict"])
            self.observation_space = _dict_space(spaces)
        else:
            self.observation_space = _space(self._arrays["obs"])
        self.action_space = _space(self._arrays["action"])
        self.info_specs = tuple(self._arrays["info"])
        self.max_episode_steps = self._arrays["max_episode_steps"]
        self.render_shape = tuple(self._arrays["render_shape"])  # (0, 0): drawn in Python
        # float32 (EnvPool's), or float64 for tasks whose rewards are exact
        # float64 values (as gymnasium gives them).
        self.reward_dtype = np.dtype(self._arrays["reward_dtype"])

    @property
    def reward_threshold(self) -> float | None:
        """The return at which the task counts as solved: gymnasium's, for the
        tasks gymnasium registers under the same id, else None."""
        registered = gymnasium.envs.registry.get(self.task_id)
        return None if registered is None else registered.reward_threshold

    @property
    def gymnasium_observation_space(self) -> gymnasium.spaces.Space:
        """EnvPool's name for observation_space (its EnvSpec has both)."""
        return self.observation_space

    @property
    def gymnasium_action_space(self) -> gymnasium.spaces.Space:
        """EnvPool's name for action_space (its EnvSpec has both)."""
        return self.action_space

    @property
    def action_array_spec(self) -> dict[str, ArraySpec]:
        """EnvPool's action arrays: env_id, players.env_id and action."""
        return {
            "env_id": _scalar_spec(np.int32),
            "players.env_id": _scalar_spec(np.int32, shape=(-1,)),
            "action": _array_spec(self._arrays["action"]),
        }

    @property
    def state_array_spec(self) -> dict[str, ArraySpec]:
        """EnvPool's state arrays: obs, every info field as "info:<name>",
        and the step fields (elapsed_step, done, reward, discount, step_type,
        trunc)."""
        if self.obs_keys:
            states = {f"obs:{a['name']}": _array_spec(a) for a in self._arrays["obs_dict"]}
        else:
            states = {"obs": _array_spec(self._arrays["obs"])}
        states["info:env_id"] = _scalar_spec(np.int32)
        states["info:players.env_id"] = _scalar_spec(np.int32, shape=(-1,))
        for info in self.info_specs:
            states[f"info:{info['name']}"] = _array_spec(info)
        states["elapsed_step"] = _scalar_spec(np.int32)
        states["done"] = _scalar_spec(np.bool_)
        states["reward"] = _scalar_spec(self.reward_dtype, shape=(self.num_players,) if self.num_players > 1 else ())
        states["discount"] = _scalar_spec(np.float32, 0.0, 1.0)
        states["step_type"] = _scalar_spec(np.int32, 0, 2)
        states["trunc"] = _scalar_spec(np.bool_)
        return states

    def with_internal(self, **values: Any) -> EnvSpec:
        """This spec with some of its family's internal options set: the
        hooks the ``envpool`` module asks for (EnvPool's behaviour where an
        env can give it only on request). Unknown names raise ValueError."""
        unknown = sorted(set(values) - set(self._internal))
        if unknown:
            raise ValueError(f"{self.task_id} has no internal option(s) {', '.join(map(repr, unknown))}")
        return EnvSpec(self.task_id, self.config, {**self._internal, **values}, pool_options=self.pool_options, env_option_names=self._env_option_names)

    # A copy or a pickle (gymnasium's wrappers deepcopy a spec) makes the C++
    # task again from the options.
    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        del state["task"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.task = _core.Task(self.task_id, self.env_options)

    @property
    def env_options(self) -> dict[str, Any]:
        """What the C++ env gets: its options, including the internal ones."""
        own = self._env_option_names  # render options go to an env that takes them
        return {**{k: v for k, v in self.config.items() if k not in POOL_DEFAULTS and (k not in RENDER_DEFAULTS or k in own)}, **self._internal}

    def observation_spec(self):
        """dm_env specs with the structure of ``TimeStep.observation``: a
        namedtuple of obs (or a dict observation's keys, in order), env_id,
        elapsed_step, the env's info fields and players (a namedtuple of
        env_id)."""
        import dm_env.specs

        if self.obs_keys:
            specs = dict(nest_keys((a["name"], _dm_spec(a["name"].rsplit("/", 1)[-1], _array_spec(a))) for a in self._arrays["obs_dict"]))
        else:
            specs = {self.obs_name: _dm_spec(self.obs_name, _array_spec(self._arrays["obs"]))}
        specs["env_id"] = dm_env.specs.Array((), np.int32, name="env_id")
        specs["elapsed_step"] = dm_env.specs.Array((), np.int32, name="elapsed_step")
        for info in self.info_specs:
            specs[info["name"]] = _dm_spec(info["name"], _array_spec(info))
        specs["players"] = players_type()(env_id=dm_env.specs.Array((), np.int32, name="env_id"))
        return state_type(tuple(specs))(**specs)

    def reward_spec(self):
        import dm_env.specs

        # A multi-player task's reward has the player axis.
        shape = (self.num_players,) if self.num_players > 1 else ()
        return dm_env.specs.Array(shape, self.reward_dtype, name="reward")

    def discount_spec(self):
        import dm_env.specs

        return dm_env.specs.BoundedArray((), np.float32, 0.0, 1.0, name="discount")

    def action_spec(self):
        import dm_env.specs

        space = self.action_space
        if isinstance(space, gymnasium.spaces.Discrete):
            return dm_env.specs.DiscreteArray(int(space.n), dtype=np.int32, name="action")
        return dm_env.specs.BoundedArray(space.shape, space.dtype, space.low, space.high, name="action")

    def __repr__(self) -> str:
        return f"EnvSpec({self.task_id!r}, {dict(self.config)})"


@functools.cache
def state_type(fields: tuple[str, ...]):
    """The namedtuple of a dm_env observation (EnvPool's "State"). A field is
    also found by its name, ``observation["position"]``, as in a dict
    observation."""
    base = collections.namedtuple("State", fields)  # type: ignore[misc]

    def __getitem__(self, key):
        if isinstance(key, str):
            try:
                return getattr(self, key)
            except AttributeError:
                raise KeyError(key) from None
        return tuple.__getitem__(self, key)

    def keys(self):
        return self._fields

    return type("State", (base,), {"__slots__": (), "__getitem__": __getitem__, "keys": keys})


@functools.cache
def players_type():
    """The namedtuple of the per-player fields (EnvPool's "players")."""
    return collections.namedtuple("Players", ["env_id"])


def pool_options_of(config: Mapping[str, Any]) -> _core.PoolOptions:
    """The pool's typed options from a task's config: checked in C++, with
    batch_size 0 resolved, then one seed per env by the seed convention (the
    ranges first: no list of a billion seeds for a num_envs out of range)."""
    options = _core.PoolOptions(num_envs=config["num_envs"], batch_size=config["batch_size"], num_threads=config["num_threads"], thread_affinity_offset=config["thread_affinity_offset"])
    n = options.num_envs
    return options.replace(seeds=seeds_for(config["seed"], range(n), n))


def make_spec(task_id: str, **kwargs: Any) -> EnvSpec:
    """Resolve and validate a task's options (pool options plus the env's own).

    The task's family (envpool_lite.families) first turns the forms of its
    options that users pass (EnvPool's dicts, strings, paths) into the typed
    values its env takes, and fills in its internal options (asset paths)."""
    try:
        family = families.plugin_of(task_id)
    except ValueError:
        _check_task(task_id)  # a clear error, with the ids close to it
        raise
    family.check_installed(task_id)
    options = _core.task_options(task_id)  # {name: (default, kind)}
    hidden = family.internal_options | family.needs
    env_defaults = {k: v for k, (v, _) in options.items() if k not in hidden}
    internal = {k: v for k, (v, _) in options.items() if k in hidden}
    kwargs = family.resolve_options(task_id, env_defaults, dict(kwargs))
    valid = {**POOL_DEFAULTS, **RENDER_DEFAULTS, **env_defaults}
    unknown = sorted(set(kwargs) - set(valid))
    if unknown:
        raise TypeError(f"unknown option(s) {', '.join(map(repr, unknown))} for {task_id}; valid options: {', '.join(sorted(valid))}")
    config = dict(valid)
    for name, value in kwargs.items():
        if name == "seed":
            config[name] = value if isinstance(value, (list, tuple, np.ndarray)) else as_int("seed", value)
        elif name == "worker_timeout":
            config[name] = _coerce_option(name, value, "float", 0.0)
        elif name == "max_num_players" and value is None:
            config[name] = None
        elif name in POOL_DEFAULTS or name not in env_defaults:  # the pool's options and render()'s
            config[name] = as_int(name, value)
        else:
            default = () if name in family.free_length_options else env_defaults[name]
            config[name] = _coerce_option(name, value, options[name][1], default)
    # The pool's own options: checked, and batch_size 0 resolved, by C++.
    pool_options = pool_options_of(config)
    num_envs = config["num_envs"]
    config["batch_size"] = pool_options.batch_size
    if not 0 <= config["num_workers"] <= num_envs:
        raise ValueError(f"num_workers must be in [0, num_envs={num_envs}] (0: the in-process pool; K > 0: num_envs envs spread over K Ray actors), got {config['num_workers']}")
    if config["checkpoint_every"] < 0:
        raise ValueError(f"checkpoint_every must be >= 0 (0: off), got {config['checkpoint_every']}")
    if config["checkpoint_every"] > 0 and config["num_workers"] == 0:
        raise ValueError("checkpoint_every restores the envs of a lost Ray worker: it needs num_workers > 0")
    if not config["worker_timeout"] > 0:
        raise ValueError(f"worker_timeout must be > 0 seconds (inf: never), got {config['worker_timeout']}")
    for name in ("render_width", "render_height"):
        if name not in env_defaults and not 0 <= config[name] <= MAX_RENDER_SIZE:
            raise ValueError(f"{name} must be in [0, {MAX_RENDER_SIZE}] (0: the env's own size), got {config[name]}")
    if "render_camera_id" not in env_defaults and config["render_camera_id"] < -1:
        raise ValueError(f"render_camera_id must be >= -1 (-1: the task's default camera), got {config['render_camera_id']}")
    if "max_episode_steps" in config:
        # A task whose default is 0 ends its episodes itself unless given one
        # (a time limit in seconds of its own): 0 keeps that.
        lowest = 0 if env_defaults.get("max_episode_steps") == 0 else 1
        if config["max_episode_steps"] < lowest:
            raise ValueError(f"max_episode_steps must be >= {lowest}" + (" (0: the task's own limit)" if lowest == 0 else "") + f", got {config['max_episode_steps']}")
    internal = family.fill_internal(task_id, config, {**internal, **refkit.fill(family.needs, task_id)})
    return EnvSpec(task_id, config, internal, pool_options=pool_options, env_option_names=frozenset(options))
