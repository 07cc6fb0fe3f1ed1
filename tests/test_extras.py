"""Each family's runtime package is an extra of envpool_lite: make() of a
task whose package is missing raises ImportError naming the extra, before
anything is made; the extras the package declares install what the families
ask for."""

from __future__ import annotations

import importlib.metadata
import re
import sys

import pytest

import envpool_lite
from envpool_lite import families

# One task of each family that needs a package, the module make() looks for,
# and the extra its ImportError names.
CASES = [
    ("Pong-v5", "ale_py", "atari"),
    ("Basic-v1", "vizdoom", "vizdoom"),
    ("D1Basic-v1", "envpool_assets", "vizdoom,vizdoom-maps"),
    ("HalfCheetah-v5", "mujoco", "mujoco"),
    ("CheetahRun-v1", "dm_control", "dm_control"),
    ("CheetahRun-v1", "mujoco", "dm_control"),
    ("CarRacing-v3", "pygame", "box2d"),
]


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _extras() -> dict[str, set[str]]:
    """The installed envpool_lite's extras: extra -> the normalized names
    of the distributions it requires (an extra of envpool_lite itself,
    [all]'s form, expanded)."""
    requirements: dict[str, set[str]] = {}
    for line in importlib.metadata.requires("envpool_lite") or []:
        match = re.match(r"([A-Za-z0-9_.\-]+)(\[[^\]]*\])?[^;]*;\s*(.*)$", line)
        if not match:
            continue
        extra = re.search(r"extra\s*==\s*['\"]([^'\"]+)['\"]", match.group(3))
        if extra:
            requirements.setdefault(_normalize(extra.group(1)), set()).add(_normalize(match.group(1)) + (match.group(2) or ""))
    return requirements


@pytest.mark.parametrize(("task_id", "module", "extra"), CASES)
def test_a_missing_package_names_the_extra(monkeypatch, task_id, module, extra):
    if task_id not in envpool_lite.list_all_envs():
        pytest.skip(f"{task_id} is not in this build")
    monkeypatch.setitem(sys.modules, module, None)  # what importlib then finds: nothing
    with pytest.raises(ImportError, match=re.escape(f"pip install 'envpool_lite[{extra}]'")) as info:
        envpool_lite.make(task_id, num_envs=1)
    assert info.value.name == module


def test_the_families_without_packages_make_without_them(monkeypatch, make):
    for module in ("ale_py", "vizdoom", "mujoco", "dm_control", "pygame", "envpool_assets"):
        monkeypatch.setitem(sys.modules, module, None)
    for task_id in ("CartPole-v1", "FrozenLake-v1", "LunarLander-v3", "BipedalWalker-v3", "DoorKey-8x8-v0", "BigfishEasy-v0"):
        if task_id in envpool_lite.list_all_envs():
            env = make(task_id, num_envs=1)
            env.reset()


def test_every_family_extra_is_declared_and_installs_what_the_family_needs():
    declared = _extras()
    provided_extras = {_normalize(e) for e in importlib.metadata.metadata("envpool_lite").get_all("Provides-Extra") or []}
    all_extras = {e.strip("[]") for e in declared.get("all", set()) if e.startswith("envpool-lite[")}
    all_extras = {_normalize(x) for e in all_extras for x in e.split("[", 1)[1].split(",")}
    for name in families.names():
        family = families.plugin(name)
        for task_id in families.task_ids(name):
            extra = family.extra_of(task_id)
            needed = {_normalize(p) for p in family.requirements(task_id).values()}
            if not extra:
                assert not needed, (task_id, needed)
                continue
            for part in map(_normalize, extra.split(",")):
                assert part in provided_extras, f"{task_id}: extra [{part}] is not declared"
                assert part in all_extras, f"[all] lacks [{part}]"
            provided = set().union(*(declared.get(_normalize(p), set()) for p in extra.split(",")))
            assert needed <= provided, f"{task_id}: [{extra}] installs {sorted(provided)}, make() needs {sorted(needed)}"


def test_the_package_itself_needs_no_family_package():
    core = [r for r in importlib.metadata.requires("envpool_lite") or [] if "extra ==" not in r]
    names = {_normalize(re.match(r"[A-Za-z0-9_.\-]+", r).group(0)) for r in core}  # type: ignore[union-attr]
    assert names == {"numpy", "gymnasium", "dm-env"}, names
