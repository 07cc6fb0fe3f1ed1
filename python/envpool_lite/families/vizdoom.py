"""The ViZDoom family (cpp/envs/vizdoom/): the standard scenarios, EnvPool's
D1Basic-v1 ... D4Battle2-v1 and VizdoomCustom-v1. This module fills in
ViZDoom's assets from the installed vizdoom package (the D maps from the
envpool-assets package), and turns the forms of its table options that users pass
(EnvPool's dicts, or the string forms) into the typed values the env takes.

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
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from envpool_lite import _core
from envpool_lite.families import BenchmarkTask, Family, task_ids


def vizdoom_scenarios() -> list[str]:
    """The standard ViZDoom scenarios ("basic", "deadly_corridor", ...), one
    task each (Basic-v1, DeadlyCorridor-v1, ...)."""
    return sorted({str(d["scenario"]) for d in map(_core.task_defaults, task_ids("vizdoom")) if d.get("scenario")})


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


# EnvPool's own scenarios (D1Basic-v1 ... D4Battle2-v1): the maps of Direct
# Future Prediction (Dosovitskiy and Koltun, 2017), which EnvPool ships in
# its envpool-assets package (the vizdoom-maps extra installs it).
ENVPOOL_SCENARIOS = frozenset({"D1_basic", "D2_navigation", "D3_battle", "D4_battle2"})
ENVPOOL_ASSETS = "envpool-assets>=0.3.0"


def envpool_maps_dir(task_id: str) -> str:
    """The envpool-assets package's ViZDoom maps (without importing it)."""
    spec = importlib.util.find_spec("envpool_assets")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"{task_id} runs a map of EnvPool's envpool-assets package, which is not installed: pip install '{ENVPOOL_ASSETS}' (or envpool_lite's vizdoom-maps extra)")
    return os.path.join(list(spec.submodule_search_locations)[0], "vizdoom", "maps")


def scenario_cfg(task_id: str, scenario: str) -> str:
    """A task's scenario cfg: the vizdoom package's, or EnvPool's."""
    folder = envpool_maps_dir(task_id) if scenario in ENVPOOL_SCENARIOS else scenarios_dir()
    cfg = os.path.join(folder, f"{scenario}.cfg")
    if not os.path.isfile(cfg):
        known = sorted(f[:-4] for f in os.listdir(scenarios_dir()) if f.endswith(".cfg"))
        raise ValueError(f"scenario {scenario!r} is not one of the vizdoom package's ({', '.join(known)}) or EnvPool's ({', '.join(sorted(ENVPOOL_SCENARIOS))}); pass cfg_path=")
    return cfg


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


def cfg_value(cfg_path: str | None, keys: tuple[str, ...]) -> str | None:
    """The value a ViZDoom cfg sets for one of `keys` (lower-cased keys, the
    value as written), or None when it sets none (or the file cannot be
    read). Read as ViZDoom's config loader reads it: `key = value` lines,
    blanks collapsed, `#` comment lines, case-insensitive keys, the last value
    wins."""
    if cfg_path is None:
        return None
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


def cfg_screen_format(cfg_path: str | None) -> str | None:
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


# EnvPool 1.2.5's default tables for its reward (reward_mode="envpool"):
# the tables make() fills in when the option is not given.
ENVPOOL_REWARD_CONFIG: dict[str, tuple[float, float]] = {
    "FRAGCOUNT": (1.0, -1.5), "KILLCOUNT": (1.0, 0.0), "DEATHCOUNT": (-0.75, 0.75),
    "HITCOUNT": (0.01, -0.01), "DAMAGECOUNT": (0.003, -0.003), "HEALTH": (0.005, -0.003),
    "ARMOR": (0.005, -0.001), "WEAPON0": (0.02, -0.01), "AMMO0": (0.0002, -0.0001),
    "WEAPON1": (0.02, -0.01), "AMMO1": (0.0002, -0.0001), "WEAPON2": (0.02, -0.01),
    "AMMO2": (0.0002, -0.0001), "WEAPON3": (0.1, -0.05), "AMMO3": (0.001, -0.0005),
    "WEAPON4": (0.1, -0.05), "AMMO4": (0.001, -0.0005), "WEAPON5": (0.1, -0.05),
    "AMMO5": (0.001, -0.0005), "WEAPON6": (0.2, -0.1), "AMMO6": (0.002, -0.001),
    "WEAPON7": (0.2, -0.1), "AMMO7": (0.002, -0.001),
}  # fmt: skip
ENVPOOL_WEAPON_REWARD: dict[int, float] = {0: 0.0002, 1: 0.0002, 2: 0.0002, 3: 0.001, 4: 0.001, 5: 0.001, 6: 0.002, 7: 0.002}


