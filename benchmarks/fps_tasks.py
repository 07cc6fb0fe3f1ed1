"""benchmarks/fps.py's tasks and the settings they are measured at.

Each family declares its own tasks in its plug-in
(``Family.benchmark_tasks`` in ``envpool_lite/families/<family>``, records
of ``envpool_lite.families.BenchmarkTask``); TASKS collects them, by name,
in fps.py's order: the families of FAMILIES, then any other family's by its
name, then the tasks from pixels.
"""

from __future__ import annotations

import pkgutil

from peers.common import CORES, Config

import envpool_lite.families
from envpool_lite.families import BenchmarkTask, plugin

#: The families in the order of fps.py's table (the headline tasks first).
FAMILIES = ("classic_control", "toy_text", "vizdoom", "atari", "mujoco", "dm_control", "box2d", "procgen", "minigrid", "gymnasium_robotics", "metaworld", "myosuite", "highway", "pgx")


def collect() -> dict[str, BenchmarkTask]:
    """Every family's benchmark tasks, by name."""
    others = sorted(m.name for m in pkgutil.iter_modules(envpool_lite.families.__path__) if m.name not in FAMILIES and not m.name.startswith("_"))
    tasks = [task for family in (*FAMILIES, *others) for task in plugin(family).benchmark_tasks]
    # The tasks from pixels last (the slowest, drawn by each env's thread).
    tasks.sort(key=lambda task: bool(task.options.get("from_pixels")))
    out: dict[str, BenchmarkTask] = {}
    for task in tasks:
        if task.name in out:
            raise ValueError(f"two benchmark tasks named {task.name!r}")
        out[task.name] = task
    return out


TASKS = collect()


# --- settings -----------------------------------------------------------------
SCALES = ("quick", "default", "full")
STEP_DIVISOR = {"quick": 8, "default": 4, "full": 1}  # of a measurement's steps


def default_configs() -> list[Config]:
    """The --full sweep, fitted to this machine's cores."""
    threads = sorted({1, 2, 4, 8, 16, CORES} & set(range(1, CORES + 1)))
    configs = [Config(1, 1, 1)]  # round-trip latency
    configs += [Config(256, 128, t, "threads") for t in threads]  # async, by threads
    configs += [Config(n, n, CORES, "envs") for n in (4, 16, 64, 256)]  # sync, by envs
    configs += [Config(64, 16, CORES)]
    return configs


def configs_of(task: BenchmarkTask, scale: str) -> list[Config]:
    """The task's settings in a run of this scale (none: not in that run)."""
    chosen = {"quick": task.quick, "default": task.headline, "full": task.full}[scale]
    if scale == "full" and not chosen:
        return default_configs()
    return [Config(*c) for c in chosen]


def steps_for(system: str, cfg: Config, scale: str) -> int:
    base = 100_000 // STEP_DIVISOR[scale]
    if system.startswith("gymnasium"):
        base //= 4  # Python-speed peers: fewer steps, same precision in practice
    if cfg.num_envs == 1:
        base //= 2
    return base


def steps_of(task: BenchmarkTask, system: str, cfg: Config, scale: str) -> int:
    """Steps per measurement: the task's (a quarter for gymnasium's
    Python-speed peers), else steps_for's."""
    if task.steps:
        return max(1, task.steps // STEP_DIVISOR[scale] // (4 if system.startswith("gymnasium") else 1))
    return steps_for(system, cfg, scale)


def limit_steps(task: BenchmarkTask, scale: str) -> int:
    """Steps of a single-thread limit's measurement."""
    return (task.limit_steps or 1_000_000) // STEP_DIVISOR[scale]
