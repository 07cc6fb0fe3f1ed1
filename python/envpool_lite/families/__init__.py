"""Families of tasks as plug-ins.

A family is a folder of C++ envs, ``cpp/envs/<family>/`` (its tasks listed in
its ``registration.cc``), and one Python module, ``envpool_lite.families.<family>``,
that defines ``family``: an instance of a :class:`Family` subclass with the
hooks the family needs. The C++ registry is the one list of tasks and says
each task's family (``_core.task_family``); the generic layers (``spec.py``,
``pool.py``, the faces, the Ray pool) reach a family only through
:func:`plugin`, and name none. docs/adding-a-family.md walks through adding
one.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import importlib
import importlib.util
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from envpool_lite import _core

if TYPE_CHECKING:
    from envpool_lite.spec import EnvSpec


class Renderer(Protocol):
    """Draws the pictures of a task whose envs hand over a render state
    (``Env::RenderState``) instead of drawing themselves in C++."""

    def draw(self, states: np.ndarray, env_ids: np.ndarray) -> np.ndarray:
        """(n, H, W, 3) uint8 pictures of n states (rows of
        ``_core.EnvPool.render_state``) of the envs ``env_ids``."""
        ...

    def close(self) -> None: ...


class NetworkKind(enum.Enum):
    """The kind of network a task's observations want, for the trainers
    (``trainers/``: each maps a kind to its torch modules and its preset
    hyperparameters; nothing in the package trains). A family says which
    with :meth:`Family.network_kind`; the default goes by the shape of the
    observation."""

    #: A vector of features, or any array that is not an image: an MLP on
    #: it, flattened.
    VECTOR = "vector"
    #: The state of a simulated body (joint positions and velocities) under
    #: continuous control (torques): an MLP, with settings for locomotion.
    CONTROL = "control"
    #: Pixels: frames of a screen, (C, H, W) uint8 (the default for any
    #: array of three axes): a CNN.
    PIXELS = "pixels"
    #: Feature planes: an (H, W, C) array, one plane per kind of object on
    #: a small board: a small convolution over the channels-last planes.
    PLANES = "planes"
    #: A grid of symbolic ids: (H, W, 3), an (object, colour, state) id per
    #: cell, each id one-hot encoded into an MLP.
    GRID = "grid"

    @classmethod
    def of_observation(cls, space: Any) -> NetworkKind:
        """The default kind for an observation space: PIXELS for an array of
        three axes, VECTOR for any other array. A dict observation has no
        default (ValueError)."""
        shape = getattr(space, "shape", None)
        if shape is None:
            raise ValueError(f"no default network for a {type(space).__name__} observation (the networks take one array; a family can name one: Family.network_kind)")
        return cls.PIXELS if len(shape) == 3 else cls.VECTOR


class Family:
    """The hooks of a family, each with a default that does nothing."""

    #: Options the family's envs declare for make() to fill (asset paths, a
    #: game name set by the registration), never the user: they are not
    #: accepted from make(), listed in errors, or shown in ``config``.
    internal_options: frozenset[str] = frozenset()

    #: What the family's envs take from the reference libraries installed
    #: here, by option name (envpool_lite.refkit.NEEDS: "numpy_blas",
    #: "numpy_loops", "mujoco_lib"): make() fills these internal options
    #: before :meth:`fill_internal`.
    needs: frozenset[str] = frozenset()

    #: Options of a list type whose length is the user's (highway-env's
    #: feature lists): not held to the length of their default.
    free_length_options: frozenset[str] = frozenset()

    #: The extra of envpool_lite that installs what the family's envs need at
    #: make() (``pip install 'envpool_lite[<extra>]'``; pyproject.toml's
    #: [project.optional-dependencies] pins the versions).
    extra: str = ""

    #: What make() needs installed, for every task of the family: the module
    #: it looks for (without importing it) and the package that provides it.
    requires: Mapping[str, str] = {}

    #: The family's tasks in benchmarks/fps.py's throughput table beside its
    #: peers (docs/benchmarks.md), one or two of its ids.
    benchmark_tasks: tuple[BenchmarkTask, ...] = ()

    def requirements(self, task_id: str) -> Mapping[str, str]:
        """The modules (and their packages) that ``task_id`` needs at make():
        :attr:`requires` unless a family's tasks differ."""
        return self.requires

    def extra_of(self, task_id: str) -> str:
        """The extra(s) that install ``task_id``'s requirements
        (comma-separated, as pip takes them): :attr:`extra` unless a family's
        tasks differ."""
        return self.extra

    def check_installed(self, task_id: str) -> None:
        """Raise ImportError naming the extra to install when a package that
        ``task_id`` needs is missing; make() calls it before anything else,
        so nothing is half-made."""
        missing = {module: package for module, package in self.requirements(task_id).items() if importlib.util.find_spec(module) is None}
        if missing:
            packages = sorted(set(missing.values()))
            verb = "is" if len(packages) == 1 else "are"
            raise ImportError(f"{task_id} needs {' and '.join(packages)}, which {verb} not installed: {self.install_hint(task_id, missing)}", name=next(iter(missing)))

    def install_hint(self, task_id: str, missing: Mapping[str, str]) -> str:
        """How to install the ``missing`` modules (module -> package) of
        ``task_id``: the extra, unless a family knows better."""
        extra = self.extra_of(task_id)
        return f"pip install 'envpool_lite[{extra}]'" if extra else f"pip install {' '.join(sorted(set(missing.values())))}"

    def resolve_options(self, task_id: str, defaults: Mapping[str, Any], kwargs: dict[str, Any]) -> dict[str, Any]:
        """The user's make() options in the forms the family accepts
        (EnvPool's, gymnasium's: dicts, strings, paths, None) turned into the
        typed values its env takes (the type of each option's default).
        Called before the options are checked; returns the new kwargs and
        raises TypeError or ValueError naming a bad option."""
        return kwargs

    def fill_internal(self, task_id: str, config: Mapping[str, Any], internal: dict[str, Any]) -> dict[str, Any]:
        """Values for the internal options (asset paths from the installed
        packages), from the checked config and the registration's defaults."""
        return internal

    def methods(self, spec: EnvSpec) -> Mapping[str, Callable[..., Any]]:
        """Functions the pool offers as methods of its own for ``spec``'s
        task, by name (gymnasium-robotics' ``compute_reward``, which HER
        relabelling calls on ``env.unwrapped``): none by default."""
        return {}

    def players(self, spec: EnvSpec) -> Players | None:
        """How the players of a multi-player task sit in its batch (the
        multi-agent faces read it: envpool_lite.multiagent), or None for a
        task of one player. The default reads the core's: a task with
        ``spec.num_players > 1`` has a player axis first in its observation
        and its reward, and takes one action per env, the acting player's
        (info ``current_player``, ``legal_action_mask``)."""
        if spec.num_players <= 1:
            return None
        return Players(spec.num_players, turn_based=True)

    def check_render(self, spec: EnvSpec) -> None:
        """Raise if ``spec``'s task cannot be rendered here (called at
        make(render_mode="rgb_array") for tasks that do not draw in C++)."""
        raise ValueError(f"{spec.task_id} cannot be rendered")

    def make_renderer(self, spec: EnvSpec) -> Renderer:
        """The renderer of a task that does not draw in C++."""
        raise ValueError(f"{spec.task_id} cannot be rendered")

    def render_resize(self, spec: EnvSpec) -> str:
        """How render() brings this family's pictures to
        make(render_width=, render_height=) when the env drew them at another
        size: "area" (cv2.INTER_AREA) or "linear" (cv2.INTER_LINEAR), as
        EnvPool resizes them."""
        return "area"

    def network_kind(self, spec: EnvSpec) -> NetworkKind:
        """The kind of network ``spec``'s task wants in the trainers: by
        default, by its observation's shape
        (:meth:`NetworkKind.of_observation`)."""
        return NetworkKind.of_observation(spec.observation_space)


