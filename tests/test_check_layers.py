"""scripts/check_layers.py (run by `make lint`) finds what it is for: a
cycle, an upward arrow, a family reaching into another; and the house has
none."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import check_layers  # noqa: E402


def _layer(name: str) -> tuple[str, str | None]:
    layer, _, family = name.partition(":")
    return layer, family or None


def test_cycles_are_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert check_layers.cycles(graph) == [["a", "b", "c"]]
    assert check_layers.cycles({"a": {"b"}, "b": set()}) == []
    assert check_layers.cycles({"a": {"a", "b"}, "b": {"a"}}) == [["a", "b"]]


def test_upward_arrows_and_reaching_families_are_found():
    layers = ("core", "refkit", "envs", "top")
    graph = {
        "core": {"envs:atari"},  # upward
        "refkit": {"core"},
        "envs:atari": {"refkit", "envs:atari", "envs:mujoco"},  # the last: another family
        "envs:mujoco": {"envs"},  # the list of families
        "envs": {"envs:atari"},
        "top": {"core", "envs:atari"},
    }
    problems = check_layers.arrows(graph, _layer, layers, str)
    assert problems == [
        "core (core) -> envs:atari (envs): upward",
        "envs:atari -> envs:mujoco: family atari reaches into family mujoco",
        "envs:mujoco -> envs: family mujoco reaches into the list of families",
    ]


def test_python_layers():
    assert check_layers.py_layer("envpool_lite.families") == ("seam", None)
    assert check_layers.py_layer("envpool_lite.families.gymnasium_robotics.maze") == ("envs", "gymnasium_robotics")
    assert check_layers.py_layer("envpool_lite.refkit.numpy_loops") == ("refkit", None)
    assert check_layers.py_layer("envpool_lite") == ("top", None)


def test_the_house_keeps_its_rules():
    assert check_layers.check() == []
