"""ViZDoom's assets from the installed vizdoom package, for the ViZDoom tasks.

The engine binary, vizdoom.pk3, freedoom2.wad and the scenarios ship with the
vizdoom wheel (the exact version pyproject.toml pins; envpool_lite builds
ViZDoom's client library from that version's sources, and the library checks
that versions match when it starts an engine). make() calls
:func:`resolve_options` to fill in the paths a task needs and the defaults
that follow from its cfg (gray_scale, game_args); nothing here
imports vizdoom's own extension module.
"""

from __future__ import annotations

import importlib.util
import numbers
import os
import re
import struct
from typing import Any, Mapping

import numpy as np

# The paths this module fills in (or makes absolute).
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


# One-channel screen formats: a cfg naming one gets gray observations (as
# EnvPool, whose observations have the engine's channels); any other format,
# or none (ViZDoom's default is CRCGCB), RGB.
ONE_CHANNEL_FORMATS = frozenset({"gray8", "doom_256_colors8"})
SCREEN_FORMATS = ONE_CHANNEL_FORMATS | {"crcgcb", "rgb24", "rgba32", "argb32", "cbcgcr", "bgr24", "bgra32", "abgr32"}

# The standard scenarios whose maps have deathmatch starts only (single
# player, the engine stops at "No player 1 start"): their tasks host a
# deathmatch of one player by default, with the engine arguments of
# ViZDoom's own cig examples.
DEATHMATCH_SCENARIOS = frozenset({"cig", "multi_duel"})
DEATHMATCH_HOST_ARGS = "-host 1 -deathmatch +sv_forcerespawn 1 +sv_noautoaim 1 +sv_respawnprotect 1 +sv_spawnfarthest 1 +sv_nocrouch 1"