class Players:
    """The players of a multi-player task, as the multi-agent faces see them.

    - ``num_players``: how many.
    - ``turn_based``: one action per env, the acting player's (info
      ``current_player``; info ``legal_action_mask`` is that player's), as
      pgx's games; else every player acts at every step (the action has a
      player axis, as highway's multi-agent tasks).
    - ``reward_info`` / ``terminated_info``: the info fields with one value
      per player when the batch's own reward and terminated are the env's
      (highway's ``agents_rewards``, ``agents_terminated``); None when the
      reward has the player axis itself and the game ends for everyone.
    """

    __slots__ = ("num_players", "turn_based", "reward_info", "terminated_info")

    def __init__(self, num_players: int, turn_based: bool, reward_info: str | None = None, terminated_info: str | None = None):
        self.num_players = num_players
        self.turn_based = turn_based
        self.reward_info = reward_info
        self.terminated_info = terminated_info


@dataclasses.dataclass(frozen=True)
class BenchmarkTask:
    """A task of benchmarks/fps.py, as its family declares it
    (:attr:`Family.benchmark_tasks`): what to make, the settings it is
    measured at, and the peers that run it too, with their names for it. How
    each peer runs a task is benchmarks/peers/'s; nothing here imports a
    peer."""

    #: Its name in fps.py (--tasks, the table, the JSON): the task id, or a
    #: label for the task with other options (then ``env_id`` is the id).
    name: str
    #: The task id to make where ``name`` is a label.
    env_id: str | None = None
    #: Frames per step (frames/s = steps/s x frame_skip).
    frame_skip: int = 1
    #: make() options, for envpool_lite and EnvPool alike.
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    #: make() options for envpool_lite only.
    lite_options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    #: (envs, batch, threads) settings: the default run's headline ones,
    #: --full's (empty: fps.py's sweep fitted to the machine's cores) and
    #: --quick's; the task is not in a default or --quick run without any.
    headline: tuple[tuple[int, int, int], ...] = ()
    full: tuple[tuple[int, int, int], ...] = ()
    quick: tuple[tuple[int, int, int], ...] = ()
    #: Steps per measurement with --full (0: by system and setting); a
    #: quarter by default, an eighth with --quick.
    steps: int = 0
    #: Steps of the single-thread limit with --full (0: a million), divided
    #: as ``steps``.
    limit_steps: int = 0
    #: The single-thread limit over envs 0 .. limit_envs - 1 (a pool whose
    #: envs differ by index, one per task of a benchmark).
    limit_envs: int = 1
    #: False: no single-thread limit (its C++ loop's uniform random actions
    #: would be illegal moves).
    has_limit: bool = True
    #: The peers that run the same task, each with its name for it, by the
    #: peer's name (benchmarks/peers/__init__.py lists them: "gymnasium" the
    #: reference implementation's gymnasium id, "envpool" EnvPool's id where
    #: it is not the task id, ...).
    peers: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def make_id(self) -> str:
        """The task id to make."""
        return self.env_id or self.name


def family_of(task_id: str) -> str:
    """The family of a registered task ("atari", "toy_text", ...)."""
    return _core.task_family(task_id)


@functools.cache
def plugin(name: str) -> Family:
    """The hooks of the family ``name`` (its module's ``family``), imported on
    first use."""
    module = importlib.import_module(f"envpool_lite.families.{name}")
    family = module.family
    if not isinstance(family, Family):
        raise TypeError(f"envpool_lite.families.{name}.family must be a Family, got {type(family).__name__}")
    return family


def plugin_of(task_id: str) -> Family:
    """The hooks of a task's family."""
    return plugin(family_of(task_id))


def names() -> list[str]:
    """Every family that this build registers tasks of."""
    return sorted({family_of(t) for t in _core.list_tasks()})


def task_ids(name: str) -> list[str]:
    """The task ids of one family."""
    return sorted(t for t in _core.list_tasks() if family_of(t) == name)
