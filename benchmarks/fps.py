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
import contextlib
import dataclasses
import functools
import gc
import importlib.metadata
import json
import os
import platform
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Callable

import numpy as np

# EnvPool's and gymnasium's Box constructors warn about float32 bounds.
warnings.filterwarnings("ignore", message=".*precision lowered.*")

CORES = os.cpu_count() or 1


# --- tasks: one entry each --------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Task:
    name: str  # envpool_lite / EnvPool task id
    gymnasium_id: str | None  # the reference implementation, if any
    frame_skip: int = 1
    # --- ViZDoom (and other heavy envs) ---
    options: dict = dataclasses.field(default_factory=dict)  # make() options for envpool_lite and EnvPool alike
    lite_options: dict = dataclasses.field(default_factory=dict)  # envpool_lite only
    # (envs, batch, threads) settings: the default run's headline ones, the
    # --full sweep (empty: default_configs), and --quick's.
    headline: tuple = ()
    full: tuple = ()
    quick: tuple = ()
    steps: int = 0  # steps per measurement with --full (0: steps_for's); a quarter by default, an eighth with --quick
    limit_steps: int = 0  # steps of the single-thread limit (0: the default)
    vizdoom_gym_id: str | None = None  # vizdoom's own gymnasium env, if any
    atari_game: str | None = None  # Atari: the ROM id, for ale-py's peers
    dm_control: tuple = ()  # dm_control: (domain, task), for dm_control's own loop
    metaworld: str = ""  # Meta-World: metaworld's env name or benchmark (MT10), for metaworld's own loop (in its own venv)
    limit_envs: int = 1  # the single-thread limit over envs 0 .. limit_envs - 1 (a pool whose envs differ by index: MT10's ten tasks)
    procgen: tuple = ()  # Procgen: (game, distribution mode), for procgen's own gym3 env
    env_id: str | None = None  # the id to make, where name is a label (a task with other options)
    envpool_id: str | None = None  # EnvPool's id, where it differs (pgx's games: Go9x9-v1 for go_9x9)
    pgx: str = ""  # pgx: pgx.make's id, for pgx's own jitted loop; random actions are legal ones on every system
    has_limit: bool = True  # False: no single-thread limit (its C++ loop's uniform random actions would be illegal moves)
    # (build/compat group, module): imported before gymnasium.make, for a
    # reference that registers its ids on import (minigrid); group "": the
    # module installed beside envpool_lite (gymnasium_robotics)
    gymnasium_import: tuple = ()

    @property
    def make_id(self) -> str:
        return self.env_id or self.name