def cfg_value(cfg_path: str, keys: tuple[str, ...]) -> str | None:
    """The value a ViZDoom cfg sets for one of `keys` (lower-cased keys, the
    value as written), or None when it sets none (or the file cannot be
    read). Read as ViZDoom's config loader reads it: `key = value` lines,
    blanks collapsed, `#` comment lines, case-insensitive keys, the last value
    wins."""
    try:
        with open(cfg_path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except (OSError, TypeError):
        return None
    found = None
    for line in lines:
        line = " ".join(line.split())
        if not line or line.startswith("#") or "+=" in line or "=" not in line:
            continue
        key, _, value = line.partition("=")
        if " ".join(key.split()).lower() in keys:
            found = value.strip()
    return found


def cfg_screen_format(cfg_path: str) -> str | None:
    """The screen_format a ViZDoom cfg sets (lower case, e.g. "gray8"), or
    None when it sets none or an unknown one."""
    value = cfg_value(cfg_path, ("screen_format", "screenformat"))
    value = None if value is None else value.lower()
    return value if value in SCREEN_FORMATS else None


def wad_maps(wad_path: str) -> set[str]:
    """The maps (MAP01, E1M1, ...) in a WAD file's lump directory; empty when
    the file cannot be read as a WAD."""
    try:
        with open(wad_path, "rb") as f:
            header = f.read(12)
            if len(header) != 12 or header[:4] not in (b"IWAD", b"PWAD"):
                return set()
            count, offset = struct.unpack("<ii", header[4:])
            f.seek(offset)
            directory = f.read(16 * count)
    except OSError:
        return set()
    names = (directory[i + 8 : i + 16].split(b"\0")[0].decode("ascii", "replace").upper() for i in range(0, len(directory) - 15, 16))
    return {n for n in names if re.fullmatch(r"MAP\d\d|E\dM\d", n)}


def check_map(out: Mapping[str, Any]) -> None:
    """The map the engine will load (map_id, else the cfg's doom_map, else
    map01) must be in the scenario wad or the iwad: ViZDoom would otherwise
    quietly play another map. Raises ValueError naming map_id."""
    cfg = out.get("cfg_path") or ""
    wanted = out.get("map_id") or cfg_value(cfg, ("doom_map", "doommap")) or "map01"
    scenario = out.get("wad_path") or cfg_value(cfg, ("doom_scenario_path", "doomscenariopath")) or ""
    if scenario and not os.path.isabs(scenario):
        scenario = os.path.join(os.path.dirname(cfg), scenario)
    # A scenario wad's maps are the scenario; without one, the iwad's are.
    for wad in (scenario, out.get("iwad_path") or ""):
        maps = wad_maps(wad) if wad and os.path.isfile(wad) else set()
        if maps:
            break
    else:  # nothing readable to check against: the engine decides
        return
    if wanted.upper() not in maps:
        source = "map_id" if out.get("map_id") else f"the cfg's doom_map ({cfg})"
        raise ValueError(f"{source}: map {wanted!r} is not in {os.path.basename(wad)} (ViZDoom would play another map); its maps: {', '.join(sorted(m.lower() for m in maps))}")


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def _table(name: str, value: Any, example: str) -> Mapping | None:
    """None for a string (taken as is), the mapping for a mapping, else
    TypeError."""
    if isinstance(value, str):
        return None
    if not isinstance(value, Mapping):
        raise TypeError(f"{name} must be a dict {example} or its string form, got {type(value).__name__}")
    return value


def reward_config_string(reward_config: Any) -> str:
    """reward_config as the env takes it: "NAME:pos:neg,...".

    Accepts that string, or EnvPool's dict {"HEALTH": (0.005, -0.003), ...}:
    each step adds pos per unit the game variable rose and neg per unit it
    fell (neg < 0 penalises a drop). A single number w means (w, -w), i.e.
    w times the change either way. An empty dict is "none": no table (with
    reward_mode="envpool", not even EnvPool's default one).
    """
    table = _table("reward_config", reward_config, "{'HEALTH': (pos, neg), ...}")
    if table is None:
        return reward_config
    entries = []
    for name, weights in table.items():
        if not isinstance(name, str):
            raise TypeError(f"reward_config keys must be game variable names (str), got {name!r}")
        if _is_number(weights):
            pos, neg = float(weights), -float(weights)
        else:
            try:
                pos, neg = weights
                if not (_is_number(pos) and _is_number(neg)):
                    raise TypeError
            except (TypeError, ValueError):
                raise TypeError(f"reward_config[{name!r}] must be (pos, neg) or one number, got {weights!r}") from None
            pos, neg = float(pos), float(neg)
        entries.append(f"{name}:{pos!r}:{neg!r}")
    return ",".join(entries) if entries else "none"


def selected_weapon_reward_config_string(config: Any) -> str:
    """selected_weapon_reward_config as the env takes it: "slot:reward,...",
    from that string or EnvPool's dict {weapon slot: reward} (slots 0-9). An
    empty dict is "none"."""
    table = _table("selected_weapon_reward_config", config, "{weapon_slot: reward, ...}")
    if table is None:
        return config
    entries = []
    for slot, reward in table.items():
        if not _is_int(slot):
            raise TypeError(f"selected_weapon_reward_config keys must be weapon slots (int), got {slot!r}")
        if not _is_number(reward):
            raise TypeError(f"selected_weapon_reward_config[{slot!r}] must be a number, got {reward!r}")
        entries.append(f"{int(slot)}:{float(reward)!r}")
    return ",".join(entries) if entries else "none"


def delta_button_config_string(config: Any) -> str:
    """delta_button_config as the env takes it: "NAME:num:min:max,...", from
    that string or EnvPool's dict {"LOOK_UP_DOWN_DELTA": (num, min, max)}."""
    table = _table("delta_button_config", config, "{'LOOK_UP_DOWN_DELTA': (num, min, max), ...}")
    if table is None:
        return config
    entries = []
    for name, setting in table.items():
        if not isinstance(name, str):
            raise TypeError(f"delta_button_config keys must be delta button names (str), got {name!r}")
        try:
            num, low, high = setting
            if not (_is_int(num) and _is_number(low) and _is_number(high)):
                raise TypeError
        except (TypeError, ValueError):
            raise TypeError(f"delta_button_config[{name!r}] must be (num: int, min, max), got {setting!r}") from None
        entries.append(f"{name}:{int(num)}:{float(low)!r}:{float(high)!r}")
    return ",".join(entries)


# The dict options, each with its string form for the env.
TABLE_OPTIONS = {
    "reward_config": reward_config_string,
    "selected_weapon_reward_config": selected_weapon_reward_config_string,
    "delta_button_config": delta_button_config_string,
}


def resolve_options(task_id: str, defaults: Mapping[str, Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    """make()'s options for a ViZDoom task, with the asset paths filled in:
    the engine and freedoom2.wad from the vizdoom package, a standard task's
    scenario cfg; user paths made absolute (the engine runs in a private
    directory). The dict options (reward_config,
    selected_weapon_reward_config, delta_button_config) may be dicts.
    gray_scale, when not given (or None), follows the cfg's screen_format
    (EnvPool's default: GRAY8 is gray, anything else RGB); the deathmatch-only
    scenarios' tasks get DEATHMATCH_HOST_ARGS as their default game_args."""
    out = dict(kwargs)
    for name, to_string in TABLE_OPTIONS.items():
        if name in out:
            out[name] = to_string(out[name])
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
    if not out.get("cfg_path") and isinstance(scenario, str) and scenario:
        out["cfg_path"] = os.path.join(scenarios_dir(), f"{scenario}.cfg")
        if not os.path.isfile(out["cfg_path"]):
            known = sorted(f[:-4] for f in os.listdir(scenarios_dir()) if f.endswith(".cfg"))
            raise ValueError(f"scenario {scenario!r} is not one of the vizdoom package's: {', '.join(known)} (or pass cfg_path=)")
        if scenario in DEATHMATCH_SCENARIOS and "game_args" not in out:
            out["game_args"] = DEATHMATCH_HOST_ARGS
    if out.get("gray_scale") is None:
        out["gray_scale"] = cfg_screen_format(out.get("cfg_path")) in ONE_CHANNEL_FORMATS
    if isinstance(out.get("map_id", ""), str) and isinstance(out.get("cfg_path"), str):
        check_map(out)
    return out
