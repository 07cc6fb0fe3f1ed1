"""Pure-simulation throughput of envpool_lite, side by side with its peers.

Random actions, no learning: steps/s (and frames/s = steps x frame_skip) for
envpool_lite and, in the same run and with the same settings, every peer that
is installed (EnvPool, gymnasium's SyncVectorEnv and AsyncVectorEnv, a plain
for-loop over one gymnasium env; for ViZDoom, vizdoom's own gymnasium env; for
Atari, ale-py's AtariVectorEnv, and gymnasium's envs wrapped in
AtariPreprocessing + FrameStackObservation with the same settings; for
MuJoCo, gymnasium's own MuJoCo envs; for pgx's games, pgx itself, jitted and
vmapped on the CPU). Repeats are interleaved across systems so
that machine noise hits all of them alike; the median is reported with the
spread (min-max).

    python benchmarks/fps.py                 # the headline settings, about 4 minutes
    python benchmarks/fps.py --full          # the complete sweep, about 32 minutes (MuJoCo: about 12 of them, dm_control 7)
    python benchmarks/fps.py --quick         # under a minute
    python benchmarks/fps.py --systems envpool_lite,envpool --tasks CartPole-v1
    python benchmarks/fps.py --out results/  # a directory (fps.json, fps.png) or a .json file
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

# Its modules beside it (also when loaded from its path, as the tests do):
# fps_tasks (the tasks, from the families' plug-ins), peers/ (a module per
# system), fps_report (progress, table, plot).
if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from fps_report import Progress, cpu_model, describe_left_out, plot, print_table, versions  # noqa: E402
from fps_tasks import TASKS, configs_of, limit_steps, steps_of  # noqa: E402
from peers import DEFAULT_SYSTEMS, SYSTEMS, peer_cannot_run, worth_a_note  # noqa: E402
from peers.common import CORES, Config, Skip  # noqa: E402
from peers.envpool_lite import single_thread_limit  # noqa: E402

if TYPE_CHECKING:
    from envpool_lite.families import BenchmarkTask


class _Parser(argparse.ArgumentParser):
    """Bad arguments get one line, not a usage block or a traceback."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def _parse_configs(parser: argparse.ArgumentParser, text: str) -> list[Config]:
    configs = []
    for item in text.split(","):
        try:
            envs, batch, threads = (int(x) for x in item.split(":"))
        except ValueError:
            parser.error(f"--configs: {item!r} is not envs:batch:threads (three integers, e.g. 16:8:2)")
        if envs < 1 or not 1 <= batch <= envs or threads < 1:
            parser.error(f"--configs: {item!r} needs envs >= 1, 1 <= batch <= envs and threads >= 1")
        configs.append(Config(envs, batch, threads))
    return configs


def _output_path(out: str) -> Path:
    """--out: a .json file, or a directory (existing, or ending in a slash,
    or without a suffix) that gets fps.json."""
    path = Path(out)
    if path.is_dir() or out.endswith(("/", os.sep)) or not path.suffix:
        return path / "fps.json"
    return path