TASKS = {
    # Round trip (1 env), sync like gymnasium's vector envs (16), async (256).
    "CartPole-v1": Task("CartPole-v1", "CartPole-v1", frame_skip=1, headline=((1, 1, 1), (16, 16, 2), (256, 128, 2)), quick=((1, 1, 1), (256, 128, 2))),
    # Toy text (tabular, the lightest steps: the pool's own overhead): the
    # issue's round trip (1:1:1) and async 256:128:2, with CartPole's sync 16
    # for gymnasium's SyncVectorEnv. gymnasium 1.4 has no Taxi-v3 (EnvPool's
    # id): Taxi-v4 is the same taxi without rain or a fickle passenger.
    "FrozenLake-v1": Task("FrozenLake-v1", "FrozenLake-v1", frame_skip=1, headline=((1, 1, 1), (16, 16, 2), (256, 128, 2)), quick=((1, 1, 1), (256, 128, 2))),
    "Taxi-v3": Task("Taxi-v3", "Taxi-v4", frame_skip=1, headline=((1, 1, 1), (16, 16, 2), (256, 128, 2)), quick=((1, 1, 1), (256, 128, 2))),
    # ViZDoom: EnvPool's Basic-v1 settings on both (RGB 84x84, 4 frames
    # stacked, frame_skip 4, 525-step episodes); actions are indices into the
    # 6 legal button combinations. 256 engine processes would not fit here.
    "Basic-v1": Task(
        "Basic-v1",
        None,
        frame_skip=4,
        options={"use_combined_action": True, "max_episode_steps": 525},
        lite_options={"gray_scale": False},
        # Workers mostly wait on engine processes: 8:4:8 shows more threads
        # (envpool_lite's default for ViZDoom: one per env).
        headline=((1, 1, 1), (8, 4, 8)),
        full=((1, 1, 1), (8, 4, 2), (8, 8, 2), (8, 4, 8)),
        quick=((8, 4, 2),),
        steps=2000,
        limit_steps=2000,
        vizdoom_gym_id="VizdoomBasic-v1",
    ),
    # Atari: EnvPool's defaults on every system (84x84 grayscale, 4 frames
    # stacked, frame_skip 4 with max-pooling, up to 30 no-ops and FIRE at
    # reset, sticky actions off, 27,000-step episodes, unclipped rewards).
    "Pong-v5": Task(
        "Pong-v5",
        "ALE/Pong-v5",
        frame_skip=4,
        headline=((1, 1, 1), (16, 8, 2), (16, 16, 2)),
        full=((1, 1, 1), (16, 8, 2), (16, 16, 2), (64, 32, 2)),
        quick=((16, 8, 2),),
        steps=8000,
        limit_steps=8000,
        atari_game="pong",
    ),
    # MuJoCo (gymnasium's tasks, Box actions): the same model, physics and
    # task code on every system. A step is 5 MuJoCo substeps (frame_skip);
    # Ant and Humanoid are ~7x heavier than HalfCheetah, hence fewer steps.
    **{
        name: Task(
            name,
            name,
            frame_skip=5,
            headline=((1, 1, 1), (16, 8, 2), (16, 16, 2)),
            full=((1, 1, 1), (8, 8, 2), (16, 8, 2), (16, 16, 2), (64, 32, 2)),  # 8:8:2 has gymnasium's AsyncVectorEnv
            quick=((16, 8, 2),),
            steps=steps,
            limit_steps=steps,
        )
        for name, steps in (("Ant-v4", 8000), ("Ant-v5", 8000), ("HalfCheetah-v4", 32000), ("HalfCheetah-v5", 32000), ("Humanoid-v5", 8000))
    },
    # dm_control's suite: EnvPool's DMC envs and dm_control's own Python
    # loop (one env), from states. Only in --full (and --tasks): the default
    # run stays within about 5 minutes.
    **{
        name: Task(name, None, headline=(), full=((1, 1, 1), (16, 8, 2)), quick=(), steps=steps, limit_steps=steps, dm_control=dmc)
        for name, dmc, steps in (
            ("CheetahRun-v1", ("cheetah", "run"), 32000),
            ("WalkerWalk-v1", ("walker", "walk"), 32000),
            ("HumanoidRun-v1", ("humanoid", "run"), 8000),
        )
    },
    # Box2D (gymnasium's tasks): LunarLander and BipedalWalker from states,
    # CarRacing from its 96x96 pixels (a 1000x800 frame drawn and scaled down
    # each step, by each env's thread). 16:16:2 has gymnasium's
    # SyncVectorEnv. Only in --full (and --tasks).
    **{
        name: Task(name, name, headline=(), full=((1, 1, 1), (16, 8, 2), (16, 16, 2)), quick=(), steps=steps, limit_steps=steps)
        for name, steps in (("LunarLander-v3", 64000), ("BipedalWalker-v3", 32000), ("CarRacing-v3", 4000))
    },
    # Procgen: procgen 0.10.7's games, 64x64 RGB frames channels-last on
    # every system (procgen's layout; EnvPool's default is channels-first),
    # procgen's other defaults.
    # The peers are EnvPool's Procgen (on the system's Qt 5) and procgen's own
    # gym3 vector env (every env in one C call, its own threads), installed by
    # scripts/setup_compat.sh. Only in --full (and --tasks).
    **{
        name: Task(name, None, options={"channel_first": False}, headline=(), full=((1, 1, 1), (16, 8, 2), (16, 16, 2)), quick=(), steps=steps, limit_steps=steps, procgen=game)
        for name, game, steps in (("BigfishEasy-v0", ("bigfish", "easy"), 40000), ("CoinrunHard-v0", ("coinrun", "hard"), 40000), ("StarpilotEasy-v0", ("starpilot", "easy"), 40000))
    },
    # MiniGrid and BabyAI: minigrid 3.2.0's observation dict (the 7x7x3 view,
    # the direction, the mission). The peers: EnvPool's MiniGrid, and
    # minigrid's own env (build/compat/minigrid_oracle) in a loop and in
    # gymnasium's SyncVectorEnv. Only in --full (and --tasks).
    **{
        name: Task(
            name,
            name,
            headline=(),
            full=((1, 1, 1), (16, 8, 2), (16, 16, 2)),
            quick=(),
            steps=200_000,
            limit_steps=1_000_000,
            gymnasium_import=("minigrid_oracle", "minigrid"),
        )
        for name in ("MiniGrid-DoorKey-8x8-v0", "MiniGrid-FourRooms-v0", "BabyAI-GoToLocal-v0")
    },
    # Gymnasium-Robotics 1.4.2 (goal-conditioned dict observations): the
    # peers are EnvPool's native port (it has no AntMaze) and
    # gymnasium-robotics' own env in a loop and in gymnasium's vector envs.
    # Only in --full (and --tasks).
    **{
        name: Task(name, name, headline=(), full=((1, 1, 1), (16, 8, 2)), quick=(), steps=steps, limit_steps=steps, gymnasium_import=("", "gymnasium_robotics"))
        for name, steps in (("FetchPush-v4", 16000), ("HandManipulateBlock-v1", 8000), ("AntMaze_UMaze-v5", 32000))
    },
    # Meta-World on MuJoCo 3.3.0 (what metaworld 3.1.1 pins): the peers are
    # EnvPool's port (its MetaWorld/<Task>-v3 ids, the same ids here) and
    # metaworld's own MT1 env in a loop, in its own environment
    # (build/compat/metaworld_oracle, a subprocess). Only in --full (and
    # --tasks).
    **{
        name: Task(name, None, headline=(), full=((1, 1, 1), (16, 8, 2)), quick=(), steps=steps, limit_steps=steps, metaworld=env_name)
        for name, env_name, steps in (("MetaWorld/Reach-v3", "reach-v3", 32000), ("MetaWorld/PickPlace-v3", "pick-place-v3", 16000))
    },
    # Meta-World's MT10 as one pool (EnvPool has none): 10 envs (one per
    # task) on 1 thread, and two copies, 20 envs, async on 2 threads; the
    # peer is metaworld's own MT10 vector env (gymnasium's SyncVectorEnv).
    "Meta-World/MT10": Task("Meta-World/MT10", None, headline=(), full=((10, 10, 1), (20, 10, 2)), quick=(), steps=16000, limit_steps=16000, metaworld="MT10", limit_envs=10),
    # highway-env (ported whole): the peers are EnvPool's port (1.2.5 has
    # these ids) and highway-env 1.12.1's own env (pure Python) in a loop and
    # in gymnasium's vector envs, from build/compat/highway_oracle. Only in
    # --full (and --tasks).
    **{
        name: Task(name, name, headline=(), full=((1, 1, 1), (16, 8, 2)), quick=(), steps=steps, limit_steps=steps, gymnasium_import=("highway_oracle", "highway_env"))
        for name, steps in (("highway-v0", 4000), ("intersection-v1", 4000), ("parking-v0", 8000))
    },
    # pgx 2.6.0's games (pgx's ids), beside EnvPool 1.2.5's ports (Go9x9-v1,
    # Chess-v1; it has no MinAtar) and pgx itself. Random actions are legal
    # ones on every system: uniform ones would end nearly every board game at
    # once as an illegal move (a loss in pgx). The pools draw each env's
    # action uniformly among the legal ones of the mask just received
    # (info["legal_action_mask"]: numpy's argmax of mask x uniform noise, the
    # same cost for both); pgx draws it in JAX (act_randomly) inside its
    # jitted step. pgx has no async batch: at 64:32:2 every call steps all 64
    # games. The board games have no single-thread limit (its C++ loop's
    # uniform random actions would measure illegal moves and resets, not
    # play); MinAtar's actions are all legal. Only in --full (and --tasks).
    **{
        name: Task(name, None, headline=(), full=((1, 1, 1), (64, 32, 2)), quick=(), steps=steps, envpool_id=envpool_id, pgx=name, has_limit=has_limit)
        for name, envpool_id, steps, has_limit in (("go_9x9", "Go9x9-v1", 32000, False), ("chess", "Chess-v1", 8000, False), ("minatar-breakout", None, 64000, True))
    },
    # From pixels: 84x84 frames of camera 0, drawn by each env's thread
    # (software OpenGL here). EnvPool 1.2.5's from_pixels aborts without a
    # GL context; the peer is dm_control's pixels.Wrapper loop.
    "CheetahRun-v1:pixels": Task(
        "CheetahRun-v1:pixels",
        None,
        options={"from_pixels": True, "img_height": 84, "img_width": 84, "camera_id": 0},
        headline=(),
        full=((1, 1, 1), (2, 2, 2), (4, 2, 2)),
        quick=(),
        steps=400,
        limit_steps=400,
        dm_control=("cheetah", "run"),
        env_id="CheetahRun-v1",
    ),
}


