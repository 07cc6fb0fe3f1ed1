"""The Procgen family (cpp/envs/procgen/): OpenAI's 16 procgen games in each
of their distribution modes (50 ids, named as EnvPool names them). The envs
run procgen 0.10.7's own libenv.so, which the build installs into the package
with the games' assets (third_party/procgen.cmake); this module finds them
and takes procgen's forms of the options."""

from __future__ import annotations

import ctypes
import functools
import os
from collections.abc import Mapping
from typing import Any

from envpool_lite import _core
from envpool_lite.families import BenchmarkTask, Family
from envpool_lite.options import seeds_for

#: procgen's distribution_mode names (ProcgenGym3Env's strings) and the ints
#: EnvPool takes.
DISTRIBUTION_MODES: Mapping[str, int] = {"easy": 0, "hard": 1, "extreme": 2, "memory": 10, "exploration": 20}
MAX_RAND_SEED = 2**31 - 1


def data_dir() -> str:
    """Where the build installed procgen's libenv.so and assets."""
    return os.path.join(os.path.dirname(os.path.abspath(_core.__file__)), "_procgen")


def _install_hint() -> str:
    return f"envpool_lite's build fetches procgen=={_core.PROCGEN_VERSION or '0.10.7'}'s official wheel by name and installs its libenv.so and assets; reinstall envpool_lite (pip install --force-reinstall --no-deps envpool_lite, or from the source tree: pip install .) where the package index is reachable"


def library_and_assets(task_id: str) -> tuple[str, str]:
    """procgen's libenv.so and its assets folder, after checking that they are
    the release this build was made for. Raises ImportError saying what to
    install."""
    needed = _core.PROCGEN_VERSION
    if not needed:
        raise ImportError(f"{task_id}: this build of envpool_lite has no Procgen envs (procgen's wheel could not be fetched when it was built); {_install_hint()}")
    root = data_dir()
    lib = os.path.join(root, "libenv.so")
    assets = os.path.join(root, "assets")
    version_file = os.path.join(root, "version.txt")
    if not (os.path.isfile(lib) and os.path.isdir(assets) and os.path.isfile(version_file)):
        raise ImportError(f"{task_id} needs procgen {needed}'s libenv.so and assets in {root}, which are missing; {_install_hint()}")
    with open(version_file) as f:
        found = f.read().strip()
    if found != needed:
        raise ImportError(f"{task_id}: {root} holds procgen {found}'s libenv.so, this build needs procgen {needed}; {_install_hint()}")
    error = _load_error(lib)
    if error:
        raise ImportError(f"{task_id}: cannot load {lib} ({error}); {_install_hint()}")
    return lib, assets + os.sep


@functools.cache
def _load_error(lib: str) -> str:
    """Why the library cannot be loaded ("" when it can: then the envs'
    own dlopen of the same file finds it loaded)."""
    try:
        ctypes.CDLL(lib)
    except OSError as e:
        return str(e)
    return ""


class Procgen(Family):
    # The game is set by the registration; the library and assets are found
    # here.
    internal_options = frozenset({"env_name", "procgen_lib", "resource_root", "render_observation"})
    extra = "procgen"  # nothing to install: procgen's libenv.so and assets are in the package
    # procgen 0.10.7's games, 64x64 RGB frames channels-last on every system
    # (procgen's layout; EnvPool's default is channels-first), procgen's
    # other defaults. The peers: EnvPool's Procgen (on the system's Qt 5)
    # and procgen's own gym3 vector env (every env in one C call, its own
    # threads). Only in --full (and --tasks).
    benchmark_tasks = tuple(
        BenchmarkTask(name, options={"channel_first": False}, full=((1, 1, 1), (16, 8, 2), (16, 16, 2)), steps=steps, limit_steps=steps, peers={"procgen": game})
        for name, game, steps in (("BigfishEasy-v0", ("bigfish", "easy"), 40000), ("CoinrunHard-v0", ("coinrun", "hard"), 40000), ("StarpilotEasy-v0", ("starpilot", "easy"), 40000))
    )

    def resolve_options(self, task_id: str, defaults: Mapping[str, Any], kwargs: dict[str, Any]) -> dict[str, Any]:
        mode = kwargs.get("distribution_mode")
        if isinstance(mode, str):
            if mode not in DISTRIBUTION_MODES:
                raise ValueError(f"option 'distribution_mode' must be one of {', '.join(map(repr, DISTRIBUTION_MODES))} or their ints {', '.join(map(str, DISTRIBUTION_MODES.values()))}, got {mode!r}")
            kwargs["distribution_mode"] = DISTRIBUTION_MODES[mode]
        if "rand_seed" in kwargs:  # ProcgenGym3Env's name for the seed
            if "seed" in kwargs:
                raise TypeError("pass seed or rand_seed (procgen's name for it), not both")
            kwargs["seed"] = kwargs.pop("rand_seed")
        return kwargs

    def fill_internal(self, task_id: str, config: Mapping[str, Any], internal: dict[str, Any]) -> dict[str, Any]:
        seeds = seeds_for(config["seed"], range(config["num_envs"]), config["num_envs"])
        if max(seeds) > MAX_RAND_SEED:
            raise ValueError(f"seed: env i gets procgen's rand_seed = seed + i, an int32, so seeds must be at most 2**31 - 1; got {max(seeds)}")
        lib, assets = library_and_assets(task_id)
        return {**internal, "procgen_lib": lib, "resource_root": assets}

    def render_resize(self, spec) -> str:
        return "linear"  # EnvPool's Procgen: cv2.resize's default


family = Procgen()
