"""A pytest plugin (conftest.py loads it): how many tests each family ran
and how many seconds they took, printed at the end of every pytest run.

A test's seconds are its setup, call and teardown, as pytest's --durations
counts them; under pytest-xdist the controller sums its workers' reports,
so a family's seconds are busy seconds of one worker, whatever the number of
workers. With ENVPOOL_LITE_TEST_TIMES set to a folder, each run also writes
its figures there as one JSON file: `make test` collects its pytest runs'
files into the table at its end, each family held against its budget in
docs/ci.md (scripts/test_times.py).

A test belongs to the family whose folder holds it (tests/<family>/), or
whose name its file has (tests/test_<family>*.py); the tests of no family,
in tests/, to one of the groups below.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

# The tests of no family, by the start of their file's name after "test_".
GROUPS = {
    "engine": ("api", "engine", "errors", "misuse", "fuzz", "soak", "families", "extras", "smoke", "render", "every_id", "xla", "multiagent", "check_layers", "pool_options", "state"),
    "references": ("np_random", "jax_random", "pygame_draw"),
    "compat": ("lib_", "envpool_compat", "cleanrl_example"),
    "trainers": ("appo", "dqn", "her_ddpg", "vtrace", "ppo_selfplay", "compare_curves", "lookahead_planner"),
    "distributed": ("distributed", "multihost"),
    "benchmarks": ("benchmark",),
}
# Files named for one family whose tests are another's.
ALIASES = {"babyai": "minigrid"}


def family_names() -> list[str]:
    from envpool_lite import families

    return [name for name in families.names() if name != "testing"]


def group_of(path: str, families: list[str]) -> str:
    """The family (or group) of a test file, from its path under tests/."""
    parts = Path(path).parts
    if len(parts) > 2 and parts[-2] in families:
        return parts[-2]
    stem = Path(path).stem.removeprefix("test_")
    stem = ALIASES.get(stem, stem)
    for name in sorted(families, key=len, reverse=True):
        if stem == name or stem.startswith(name + "_"):
            return name
    for group, starts in GROUPS.items():
        if stem.startswith(starts):
            return group
    return "other"


class FamilySeconds:
    def __init__(self, config: pytest.Config):
        self.config = config
        # The folder is this run's alone: a test that runs pytest in a
        # subprocess (tests/test_xla_jax_range.py) does not write its own
        # figures there, which would count its tests twice.
        self.folder = os.environ.pop("ENVPOOL_LITE_TEST_TIMES", None)
        self.families = family_names()
        self.tests: dict[str, dict] = {}  # node id: group, seconds, outcome
        self.start = time.time()

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        test = self.tests.setdefault(report.nodeid, {"group": group_of(report.fspath, self.families), "seconds": 0.0, "outcome": "passed"})
        test["seconds"] += report.duration
        if report.failed:
            test["outcome"] = "failed"
        elif report.skipped and test["outcome"] != "failed":
            test["outcome"] = "skipped"

    def by_group(self) -> dict[str, dict]:
        groups: dict[str, dict] = {}
        for test in self.tests.values():
            row = groups.setdefault(test["group"], {"tests": 0, "passed": 0, "failed": 0, "skipped": 0, "seconds": 0.0})
            row["tests"] += 1
            row[test["outcome"]] += 1
            row["seconds"] += test["seconds"]
        return dict(sorted(groups.items()))

    @pytest.hookimpl
    def pytest_terminal_summary(self, terminalreporter) -> None:
        groups = self.by_group()
        if not groups:
            return
        terminalreporter.section("tests and seconds by family")
        for name, row in groups.items():
            terminalreporter.write_line(f"{name:<20} {row['tests']:>5} tests {row['seconds']:>8.1f} s")

    @pytest.hookimpl
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        folder = self.folder
        groups = self.by_group()
        if not folder or not groups:
            return
        Path(folder).mkdir(parents=True, exist_ok=True)
        workers = getattr(self.config.option, "numprocesses", None) or 0
        record = {
            "args": [str(a) for a in self.config.invocation_params.args],
            "python": f"{sys.version_info[0]}.{sys.version_info[1]}",
            "workers": workers,
            "wall_seconds": time.time() - self.start,
            "groups": groups,
        }
        path = Path(folder) / f"pytest-{os.getpid()}-{int(self.start)}.json"
        path.write_text(json.dumps(record, indent=1))


def register(config: pytest.Config) -> None:
    """conftest.py's pytest_configure: under pytest-xdist only the controller
    counts (it sees every worker's reports)."""
    if not hasattr(config, "workerinput"):
        config.pluginmanager.register(FamilySeconds(config), "family_seconds")