def _string_table(name: str, value: str, width: int, example: str) -> dict[str, tuple[Any, ...]] | None:
    """The string form of a table option, "KEY:a:b,KEY:a:b" (entries split at
    commas, semicolons or blanks; fields at ':'), as {KEY: (a, b)} with each
    field a number (an int where it is written as one): None for "" (not
    given), {} for "none"."""
    entries = _names(value)
    if not entries:
        return None
    if entries == ["none"]:
        return {}
    table: dict[str, tuple[Any, ...]] = {}
    for entry in entries:
        key, *fields = entry.split(":")
        if len(fields) != width:
            raise ValueError(f"{name} entry {entry!r} is not of the form {example}")
        numbers: list[float] = []
        for field in fields:
            try:
                numbers.append(int(field))
            except ValueError:
                try:
                    numbers.append(float(field))
                except ValueError:
                    raise ValueError(f"{name} entry {entry!r}: {field!r} is not a number") from None
        table[key] = tuple(numbers)
    return table


def _names(value: str) -> list[str]:
    return [n for n in re.split(r"[,;\s]+", value) if n]


def _number(name: str, key: Any, value: Any) -> float:
    if not _is_number(value):
        raise TypeError(f"{name}[{key!r}] must be a number, got {value!r}")
    return float(value)


def _mapping(name: str, value: Any, example: str) -> Mapping:
    if not isinstance(value, Mapping):
        raise TypeError(f"{name} must be a dict {example} or its string form, got {type(value).__name__}")
    return value


def reward_config_table(value: Any) -> dict[str, tuple[float, float]] | None:
    """reward_config as the env takes it, {NAME: (pos, neg)}: each step adds
    pos per unit the game variable rose and neg per unit it fell (neg < 0
    penalises a drop). Accepts EnvPool's dict {"HEALTH": (0.005, -0.003),
    ...}, where a single number w means (w, -w), i.e. w times the change
    either way; or the string form "HEALTH:0.005:-0.003,...". An empty dict
    or "none" is an empty table (with reward_mode="envpool", not even
    EnvPool's default one); "" is None: not given."""
    name, example = "reward_config", "{'HEALTH': (pos, neg), ...}"
    if isinstance(value, str):
        value = _string_table(name, value, 2, '"NAME:pos:neg"')
        if value is None:
            return None
    table = {}
    for key, weights in _mapping(name, value, example).items():
        if not isinstance(key, str):
            raise TypeError(f"{name} keys must be game variable names (str), got {key!r}")
        if _is_number(weights):
            table[key] = (float(weights), -float(weights))
            continue
        if isinstance(weights, (str, bytes)) or not isinstance(weights, (Sequence, np.ndarray)) or len(weights) != 2:
            raise TypeError(f"{name}[{key!r}] must be (pos, neg) or one number, got {weights!r}")
        table[key] = (_number(name, key, weights[0]), _number(name, key, weights[1]))
    return table


def selected_weapon_reward_config_table(value: Any) -> dict[int, float] | None:
    """selected_weapon_reward_config as the env takes it, {weapon slot:
    reward} (slots 0-9), from that dict or the string form "3:0.001,...".
    An empty dict or "none" is an empty table; "" is None: not given."""
    name = "selected_weapon_reward_config"
    if isinstance(value, str):
        strings = _string_table(name, value, 1, '"slot:reward"')
        if strings is None:
            return None
        value = {}
        for slot, (reward,) in strings.items():
            try:
                value[int(slot)] = reward
            except ValueError:
                raise ValueError(f"{name}: {slot!r} is not a weapon slot (0-9)") from None
    return dict(_mapping(name, value, "{weapon_slot: reward, ...}"))  # make() checks the types