def main(argv: list[str] | None = None) -> dict:
    parser = _Parser(prog="fps.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    scale = parser.add_mutually_exclusive_group()
    scale.add_argument("--quick", action="store_true", help="one setting per task, under a minute")
    scale.add_argument("--full", action="store_true", help="the complete sweep (thread and env sweeps), about 32 minutes on 2 cores")
    parser.add_argument("--tasks", default=",".join(TASKS), help=f"comma-separated, from {', '.join(TASKS)}")
    parser.add_argument("--systems", default=",".join(DEFAULT_SYSTEMS), help=f"comma-separated, from {', '.join(SYSTEMS)} (default: all but ray_1 and ray_2, the distributed pool)")
    parser.add_argument("--repeats", type=int, default=None, help="measurements per system and setting (default 3; 5 with --full)")
    parser.add_argument("--configs", default=None, help="override the settings: 'envs:batch:threads,...'")
    parser.add_argument("--steps", type=int, default=None, help="steps per measurement (default depends on the task and system)")
    parser.add_argument("--no-plot", action="store_true", help="skip the PNG")
    parser.add_argument("--out", default="benchmarks/results/fps.json", help="a .json file, or a directory for fps.json (the PNG goes beside it)")
    args = parser.parse_args(argv)

    run_scale = "quick" if args.quick else "full" if args.full else "default"
    for t in args.tasks.split(","):
        if t not in TASKS:
            parser.error(f"--tasks: unknown task {t!r}; choose from {', '.join(TASKS)}")
    tasks = [TASKS[t] for t in args.tasks.split(",")]
    systems = args.systems.split(",")
    for s in systems:
        if s not in SYSTEMS:
            parser.error(f"--systems: unknown system {s!r}; choose from {', '.join(SYSTEMS)}")
    if args.repeats is not None and args.repeats < 1:
        parser.error(f"--repeats must be >= 1, got {args.repeats}")
    if args.steps is not None and args.steps < 1:
        parser.error(f"--steps must be >= 1, got {args.steps}")
    repeats = args.repeats or (5 if run_scale == "full" else 3)
    override = _parse_configs(parser, args.configs) if args.configs else None
    out = _output_path(args.out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        parser.error(f"--out: cannot create {out.parent} ({e.strerror})")
    try:  # fail now, not after minutes of measuring
        existed = out.exists()
        with out.open("a"):
            pass
        if not existed:
            out.unlink()
    except OSError as e:
        parser.error(f"--out: cannot write {out} ({e.strerror})")

    def task_configs(task: BenchmarkTask) -> list[Config]:
        return override or configs_of(task, run_scale)

    results, notes, limits = [], [], {}
    skipped: set[tuple[str, str, str]] = set()  # (task, system, config)
    progress = Progress(sum(len(task_configs(t)) for t in tasks) * repeats * len(systems))
    try:
        for task in tasks:
            if not task_configs(task):
                continue  # not in this scale's run (--full's dm_control tasks)
            if task.has_limit:
                limits[task.name] = single_thread_limit(task, repeats, limit_steps(task, run_scale))
                progress.note(f"{task.name}: single-thread limit {limits[task.name]:,.0f} steps/s")
            else:
                progress.note(f"{task.name}: no single-thread limit (its C++ loop's uniform random actions would be illegal moves)")
            # The peers that did not run, said once per task: system ->
            # reason -> the settings it applies to.
            left_out: dict[str, dict[str, list[str]]] = {}
            for cfg in task_configs(task):
                rates: dict[str, list[float]] = {s: [] for s in systems}
                for _r in range(repeats):
                    for system in systems:  # interleaved: noise hits every system alike
                        what = f"{task.name} {cfg.label()} {system}"
                        if (task.name, system, cfg.label()) in skipped:
                            progress.advance(None)  # said once already
                            continue
                        try:
                            steps = args.steps or steps_of(task, system, cfg, run_scale)
                            try:
                                rates[system].append(SYSTEMS[system](task, cfg, steps))
                            except Exception as e:
                                raise peer_cannot_run(system, e) from e
                            progress.advance(f"{what}: {rates[system][-1]:,.0f} steps/s")
                        except Skip as e:
                            skipped.add((task.name, system, cfg.label()))
                            progress.advance(None)
                            left_out.setdefault(system, {}).setdefault(str(e), []).append(f"{cfg.num_envs}:{cfg.batch_size}:{cfg.num_threads}")
                            note = f"{system}: skipped ({e})"
                            if worth_a_note(system, task, cfg, e) and note not in notes:
                                notes.append(note)
                for system, values in rates.items():
                    if not values:
                        continue
                    med = statistics.median(values)
                    results.append(
                        {
                            "task": task.name,
                            "system": system,
                            **dataclasses.asdict(cfg),
                            "mode": cfg.mode,
                            "steps_per_s": med,
                            "frames_per_s": med * task.frame_skip,
                            "min": min(values),
                            "max": max(values),
                            "runs": values,
                            "efficiency": med / (cfg.num_threads * limits[task.name]) if task.name in limits else None,
                        }
                    )
            if left_out:
                progress.note(f"{task.name}: left out: {describe_left_out(left_out, len(task_configs(task)))}", always=True)
    finally:
        progress.close()

    report = {
        "command": " ".join(["benchmarks/fps.py", *(argv if argv is not None else sys.argv[1:])]),
        "scale": run_scale,
        "date": time.strftime("%Y-%m-%d"),
        "machine": {"cores": CORES, "cpu": cpu_model(), "platform": platform.platform()},
        "versions": versions(),
        "repeats": repeats,
        "single_thread_limit_steps_per_s": limits,
        "notes": notes,
        "results": results,
    }
    out.write_text(json.dumps(report, indent=2))
    print_table(report)
    for n in notes:
        print(n)
    print(f"JSON: {out}")
    if not args.no_plot:
        png = plot(report, out.with_suffix(".png"))
        if png:
            print(f"plot: {png}")
    return report


if __name__ == "__main__":
    main()
