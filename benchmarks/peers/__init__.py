"""The systems benchmarks/fps.py measures: envpool_lite and its peers, a
module each (the runner of each system: a task, a setting and a number of
steps in, steps/s out; peers/common.py has what they share). A task says
which peers can run it and under which names (``BenchmarkTask.peers``, in
its family's plug-in); how each peer runs it is here.

The peers' names for a task, ``BenchmarkTask.peers``'s keys:

- "gymnasium": gymnasium.make's id of the reference implementation,
  "module:id" where a module registers it (gymnasium_loop, gymnasium_sync,
  gymnasium_async; peers/gymnasium.py knows where each module is);
- "envpool": EnvPool's id, where it is not the task id (envpool);
- "vizdoom": vizdoom's own gymnasium id (vizdoom_gym);
- "ale_py": the ROM of ale-py's vector env (ale_vector); gymnasium's env
  then gets Atari's preprocessing;
- "dm_control": (domain, task) of its suite (dm_control_loop);
- "procgen": (game, distribution mode) of its gym3 env (procgen_gym3);
- "metaworld": its env name, or a benchmark: "MT10" (metaworld_loop);
- "myosuite": myosuite's id (myosuite_loop);
- "pgx": pgx.make's id (pgx); the pools then draw random legal actions
  from each batch's legal_action_mask.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from peers.ale import run_ale_vector
from peers.common import Config, Runner, Skip
from peers.dm_control import run_dm_control_loop
from peers.envpool import run_envpool
from peers.envpool_lite import run_envpool_lite
from peers.gymnasium import run_gymnasium_loop, run_gymnasium_vector
from peers.metaworld import run_metaworld_loop
from peers.myosuite import run_myosuite_loop
from peers.pgx import run_pgx
from peers.procgen import run_procgen_gym3
from peers.ray import run_ray
from peers.vizdoom import run_vizdoom_gym

if TYPE_CHECKING:
    from envpool_lite.families import BenchmarkTask

SYSTEMS: dict[str, Runner] = {
    "envpool_lite": run_envpool_lite,
    "envpool": run_envpool,
    "gymnasium_loop": run_gymnasium_loop,
    "gymnasium_sync": lambda t, c, s: run_gymnasium_vector("sync", t, c, s),
    "gymnasium_async": lambda t, c, s: run_gymnasium_vector("async", t, c, s),
    "vizdoom_gym": run_vizdoom_gym,
    "ale_vector": run_ale_vector,
    "dm_control_loop": run_dm_control_loop,
    "procgen_gym3": run_procgen_gym3,
    "metaworld_loop": run_metaworld_loop,
    "myosuite_loop": run_myosuite_loop,
    "pgx": run_pgx,
    # The distributed pool (make(..., num_workers=K)) on a local Ray cluster:
    # not in the default run (it needs the [ray] extra and measures Ray's
    # overhead rather than a peer); ask for it with --systems.
    "ray_1": lambda t, c, s: run_ray(1, t, c, s),
    "ray_2": lambda t, c, s: run_ray(2, t, c, s),
}
DEFAULT_SYSTEMS = [s for s in SYSTEMS if not s.startswith("ray_")]


def peer_cannot_run(system: str, error: Exception) -> Exception:
    """A peer whose optional part is missing (gymnasium's MuJoCo envs without
    imageio, a gymnasium env whose extra is not installed) is skipped with a
    note; envpool_lite's own errors, and anything else, propagate."""
    import gymnasium.error

    if system != "envpool_lite" and isinstance(error, (ImportError, gymnasium.error.DependencyNotInstalled)):
        name = getattr(error, "name", None)
        what = f"{name} is not installed" if name else str(error).strip().splitlines()[0]
        return Skip(f"{what} ({type(error).__name__})", missing=True)
    return error


def worth_a_note(system: str, task: BenchmarkTask, cfg: Config, skip: Skip) -> bool:
    """Whether a skipped system goes into the report's notes: EnvPool, a
    peer skipped on a task of its own (ViZDoom's, Atari's, dm_control's at
    one env), or a peer's dependency that is not installed."""
    return bool(
        system == "envpool"
        or (system == "vizdoom_gym" and task.peers.get("vizdoom"))
        or (system == "ale_vector" and task.peers.get("ale_py"))
        or (system == "dm_control_loop" and task.peers.get("dm_control") and cfg.num_envs == 1)
        or skip.missing
    )
