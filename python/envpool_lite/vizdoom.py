"""ViZDoom's assets from the installed vizdoom package, for the ViZDoom tasks.

The engine binary, vizdoom.pk3, freedoom2.wad and the scenarios ship with the
vizdoom wheel (the exact version pyproject.toml pins; envpool_lite builds
ViZDoom's client library from that version's sources, and the library checks
that versions match when it starts an engine). make() calls
:func:`resolve_options` to fill in the paths a task needs; nothing here
imports vizdoom's own extension module.
"""

from __future__ import annotations

import importlib.util
import os
from typing import Any, Mapping

# The options this module fills in (and the one it translates).
PATH_OPTIONS = ("vzd_path", "iwad_path", "cfg_path", "wad_path")


def package_dir() -> str:
    """The installed vizdoom package's directory (without importing it)."""
    spec = importlib.util.find_spec("vizdoom")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("the ViZDoom tasks need the vizdoom package (pip install vizdoom, the version envpool_lite pins)")
    return list(spec.submodule_search_locations)[0]


def engine_path() -> str:
    """The engine binary the vizdoom wheel ships."""
    return os.path.join(package_dir(), "vizdoom")


def iwad_path() -> str:
    """freedoom2.wad, the game data the standard scenarios run on."""
    return os.path.join(package_dir(), "freedoom2.wad")


def scenarios_dir() -> str:
    """The standard scenarios' .cfg and .wad files."""
    return os.path.join(package_dir(), "scenarios")


def reward_config_string(reward_config: Any) -> str:
    """reward_config as the env takes it: "NAME:pos:neg,...".

    Accepts that string, or EnvPool's dict {"HEALTH": (0.005, -0.003), ...}:
    each step adds pos per unit the game variable rose and neg per unit it
    fell (neg < 0 penalises a drop). A single number w means (w, -w), i.e.
    w times the change either way.
    """
    if isinstance(reward_config, str):
        return reward_config
    if not isinstance(reward_config, Mapping):
        raise TypeError(f"reward_config must be a dict {{'HEALTH': (pos, neg), ...}} or a 'NAME:pos:neg,...' string, got {type(reward_config).__name__}")
    entries = []
    for name, weights in reward_config.items():
        if isinstance(weights, (int, float)) and not isinstance(weights, bool):
            pos, neg = float(weights), -float(weights)
        else:
            try:
                pos, neg = (float(w) for w in weights)
            except (TypeError, ValueError):
                raise TypeError(f"reward_config[{name!r}] must be (pos, neg) or one number, got {weights!r}") from None
        entries.append(f"{name}:{pos!r}:{neg!r}")
    return ",".join(entries)


def resolve_options(task_id: str, defaults: Mapping[str, Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    """make()'s options for a ViZDoom task, with the asset paths filled in:
    the engine and freedoom2.wad from the vizdoom package, a standard task's
    scenario cfg; user paths made absolute (the engine runs in a private
    directory). reward_config may be a dict."""
    out = dict(kwargs)
    if "reward_config" in out:
        out["reward_config"] = reward_config_string(out["reward_config"])
    for name in PATH_OPTIONS:
        value = out.get(name, defaults.get(name, ""))
        if isinstance(value, os.PathLike):
            value = os.fspath(value)
        if isinstance(value, str) and value:
            out[name] = os.path.abspath(os.path.expanduser(value))
    if not out.get("vzd_path"):
        out["vzd_path"] = engine_path()
    if not out.get("iwad_path"):
        out["iwad_path"] = iwad_path()
    scenario = out.get("scenario", defaults.get("scenario", ""))
    if not out.get("cfg_path") and scenario:
        out["cfg_path"] = os.path.join(scenarios_dir(), f"{scenario}.cfg")
    return out
