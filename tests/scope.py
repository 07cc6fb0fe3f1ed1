"""How far a test run goes: make test (and CI) or make test-full.

make test runs every test, every task id made, stepped and aligned with its
reference; each family's tests fit its budget in docs/ci.md. make test-full
(ENVPOOL_LITE_TEST_SCOPE=full) runs the same tests with their long tails:
more steps through more episode ends, more seeds of the random games. It
is the run before a family's issue is resolved, and after a change to a
family's C++ (docs/ci.md).

A test says where it stretches with these helpers, so that make test keeps
its length and its test ids:

    @pytest.mark.parametrize("seed", scope.seeds([0, 1, 2], more=7))
    def test_random_games(seed):
        run(..., steps=scope.steps(120, full=1000))
"""

from __future__ import annotations

import os

FULL = os.environ.get("ENVPOOL_LITE_TEST_SCOPE") == "full"


def steps(sampled: int, *, full: int) -> int:
    """A run's length: `sampled` in make test, `full` in make test-full."""
    return full if FULL else sampled


def seeds(sampled: list[int], *, more: int) -> list[int]:
    """The seeds of a parametrized test: `sampled` in make test, and `more`
    seeds after the largest of them in make test-full."""
    if not FULL:
        return list(sampled)
    return list(sampled) + [max(sampled) + 1 + k for k in range(more)]