# --- configurations ---------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Config:
    num_envs: int
    batch_size: int
    num_threads: int
    sweep: str = "point"  # which plot it belongs to: "threads", "envs" or "point"

    @property
    def mode(self) -> str:
        return "sync" if self.batch_size == self.num_envs else "async"

    def label(self) -> str:
        return f"envs={self.num_envs} batch={self.batch_size} threads={self.num_threads} ({self.mode})"


def default_configs() -> list[Config]:
    """The --full sweep, fitted to this machine's cores."""
    threads = sorted({1, 2, 4, 8, 16, CORES} & set(range(1, CORES + 1)))
    configs = [Config(1, 1, 1)]  # round-trip latency
    configs += [Config(256, 128, t, "threads") for t in threads]  # async, by threads
    configs += [Config(n, n, CORES, "envs") for n in (4, 16, 64, 256)]  # sync, by envs
    configs += [Config(64, 16, CORES)]
    return configs


# --- systems: a runner takes (task, config, steps) and returns steps/s --------
class Skip(Exception):
    """A system that cannot run here (not installed, not applicable).
    missing: a dependency of a peer is not installed (always noted)."""

    def __init__(self, message: str, missing: bool = False):
        super().__init__(message)
        self.missing = missing


def _peer_cannot_run(system: str, error: Exception) -> Exception:
    """A peer whose optional part is missing (gymnasium's MuJoCo envs without
    imageio, a gymnasium env whose extra is not installed) is skipped with a
    note; envpool_lite's own errors, and anything else, propagate."""
    import gymnasium.error

    if system != "envpool_lite" and isinstance(error, (ImportError, gymnasium.error.DependencyNotInstalled)):
        name = getattr(error, "name", None)
        what = f"{name} is not installed" if name else str(error).strip().splitlines()[0]
        return Skip(f"{what} ({type(error).__name__})", missing=True)
    return error


def action_space(task: Task):
    """The task's action space (one env), as envpool_lite's spec gives it
    (the same as EnvPool's and gymnasium's for the tasks here)."""
    import envpool_lite

    return envpool_lite.make_spec(task.make_id, num_envs=task.limit_envs, **task.options, **task.lite_options).action_space


