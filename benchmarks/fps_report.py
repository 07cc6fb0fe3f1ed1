"""What benchmarks/fps.py shows and writes beside its measurements: the
progress while it measures, the table, the plot, and the report's machine
and versions."""

from __future__ import annotations

import importlib.metadata
import platform
import sys
import time
from pathlib import Path

from peers import SYSTEMS


def versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for pkg in ["envpool_lite", "envpool", "gymnasium", "numpy", "dm-env", "ale-py", "vizdoom", "dm_control", "mujoco", "box2d", "pygame-ce", "jax", "pgx"]:
        try:
            out[pkg] = importlib.metadata.version(pkg)
        except importlib.metadata.PackageNotFoundError:
            pass
    return out


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


class Progress:
    """A rich progress bar on a terminal; elsewhere (a log, CI, `| tee`) one
    plain line per measurement, flushed at once."""

    def __init__(self, total: int):
        self._total, self._done, self._start = total, 0, time.monotonic()
        self._bar = None
        if sys.stdout.isatty():
            try:
                from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
                from rich.progress import Progress as RichProgress

                self._bar = RichProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), transient=True)
                self._bar.start()
                self._task = self._bar.add_task("benchmark", total=total)
            except ImportError:
                pass

    def note(self, text: str, always: bool = False) -> None:
        """A line between measurements (the single-thread limits; with
        always, above the bar on a terminal too)."""
        if self._bar is None:
            print(f"[{self._elapsed()}] {text}", flush=True)
        elif always:
            self._bar.console.print(text, markup=False, highlight=False)

    def advance(self, description: str | None) -> None:
        """One measurement done (description None: nothing to say)."""
        self._done += 1
        if self._bar is not None:
            self._bar.update(self._task, advance=1, **({"description": description} if description else {}))
        elif description:
            print(f"[{self._done}/{self._total} {self._elapsed()}] {description}", flush=True)

    def _elapsed(self) -> str:
        secs = int(time.monotonic() - self._start)
        return f"{secs // 60}:{secs % 60:02d}"

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()


def describe_left_out(left_out: dict[str, dict[str, list[str]]], num_configs: int) -> str:
    """One line for the peers a task left out: each system with its
    reason(s), and the settings a reason applies to unless it is all of
    them ("vizdoom_gym (not a ViZDoom task); gymnasium_sync (one env: see
    gymnasium_loop, at 1:1:1)")."""
    parts = []
    for system, reasons in left_out.items():
        said = [reason if len(settings) == num_configs else f"{reason}, at {' '.join(settings)}" for reason, settings in reasons.items()]
        parts.append(f"{system} ({'; '.join(said)})")
    return "; ".join(parts)


def ratio_to(rows: list[dict], peer: str) -> dict[tuple, float]:
    return {(r["task"], r["num_envs"], r["batch_size"], r["num_threads"]): r["steps_per_s"] for r in rows if r["system"] == peer}


def print_table(report: dict) -> None:
    rows = report["results"]
    ref = ratio_to(rows, "envpool")
    own = ratio_to(rows, "envpool_lite")
    header = ["task", "envs", "batch", "threads", "system", "steps/s", "frames/s", "spread (min-max)", "vs EnvPool", "efficiency"]
    table = []
    for r in rows:
        key = (r["task"], r["num_envs"], r["batch_size"], r["num_threads"])
        ratio = f"{r['steps_per_s'] / ref[key]:.2f}x" if key in ref else "-"
        if r["system"].startswith("ray_") and key in own:  # the distributed pool: against the in-process one
            ratio += f" ({r['steps_per_s'] / own[key]:.0%} of in-process)"
        spread = f"{r['min']:,.0f}-{r['max']:,.0f}"
        efficiency = "-" if r["efficiency"] is None else f"{r['efficiency']:.0%}"  # no single-thread limit: pgx's board games
        table.append([r["task"], str(r["num_envs"]), str(r["batch_size"]), str(r["num_threads"]), r["system"], f"{r['steps_per_s']:,.0f}", f"{r['frames_per_s']:,.0f}", spread, ratio, efficiency])
    limits = ", ".join(f"{t} {v:,.0f} steps/s" for t, v in report["single_thread_limit_steps_per_s"].items())
    title = f"Throughput on {report['machine']['cpu']} ({report['machine']['cores']} cores), median of {report['repeats']}; single-thread C++ limit: {limits}"
    try:
        from rich.console import Console
        from rich.table import Table

        t = Table(title=title)
        for h in header:
            t.add_column(h, justify="left" if h in ("task", "system") else "right")
        for row in table:
            t.add_row(*row)
        console = Console()
        if not console.is_terminal:
            console = Console(width=200)  # a log file: don't squeeze the columns
        console.print(t)
    except ImportError:
        print(title)
        widths = [max(len(h), *(len(row[i]) for row in table)) for i, h in enumerate(header)]
        print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
        for row in table:
            print("  ".join(c.ljust(w) for c, w in zip(row, widths)))


SYSTEM_ORDER = list(SYSTEMS)  # bar order in the plot: ours first