def delta_button_config_table(value: Any) -> dict[str, tuple[float, float, float]]:
    """delta_button_config as the env takes it, {NAME: (num, min, max)}, from
    that dict (EnvPool's) or the string form "LOOK_UP_DOWN_DELTA:11:-10:10"."""
    name = "delta_button_config"
    if isinstance(value, str):
        value = _string_table(name, value, 3, '"NAME:num:min:max"') or {}
    table = {}
    for key, setting in _mapping(name, value, "{'LOOK_UP_DOWN_DELTA': (num, min, max), ...}").items():
        if not isinstance(key, str):
            raise TypeError(f"{name} keys must be delta button names (str), got {key!r}")
        try:
            num, low, high = setting
        except (TypeError, ValueError):
            raise TypeError(f"{name}[{key!r}] must be (num: int, min, max), got {setting!r}") from None
        if not _is_int(num):
            raise TypeError(f"{name}[{key!r}] must be (num: int, min, max), got {setting!r}")
        table[key] = (float(num), _number(name, key, low), _number(name, key, high))
    return table


def game_variables_list(value: Any) -> Any:
    """game_variables as the env takes it, a list of names: a string of names
    separated by commas or blanks ("HEALTH, KILLCOUNT") is split; a list
    is the list (make() checks that it holds names)."""
    return _names(value) if isinstance(value, str) else value


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
    if "game_variables" in out:
        out["game_variables"] = game_variables_list(out["game_variables"])
    if "delta_button_config" in out:
        out["delta_button_config"] = delta_button_config_table(out["delta_button_config"])
    # reward_mode="envpool": EnvPool's tables, unless given.
    envpool_reward = out.get("reward_mode", defaults.get("reward_mode")) == "envpool"
    for name, to_table, envpool_default in (
        ("reward_config", reward_config_table, ENVPOOL_REWARD_CONFIG),
        ("selected_weapon_reward_config", selected_weapon_reward_config_table, ENVPOOL_WEAPON_REWARD),
    ):
        table = to_table(out[name]) if out.get(name) is not None else None
        if table is None:
            out.pop(name, None)
            if envpool_reward:
                table = dict(envpool_default)
        if table is not None:
            out[name] = table
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
        out["cfg_path"] = scenario_cfg(task_id, scenario)
        if scenario in DEATHMATCH_SCENARIOS and "game_args" not in out:
            out["game_args"] = DEATHMATCH_HOST_ARGS
    if out.get("gray_scale") is None:
        out["gray_scale"] = cfg_screen_format(out.get("cfg_path")) in ONE_CHANNEL_FORMATS
    if isinstance(out.get("map_id", ""), str) and isinstance(out.get("cfg_path"), str):
        check_map(out)
    return out


class Vizdoom(Family):
    extra = "vizdoom"
    # EnvPool's Basic-v1 settings on every system (RGB 84x84, 4 frames
    # stacked, frame_skip 4, 525-step episodes); actions are indices into
    # the 6 legal button combinations. Workers mostly wait on engine
    # processes: 8:4:8 shows more threads (envpool_lite's default for
    # ViZDoom: one per env). 256 engine processes would not fit.
    benchmark_tasks = (
        BenchmarkTask(
            "Basic-v1",
            frame_skip=4,
            options={"use_combined_action": True, "max_episode_steps": 525},
            lite_options={"gray_scale": False},
            headline=((1, 1, 1), (8, 4, 8)),
            full=((1, 1, 1), (8, 4, 2), (8, 8, 2), (8, 4, 8)),
            quick=((8, 4, 2),),
            steps=2000,
            limit_steps=2000,
            peers={"vizdoom": "VizdoomBasic-v1"},
        ),
    )

    def _uses_envpool_maps(self, task_id: str) -> bool:
        return _core.task_defaults(task_id).get("scenario") in ENVPOOL_SCENARIOS

    def requirements(self, task_id: str) -> Mapping[str, str]:
        # The engine and the standard scenarios; D1Basic-v1 ... D4Battle2-v1
        # run EnvPool's maps too (a 92 MB package: an extra of its own).
        needed = {"vizdoom": "vizdoom"}
        if self._uses_envpool_maps(task_id):
            needed["envpool_assets"] = "envpool-assets"
        return needed

    def extra_of(self, task_id: str) -> str:
        return "vizdoom,vizdoom-maps" if self._uses_envpool_maps(task_id) else "vizdoom"

    def resolve_options(self, task_id: str, defaults: Mapping[str, Any], kwargs: dict[str, Any]) -> dict[str, Any]:
        return resolve_options(task_id, defaults, kwargs)


family = Vizdoom()