def _random_actions(task: Task, batch: int, rng: np.random.Generator, count: int = 64) -> list[np.ndarray]:
    """count batches of uniform random actions: int32 indices for a
    Discrete space, within the bounds for a Box, in its dtype (float32 for gymnasium's MuJoCo tasks, float64 for dm_control's, as both pools take them)."""
    space = action_space(task)
    if hasattr(space, "n"):
        return [rng.integers(0, space.n, size=batch).astype(np.int32) for _ in range(count)]
    return [rng.uniform(space.low, space.high, size=(batch, *space.shape)).astype(space.dtype) for _ in range(count)]


def _run_pool_async(env, task: Task, cfg: Config, steps: int) -> float:
    """The EnvPool-style loop shared by envpool_lite and EnvPool: send the
    batch's actions, receive the next batch."""
    if task.pgx:
        return _run_pool_legal(env, task, cfg, steps)
    rng = np.random.default_rng(0)
    actions = _random_actions(task, cfg.batch_size, rng)
    env.async_reset()
    env_id = env.recv()[-1]["env_id"]
    for i in range(max(20, steps // cfg.batch_size // 10)):  # warm-up
        env.send(actions[i % 64], env_id)
        env_id = env.recv()[-1]["env_id"]
    batches = max(1, steps // cfg.batch_size)
    start = time.perf_counter()
    for i in range(batches):
        env.send(actions[i % 64], env_id)
        env_id = env.recv()[-1]["env_id"]
    return batches * cfg.batch_size / (time.perf_counter() - start)


def _legal_actions(mask: np.ndarray, noise: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row of the mask (env, action):
    the legal action with the most uniform noise."""
    return np.argmax(mask * noise, axis=1).astype(np.int32)


def _run_pool_legal(env, task: Task, cfg: Config, steps: int) -> float:
    """_run_pool_async for pgx's games: each batch's actions are drawn among
    the legal ones of the batch just received (info["legal_action_mask"],
    one row per env, the envs of info["env_id"])."""
    rng = np.random.default_rng(0)
    noise = [rng.random((cfg.batch_size, action_space(task).n), dtype=np.float32) for _ in range(16)]
    env.async_reset()
    info = env.recv()[-1]
    for i in range(max(20, steps // cfg.batch_size // 10)):  # warm-up
        env.send(_legal_actions(info["legal_action_mask"], noise[i % 16]), info["env_id"])
        info = env.recv()[-1]
    batches = max(1, steps // cfg.batch_size)
    start = time.perf_counter()
    for i in range(batches):
        env.send(_legal_actions(info["legal_action_mask"], noise[i % 16]), info["env_id"])
        info = env.recv()[-1]
    return batches * cfg.batch_size / (time.perf_counter() - start)


def run_envpool_lite(task: Task, cfg: Config, steps: int, num_workers: int = 0) -> float:
    import envpool_lite

    env = envpool_lite.make(
        task.make_id, env_type="gymnasium", num_envs=cfg.num_envs, batch_size=cfg.batch_size, num_threads=cfg.num_threads, seed=0,
        num_workers=num_workers, **task.options, **task.lite_options,
    )  # fmt: skip
    try:
        return _run_pool_async(env, task, cfg, steps)
    finally:
        env.close()


def run_ray(num_workers: int, task: Task, cfg: Config, steps: int) -> float:
    """The same pool spread over num_workers Ray actors on this machine (a
    local Ray cluster, started once; or the cluster RAY_ADDRESS names, such
    as scripts/netns_cluster.sh's hosts). Each worker gets the config's threads,
    as each node of a cluster would use its own cores (sharing them out was
    slower here: 2 workers x 1 thread made 68% of the in-process pool's
    Pong-v5 64:16:2 against 72% with 2 x 2)."""
    if cfg.num_envs < num_workers:
        raise Skip(f"needs num_envs >= {num_workers}")
    try:
        import ray
    except ImportError:
        raise Skip("ray not installed (pip install 'envpool_lite[ray]')") from None
    if not ray.is_initialized():
        from envpool_lite.distributed import LOCAL_CLUSTER_OPTIONS

        if os.environ.get("RAY_ADDRESS"):  # a cluster of several hosts (scripts/netns_cluster.sh env)
            ray.init(log_to_driver=False)
        else:
            ray.init(**LOCAL_CLUSTER_OPTIONS, log_to_driver=False, num_cpus=max(CORES, num_workers))
    return run_envpool_lite(task, cfg, steps, num_workers)


def run_envpool(task: Task, cfg: Config, steps: int) -> float:
    import warnings

    # Imported here, not where the pool lives: an exception envpool's import
    # keeps would keep that frame, its pool and its engines alive.
    with warnings.catch_warnings():  # EnvPool's own space warnings
        warnings.simplefilter("ignore")
        try:
            import envpool
        except Exception as e:  # not installed, or broken on this Python
            raise Skip(f"envpool not importable ({type(e).__name__})") from None
    if task.options.get("from_pixels"):
        # Measured here: its make() aborts the process ("an OpenGL platform
        # library has not been loaded") where it has no GL context of its own.
        raise Skip("EnvPool 1.2.5's from_pixels aborts without an OpenGL context")
    if (task.envpool_id or task.make_id) not in envpool.list_all_envs():
        raise Skip(f"EnvPool {getattr(envpool, '__version__', '')} has no {task.envpool_id or task.make_id}")
    with _scratch_cwd(task.vizdoom_gym_id is not None):  # its ViZDoom engines write _vizdoom files there
        return _run_envpool(envpool, task, cfg, steps)


def _run_envpool(envpool, task: Task, cfg: Config, steps: int) -> float:
    import warnings

    with warnings.catch_warnings():  # EnvPool's own space warnings
        warnings.simplefilter("ignore")
        env = envpool.make(task.envpool_id or task.make_id, env_type="gymnasium", num_envs=cfg.num_envs, batch_size=cfg.batch_size, num_threads=cfg.num_threads, seed=0, **task.options)
    try:
        return _run_pool_async(env, task, cfg, steps)
    finally:
        env.close()


@contextlib.contextmanager
def _scratch_cwd(enabled: bool = True):
    """Run in a temporary working directory (ViZDoom peers' engines write
    _vizdoom/ and _vizdoom.ini into theirs)."""
    if not enabled:
        yield
        return
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        # EnvPool's engines, started at once in a fresh directory, race to
        # create it and die ("Failed to create ./_vizdoom/ directory: File
        # exists"), taking the process down.
        os.mkdir("_vizdoom")
        try:
            yield
        finally:
            os.chdir(cwd)
            gc.collect()  # EnvPool closes its engines when its pool is collected
            _wait_for_children_leaving(tmp)


def _wait_for_children_leaving(path: str, timeout: float = 5.0) -> None:
    """Engines closed by a peer may still be exiting (writing their ini)."""
    try:
        import psutil
    except ImportError:
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        busy = False
        for p in psutil.Process().children(recursive=True):
            try:
                busy = busy or p.cwd().startswith(path)
            except psutil.Error:
                pass
        if not busy:
            return
        time.sleep(0.05)


def _gymnasium_atari_wrappers() -> list:
    """gymnasium's Atari preprocessing with EnvPool's settings (frame_skip
    done by the wrapper on a frameskip=1 env, as gymnasium requires)."""
    try:
        import cv2  # noqa: F401  (AtariPreprocessing needs it)
    except ImportError:
        raise Skip("opencv not installed (gymnasium's AtariPreprocessing needs it)") from None
    import gymnasium

    return [
        lambda e: gymnasium.wrappers.AtariPreprocessing(e, noop_max=30, frame_skip=4, screen_size=84, terminal_on_life_loss=False, grayscale_obs=True),
        lambda e: gymnasium.wrappers.FrameStackObservation(e, 4),
    ]


def _gymnasium_kwargs(task: Task) -> dict:
    if task.gymnasium_import and not task.gymnasium_import[0]:
        # A reference installed beside envpool_lite (its family's extra),
        # registered with gymnasium (and runnable on this MuJoCo).
        import gymnasium

        try:
            gymnasium.register_envs(importlib.import_module(task.gymnasium_import[1]))
        except ImportError:
            raise Skip(f"{task.gymnasium_import[1]} not installed", missing=True) from None
        from envpool_lite.families.gymnasium_robotics import patch_reference

        patch_reference()
    elif task.gymnasium_import:
        group, module = task.gymnasium_import
        root = Path(__file__).resolve().parents[1] / "build" / "compat" / group
        if not root.is_dir():
            raise Skip(f"{module} not installed in {root} (bash scripts/setup_compat.sh)", missing=True)
        if str(root) not in sys.path:
            sys.path.append(str(root))
        importlib.import_module(module)
    if task.atari_game is None:
        return {}
    import ale_py
    import gymnasium

    gymnasium.register_envs(ale_py)
    return {"frameskip": 1, "repeat_action_probability": 0.0, "full_action_space": False}


def run_gymnasium_loop(task: Task, cfg: Config, steps: int) -> float:
    """One gymnasium env in a Python for-loop (only meaningful for one env)."""
    if task.gymnasium_id is None:
        raise Skip("no gymnasium implementation")
    if cfg.num_envs != 1:
        raise Skip("a single env loop")
    import gymnasium

    env = gymnasium.make(task.gymnasium_id, **_gymnasium_kwargs(task))
    if task.atari_game is not None:
        for wrap in _gymnasium_atari_wrappers():
            env = wrap(env)
    rng = np.random.default_rng(0)
    single = _random_actions(task, 1024, rng, count=1)[0]  # one env's 1024 actions
    actions = single.tolist() if single.ndim == 1 else list(single)  # ints, or float32 arrays
    env.reset(seed=0)
    start = time.perf_counter()
    for i in range(steps):
        _, _, term, trunc, _ = env.step(actions[i % 1024])
        if term or trunc:
            env.reset()
    rate = steps / (time.perf_counter() - start)
    env.close()
    return rate


def run_dm_control_loop(task: Task, cfg: Config, steps: int) -> float:
    """One dm_control env (suite.load) in a Python for-loop (one env only)."""
    if not task.dm_control:
        raise Skip("not a dm_control task")
    if cfg.num_envs != 1:
        raise Skip("a single env loop")
    try:
        from dm_control import suite
    except ImportError:
        raise Skip("dm_control not installed", missing=True) from None
    env = suite.load(*task.dm_control, task_kwargs={"random": 0})
    if task.options.get("from_pixels"):
        from dm_control.suite.wrappers import pixels

        size = {"height": task.options["img_height"], "width": task.options["img_width"], "camera_id": task.options["camera_id"]}
        env = pixels.Wrapper(env, pixels_only=True, render_kwargs=size)
    spec = env.action_spec()
    actions = list(np.random.default_rng(0).uniform(spec.minimum, spec.maximum, size=(1024, *spec.shape)))
    env.reset()
    start = time.perf_counter()
    for i in range(steps):
        if env.step(actions[i % 1024]).last():
            env.reset()
    return steps / (time.perf_counter() - start)


_METAWORLD_LOOP = """
import sys, time, warnings
import numpy as np
warnings.simplefilter("ignore")
import metaworld
name, steps = sys.argv[1], int(sys.argv[2])
actions = np.random.default_rng(0).uniform(-1, 1, (1024, 4)).astype(np.float32)
if name.startswith("MT"):  # a benchmark: its vector env (auto-resets its envs)
    import gymnasium
    env = gymnasium.make_vec(f"Meta-World/{name}", vector_strategy="sync", seed=0)
    n = env.num_envs
    env.reset()
    start = time.perf_counter()
    for i in range(steps // n):
        env.step(np.resize(actions, (n, 4)))
    print((steps // n) * n / (time.perf_counter() - start))
    sys.exit(0)
env = metaworld.make_mt_envs(name, seed=0)
env.reset()
start = time.perf_counter()
for i in range(steps):
    _, _, term, trunc, _ = env.step(actions[i % 1024])
    if term or trunc:
        env.reset()
print(steps / (time.perf_counter() - start))
"""


def run_metaworld_loop(task: Task, cfg: Config, steps: int) -> float:
    """metaworld's own MT1 env in a Python for-loop (one env; MT10: its vector
    env of 10, gymnasium's SyncVectorEnv), on mujoco
    3.3.0 from build/compat/metaworld_oracle (scripts/setup_compat.sh), in
    a subprocess: that MuJoCo cannot be imported beside the venv's. The rate
    is measured inside the subprocess, without its start."""
    if not task.metaworld:
        raise Skip("not a Meta-World task")
    if cfg.num_envs != (10 if task.metaworld == "MT10" else 1):
        raise Skip("one vector env of the benchmark" if task.metaworld == "MT10" else "a single env loop")
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"  # scripts/setup_compat.sh's folder for this Python
    root = Path(__file__).resolve().parents[1] / "build" / ("compat" if version == "3.11" else f"compat-{version}") / "metaworld_oracle"
    if not (root / "metaworld").is_dir():
        raise Skip(f"metaworld 3.1.1 not installed in {root} (bash scripts/setup_compat.sh)", missing=True)
    import subprocess

    env = dict(os.environ, PYTHONPATH=str(root))
    out = subprocess.run([sys.executable, "-c", _METAWORLD_LOOP, task.metaworld, str(steps)], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def _run_gymnasium_vector(mode: str, task: Task, cfg: Config, steps: int) -> float:
    if task.gymnasium_id is None:
        raise Skip("no gymnasium implementation")
    if cfg.batch_size != cfg.num_envs:
        raise Skip("sync only")
    if cfg.num_envs == 1:
        raise Skip("one env: see gymnasium_loop")
    if mode == "async" and cfg.num_envs > 4 * CORES:
        raise Skip(f"{cfg.num_envs} subprocesses on {CORES} cores")
    import gymnasium

    wrappers = _gymnasium_atari_wrappers() if task.atari_game is not None else None
    env = gymnasium.make_vec(task.gymnasium_id, num_envs=cfg.num_envs, vectorization_mode=mode, wrappers=wrappers, **_gymnasium_kwargs(task))
    rng = np.random.default_rng(0)
    actions = _random_actions(task, cfg.num_envs, rng)
    rate = _time_vector_env(env, actions, cfg.num_envs, steps)
    env.close()
    return rate


def _time_vector_env(env, actions: list, num_envs: int, steps: int) -> float:
    """Steps/s of a gymnasium VectorEnv stepping every env each call, after a
    short warm-up."""
    env.reset(seed=0)
    for i in range(10):
        env.step(actions[i % len(actions)])
    batches = max(1, steps // num_envs)
    start = time.perf_counter()
    for i in range(batches):
        env.step(actions[i % len(actions)])
    return batches * num_envs / (time.perf_counter() - start)


def run_vizdoom_gym(task: Task, cfg: Config, steps: int) -> float:
    """vizdoom's own gymnasium env (full-resolution screens, its own
    discrete actions, frame_skip as ours): one env in a Python loop for one
    env, else one env per subprocess in gymnasium's AsyncVectorEnv (it has no
    batch smaller than num_envs: every step steps all envs)."""
    if task.vizdoom_gym_id is None:
        raise Skip("not a ViZDoom task")
    if cfg.num_envs > 4 * CORES:
        raise Skip(f"{cfg.num_envs} subprocesses on {CORES} cores")
    try:
        import gymnasium
        import vizdoom.gymnasium_wrapper  # noqa: F401  (registers its envs)
    except Exception as e:
        raise Skip(f"vizdoom's gymnasium env not importable ({type(e).__name__})") from None
    kwargs = {"frame_skip": task.frame_skip}
    rng = np.random.default_rng(0)
    with _scratch_cwd():  # its engines write _vizdoom files into the working directory
        if cfg.num_envs == 1:
            env = gymnasium.make(task.vizdoom_gym_id, **kwargs)
            actions = rng.integers(0, env.action_space.n, size=1024).tolist()
            env.reset(seed=0)
            for i in range(10):
                env.step(actions[i])
            start = time.perf_counter()
            for i in range(steps):
                _, _, term, trunc, _ = env.step(actions[i % 1024])
                if term or trunc:
                    env.reset()
            rate = steps / (time.perf_counter() - start)
        else:
            env = gymnasium.make_vec(task.vizdoom_gym_id, num_envs=cfg.num_envs, vectorization_mode="async", **kwargs)
            actions = [rng.integers(0, env.single_action_space.n, size=cfg.num_envs) for _ in range(64)]
            rate = _time_vector_env(env, actions, cfg.num_envs, steps)
        env.close()
    return rate


def run_procgen_gym3(task: Task, cfg: Config, steps: int) -> float:
    """procgen's own vector env, ProcgenGym3Env(num=num_envs) (its Python
    over its libenv.so, which steps every env in one C call on num_threads
    threads of its own; one env: no threads), from the official 0.10.7
    wheel that scripts/setup_compat.sh installs into build/compat. Sync only:
    every act() steps every env."""
    if not task.procgen:
        raise Skip("not a Procgen task")
    if cfg.batch_size != cfg.num_envs:
        raise Skip("sync only")
    root = Path(__file__).resolve().parents[1] / "build" / "compat" / "procgen_oracle"
    if not (root / "procgen" / "env.py").is_file():
        raise Skip(f"procgen 0.10.7 not installed in {root} (bash scripts/setup_compat.sh)", missing=True)
    if "procgen" not in sys.modules:  # procgen/env.py without procgen/__init__.py's gym registration
        import types

        sys.path.append(str(root))
        package = types.ModuleType("procgen")
        package.__path__ = [str(root / "procgen")]
        sys.modules["procgen"] = package
    from procgen.env import ProcgenGym3Env

    game, mode = task.procgen
    threads = 0 if cfg.num_envs == 1 else cfg.num_threads
    env = ProcgenGym3Env(num=cfg.num_envs, env_name=game, distribution_mode=mode, rand_seed=0, num_threads=threads)
    rng = np.random.default_rng(0)
    actions = [rng.integers(0, 15, cfg.num_envs).astype(np.int32) for _ in range(64)]
    for i in range(10):
        env.act(actions[i])
        env.observe()
    batches = max(1, steps // cfg.num_envs)
    start = time.perf_counter()
    for i in range(batches):
        env.act(actions[i % 64])
        env.observe()
    rate = batches * cfg.num_envs / (time.perf_counter() - start)
    env.close()
    return rate


def run_ale_vector(task: Task, cfg: Config, steps: int) -> float:
    """ale-py's AtariVectorEnv (ALE's own C++ thread pool, same batching and
    preprocessing settings), driven by the same send/recv loop."""
    if task.atari_game is None:
        raise Skip("not an Atari task")
    try:
        from ale_py.vector_env import AtariVectorEnv
    except Exception as e:
        raise Skip(f"ale_py.vector_env not importable ({type(e).__name__})") from None
    env = AtariVectorEnv(
        task.atari_game,
        cfg.num_envs,
        batch_size=cfg.batch_size,
        num_threads=cfg.num_threads,
        frameskip=task.frame_skip,
        stack_num=4,
        img_height=84,
        img_width=84,
        grayscale=True,
        maxpool=True,
        noop_max=30,
        use_fire_reset=True,
        episodic_life=False,
        reward_clipping=False,
        repeat_action_probability=0.0,
        max_num_frames_per_episode=27000 * task.frame_skip,
    )
    rng = np.random.default_rng(0)
    actions = _random_actions(task, cfg.batch_size, rng)
    try:
        env.reset(seed=0)
        for i in range(max(20, steps // cfg.batch_size // 10)):  # warm-up
            env.send(actions[i % 64])
            env.recv()
        batches = max(1, steps // cfg.batch_size)
        start = time.perf_counter()
        for i in range(batches):
            env.send(actions[i % 64])
            env.recv()
        return batches * cfg.batch_size / (time.perf_counter() - start)
    finally:
        env.close()


@functools.cache
def _pgx_functions(env_id: str, num_envs: int) -> tuple:
    """pgx's init and step of num_envs games, vmapped and jitted as pgx's
    users run them: one call draws a random legal action per game
    (act_randomly: a categorical over log(mask)), steps every game and
    starts a new one where one ended (pgx's auto_reset), splitting the keys.
    Made once per game and num_envs, so every repeat runs the compiled
    function."""
    import jax
    import pgx
    from pgx.experimental import act_randomly, auto_reset

    env = pgx.make(env_id)
    step = jax.vmap(auto_reset(env.step, env.init))

    @jax.jit
    def step_all(state, key):
        key, action_key, step_key = jax.random.split(key, 3)
        action = act_randomly(action_key, state.legal_action_mask)
        return step(state, action, jax.random.split(step_key, num_envs)), key

    return jax.jit(jax.vmap(env.init)), step_all


def run_pgx(task: Task, cfg: Config, steps: int) -> float:
    """pgx itself on the CPU: jax.jit(jax.vmap(...)) over num_envs games
    (_pgx_functions), timed after warm-up calls (the first compiles) up to
    block_until_ready. It has no async batch: every call steps all num_envs
    games, whatever batch_size (64:32:2 steps 64 a call), and XLA's CPU
    runtime picks its own threads, whatever num_threads."""
    if not task.pgx:
        raise Skip("not a pgx task")
    try:
        import jax

        init, step = _pgx_functions(task.pgx, cfg.num_envs)
    except ImportError:
        raise Skip("pgx not installed", missing=True) from None
    key, init_key = jax.random.split(jax.random.PRNGKey(0))
    state = init(jax.random.split(init_key, cfg.num_envs))
    for _ in range(10):  # warm-up
        state, key = step(state, key)
    jax.block_until_ready(state)
    calls = max(1, steps // cfg.num_envs)
    start = time.perf_counter()
    for _ in range(calls):
        state, key = step(state, key)
    jax.block_until_ready(state)
    return calls * cfg.num_envs / (time.perf_counter() - start)


SYSTEMS: dict[str, Callable[[Task, Config, int], float]] = {
    "envpool_lite": run_envpool_lite,
    "envpool": run_envpool,
    "gymnasium_loop": run_gymnasium_loop,
    "gymnasium_sync": lambda t, c, s: _run_gymnasium_vector("sync", t, c, s),
    "gymnasium_async": lambda t, c, s: _run_gymnasium_vector("async", t, c, s),
    "vizdoom_gym": run_vizdoom_gym,
    "ale_vector": run_ale_vector,
    "dm_control_loop": run_dm_control_loop,
    "procgen_gym3": run_procgen_gym3,
    "metaworld_loop": run_metaworld_loop,
    "pgx": run_pgx,
    # The distributed pool (make(..., num_workers=K)) on a local Ray cluster:
    # not in the default run (it needs the [ray] extra and measures Ray's
    # overhead rather than a peer); ask for it with --systems.
    "ray_1": lambda t, c, s: run_ray(1, t, c, s),
    "ray_2": lambda t, c, s: run_ray(2, t, c, s),
}
DEFAULT_SYSTEMS = [s for s in SYSTEMS if not s.startswith("ray_")]


# --- measuring --------------------------------------------------------------
SCALES = ("quick", "default", "full")
STEP_DIVISOR = {"quick": 8, "default": 4, "full": 1}  # of a measurement's steps


def steps_for(system: str, cfg: Config, scale: str) -> int:
    base = 100_000 // STEP_DIVISOR[scale]
    if system.startswith("gymnasium"):
        base //= 4  # Python-speed peers: fewer steps, same precision in practice
    if cfg.num_envs == 1:
        base //= 2
    return base


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


def single_thread_limit(task: Task, repeats: int, scale: str) -> float:
    """Steps/s of one env in a tight C++ loop on one thread (envpool_lite's
    own env, no engine): the per-core limit of any pool."""
    import envpool_lite
    from envpool_lite import _core

    steps = 1_000_000 // STEP_DIVISOR[scale]
    if task.limit_steps:
        steps = task.limit_steps // STEP_DIVISOR[scale]
    options = envpool_lite.make_spec(task.make_id, num_envs=task.limit_envs, **task.options, **task.lite_options).env_options

    def once() -> float:
        # Envs that differ by index (MT10's tasks): the rate of stepping each
        # in turn, the steps split evenly among them.
        seconds = sum(1 / _core.single_thread_steps_per_second(task.make_id, options, max(1, steps // task.limit_envs), i, i) for i in range(task.limit_envs))
        return task.limit_envs / seconds

    return statistics.median(once() for _ in range(repeats))


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

    def task_configs(task: Task) -> list[Config]:
        if override:
            return override
        chosen = {"quick": task.quick, "default": task.headline, "full": task.full}[run_scale]
        if run_scale == "full" and not chosen:
            return default_configs()
        return [Config(*c) for c in chosen]

    results, notes, limits = [], [], {}
    skipped: set[tuple[str, str, str]] = set()  # (task, system, config)
    progress = Progress(sum(len(task_configs(t)) for t in tasks) * repeats * len(systems))
    try:
        for task in tasks:
            if not task_configs(task):
                continue  # not in this scale's run (--full's dm_control tasks)
            if task.has_limit:
                limits[task.name] = single_thread_limit(task, repeats, run_scale)
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
                            steps = args.steps or (max(1, task.steps // STEP_DIVISOR[run_scale] // (4 if system.startswith("gymnasium") else 1)) if task.steps else steps_for(system, cfg, run_scale))
                            try:
                                rates[system].append(SYSTEMS[system](task, cfg, steps))
                            except Exception as e:
                                raise _peer_cannot_run(system, e) from e
                            progress.advance(f"{what}: {rates[system][-1]:,.0f} steps/s")
                        except Skip as e:
                            skipped.add((task.name, system, cfg.label()))
                            progress.advance(None)
                            left_out.setdefault(system, {}).setdefault(str(e), []).append(f"{cfg.num_envs}:{cfg.batch_size}:{cfg.num_threads}")
                            note = f"{system}: skipped ({e})"
                            if (
                                system == "envpool"
                                or (system == "vizdoom_gym" and task.vizdoom_gym_id)
                                or (system == "ale_vector" and task.atari_game)
                                or (system == "dm_control_loop" and task.dm_control and cfg.num_envs == 1)
                                or e.missing
                            ) and note not in notes:
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


if __name__ == "__main__":
    main()