def plot(report: dict, path: Path) -> Path | None:
    """One row per task: steps/s of every system at each setting as grouped
    bars (log scale, min-max whiskers, our ratio to EnvPool written on our
    bars), then a line panel for each sweep the run has (threads, envs)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("note: matplotlib not installed, no plot")
        return None
    fig = figure(report, plt)
    if fig is None:
        return None
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def figure(report: dict, plt):
    """The plot's matplotlib figure (None when there is nothing to draw)."""
    rows = report["results"]
    tasks = list(dict.fromkeys(r["task"] for r in rows))
    if not tasks:
        return None
    sweep_titles = {"threads": ("num_threads", "async, 256 envs, batch 128"), "envs": ("num_envs", f"sync, {report['machine']['cores']} threads")}
    panels = {t: [s for s in sweep_titles if any(r["task"] == t and r["sweep"] == s for r in rows)] for t in tasks}
    has_points = {t: any(r["task"] == t and r["sweep"] == "point" for r in rows) for t in tasks}
    ncols = max(int(has_points[t]) + len(panels[t]) for t in tasks)
    fig = plt.figure(figsize=(max(8.5, 5.5 * ncols), 4.2 * len(tasks)))
    grid = fig.add_gridspec(len(tasks), ncols)
    colors = {s: plt.cm.tab10(i) for i, s in enumerate(SYSTEM_ORDER)}
    limits = report["single_thread_limit_steps_per_s"]
    for i, task in enumerate(tasks):
        kinds = (["point"] if has_points[task] else []) + panels[task]
        for j, kind in enumerate(kinds):
            # A row with fewer panels than the widest one: its last panel
            # spans the rest, so no panel is left empty.
            ax = fig.add_subplot(grid[i, j:] if j == len(kinds) - 1 else grid[i, j])
            if kind == "point":
                _bars(ax, [r for r in rows if r["task"] == task and r["sweep"] == "point"], colors)
                limit = f"; one thread's C++ limit {limits[task]:,.0f} steps/s" if task in limits else ""
                ax.set_title(f"{task}: steps/s by setting (envs/batch/threads){limit}", fontsize=9)
            else:
                key, subtitle = sweep_titles[kind]
                for system in SYSTEM_ORDER:
                    pts = sorted((r[key], r["steps_per_s"], r["min"], r["max"]) for r in rows if r["task"] == task and r["system"] == system and r["sweep"] == kind)
                    if pts:
                        x, y, lo, hi = zip(*pts)
                        ax.errorbar(x, y, yerr=[[a - b for a, b in zip(y, lo)], [b - a for a, b in zip(y, hi)]], marker="o", capsize=3, label=system, color=colors[system])
                ax.set_title(f"{task}: steps/s vs {key} ({subtitle})", fontsize=9)
                ax.set_xlabel(key)
                ax.set_xscale("log", base=2)
                ax.legend(fontsize=7)
            ax.set_ylabel("steps/s (log)")
            ax.set_yscale("log")
            ax.grid(True, axis="y", alpha=0.3)
    fig.suptitle(f"{report['machine']['cpu']} ({report['machine']['cores']} cores), median of {report['repeats']}, whiskers min-max; ratios: envpool_lite / EnvPool", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    return fig


def _bars(ax, rows: list[dict], colors: dict) -> None:
    """Grouped bars: one group per setting, one bar per system measured
    there (centred, so a setting with fewer peers has no gaps)."""
    from matplotlib.patches import Patch

    settings = list(dict.fromkeys((r["num_envs"], r["batch_size"], r["num_threads"]) for r in rows))
    systems = [s for s in SYSTEM_ORDER if any(r["system"] == s for r in rows)]
    by_key = {(r["num_envs"], r["batch_size"], r["num_threads"], r["system"]): r for r in rows}
    width = 0.8 / max(sum((*st, s) in by_key for s in systems) for st in settings)
    for g, setting in enumerate(settings):
        here = [s for s in systems if (*setting, s) in by_key]
        for k, system in enumerate(here):
            r = by_key[(*setting, system)]
            x = g + width * (k - (len(here) - 1) / 2)
            ax.bar(x, r["steps_per_s"], width, color=colors[system])
            ax.errorbar(x, r["steps_per_s"], yerr=[[r["steps_per_s"] - r["min"]], [r["max"] - r["steps_per_s"]]], color="black", capsize=2, linewidth=0.8)
            ref = by_key.get((*setting, "envpool"))
            if system == "envpool_lite" and ref is not None:
                ax.annotate(f"{r['steps_per_s'] / ref['steps_per_s']:.2f}x", (x, r["max"]), textcoords="offset points", xytext=(0, 3), ha="center", fontsize=7, fontweight="bold")
    ax.set_xticks(range(len(settings)))
    ax.set_xticklabels([f"{e}/{b}/{t}\n{'sync' if e == b else 'async'}" for e, b, t in settings], fontsize=8)
    top = max(r["max"] for r in rows)
    bottom = min(r["min"] for r in rows)
    ax.set_ylim(bottom / 1.5, top * 4)  # headroom (log scale) for the ratios and the legend
    ax.legend(handles=[Patch(color=colors[s], label=s) for s in systems], fontsize=7, ncol=min(4, len(systems)), loc="upper left")
