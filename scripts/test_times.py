"""Each family's tests and seconds over a whole `make test` (or CI's wheel
runs), held against its budget in docs/ci.md.

Every pytest run of `make test` writes its figures (tests/family_seconds.py)
as a JSON file into one folder; this sums them by family and prints one line
a family: its tests (passed, skipped, failed), its seconds, its budget, and
"OVER BUDGET" where it spent more. A family over its budget is a line in
CI's output, not a failure: the machine's speed varies from run to run, and
docs/ci.md says what to do about it.

    python scripts/test_times.py build/test-times/3.11 [--budgets docs/ci.md]
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def read_budgets(path: Path) -> dict[str, float]:
    """The budgets table of docs/ci.md: the rows under the header row whose
    first cell is "family" and one of whose cells is "budget (s)"."""
    budgets: dict[str, float] = {}
    column = None
    for line in path.read_text().splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")] if line.lstrip().startswith("|") else None
        if cells is None:
            column = None
            continue
        if column is None:
            if cells[0] == "family" and "budget (s)" in cells:
                column = cells.index("budget (s)")
            continue
        if set(cells[0]) <= set("-: "):
            continue
        value = re.sub(r"[^0-9.]", "", cells[column])
        if value:
            budgets[cells[0]] = float(value)
    return budgets


def collect(folder: Path) -> tuple[dict[str, dict], float]:
    """Each family's figures summed over the folder's JSON files, and the
    runs' wall seconds summed."""
    total: dict[str, dict] = {}
    wall = 0.0
    for path in sorted(folder.glob("*.json")):
        record = json.loads(path.read_text())
        wall += record["wall_seconds"]
        for name, row in record["groups"].items():
            into = total.setdefault(name, {"tests": 0, "passed": 0, "failed": 0, "skipped": 0, "seconds": 0.0})
            for key, value in row.items():
                into[key] += value
    return dict(sorted(total.items())), wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="the folder of the pytest runs' JSON files (ENVPOOL_LITE_TEST_TIMES)")
    parser.add_argument("--budgets", type=Path, default=ROOT / "docs" / "ci.md", help="the markdown file with the budgets table")
    parser.add_argument("--no-budgets", action="store_true", help="no budget column (the budgets are make test's, not a wheel's sampled run's)")
    parser.add_argument("--title", default="tests and seconds by family", help="the heading of the table")
    args = parser.parse_args(argv)
    families, wall = collect(args.folder)
    if not families:
        print(f"test_times: no pytest figures in {args.folder}")
        return 0
    budgets = {} if args.no_budgets else read_budgets(args.budgets)
    where = "" if args.no_budgets else f"; budgets: {args.budgets.relative_to(ROOT) if args.budgets.is_relative_to(ROOT) else args.budgets}"
    print(f"=== {args.title} (seconds: setup + call + teardown of each test{where}) ===")
    print(f"{'family':<20} {'tests':>6} {'passed':>7} {'skipped':>8} {'failed':>7} {'seconds':>9} {'budget':>7}")
    over = []
    for name, row in families.items():
        budget = budgets.get(name)
        note = ""
        if args.no_budgets:
            pass
        elif budget is None:
            note = "  NO BUDGET (docs/ci.md)"
        elif row["seconds"] > budget:
            note = f"  OVER BUDGET by {row['seconds'] - budget:.0f} s"
            over.append(name)
        shown = f"{budget:.0f}" if budget is not None else "-"
        print(f"{name:<20} {row['tests']:>6} {row['passed']:>7} {row['skipped']:>8} {row['failed']:>7} {row['seconds']:>9.1f} {shown:>7}{note}")
    seconds = sum(row["seconds"] for row in families.values())
    tests = sum(row["tests"] for row in families.values())
    print(f"{'all':<20} {tests:>6} {'':>7} {'':>8} {'':>7} {seconds:>9.1f}   (wall {wall:.0f} s over the pytest runs)")
    if over:
        print(f"test_times: over budget: {', '.join(over)} (docs/ci.md: what to do)")
        if len(over) >= 0.75 * len(budgets):
            print("test_times: nearly every family is over: this machine ran slower than when the budgets were set (docs/ci.md)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
