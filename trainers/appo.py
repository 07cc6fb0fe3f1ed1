"""APPO with V-trace on an envpool_lite pool, the learner on the GPU when
there is one (the same code runs on the CPU).

    python trainers/appo.py --env-id CartPole-v1 --target-return 475
    python trainers/appo.py --env-id Pong-v5 --total-steps 10000000
    python trainers/appo.py --resume runs/<run>/checkpoint.pt --total-steps 2000000
    python trainers/appo.py --eval runs/<run>/checkpoint.pt --eval-episodes 10 --gif play.gif
    python trainers/appo.py --env-id Pong-v5 --num-workers 4 --ray-address <head>:6379

How it works, top to bottom in this file:

- Sampling. A sampler thread drives the pool asynchronously (num_envs >
  env_batch_size: each recv() returns the envs that finished first; recv
  releases the GIL while it waits). It acts with the newest parameters the
  learner has published and stores a trajectory per env_id: observations,
  actions, behaviour log-probs, rewards, the termination / truncation flags
  and the policy version of every step. After `rollout` (T) steps an env's
  trajectory, plus the observation that follows it, goes on a queue.
- Learning overlaps sampling. The main thread takes `batch_rollouts`
  trajectories from the queue and runs APPO on them (PPO's clipped surrogate
  on V-trace advantages, V-trace value targets, an entropy bonus, gradient
  clipping), then publishes the new parameters while the pool keeps
  stepping. Policy lag (learner version - behaviour version, in updates) is
  logged; steps older than max_policy_lag are masked out, and the bounded
  queue keeps the sampler from running far ahead.
- MiniGrid: the agent's 7x7 view as minigrid's symbolic image (an object,
  colour and state id per cell; minigrid's ImgObsWrapper), one-hot encoded
  per id, into the MLPs.
- The edges. NEXT_STEP auto-reset: the step after an episode's end only
  resets the env (reward 0), so that row is masked. Termination cuts the
  bootstrap; truncation keeps it, and the bootstrap is the real V(x) of the
  final observation (the masked row holds it). Atari trains on lost lives
  (episodic_life) but the reported return is the whole game's, unclipped.
- On a cluster (--num-workers K): the pool's envs run in K Ray actors, on
  the env nodes; acting and learning stay here, on the learner's device
  (SEED RL's layout: only observations and actions cross the network). The
  sampler is the same code; each worker's steps/s is logged.
- --deterministic: HTS-RL's one-step lag. The pool runs in sync mode
  (batch_size == num_envs), so results come back in env_id order and nothing
  depends on which env finished first; rollout k is collected with exactly
  version k-1 while the learner computes version k from rollout k-1; action
  sampling and minibatch shuffling use their own seeded generators. Same
  seed, same machine: bit-identical parameters. With --on-policy, acting
  waits for each update instead (lag 0: PPO's on-policy batches, no overlap).
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import dataclasses
import json
import math
import os
import queue
import sys
import threading
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vtrace import vtrace  # noqa: E402

import envpool_lite  # noqa: E402
from envpool_lite.families import NetworkKind  # noqa: E402


# --- hyperparameters ------------------------------------------------------------
@dataclasses.dataclass
class Config:
    env_id: str = "CartPole-v1"
    seed: int = 1
    total_steps: int = 500_000  # agent steps the learner consumes (frames = steps x frame_skip)
    target_return: float = math.inf  # stop once the recent mean full-game return reaches this
    time_limit: float = math.inf  # stop after this many seconds of training
    return_window: int = 20  # episodes in "the recent mean return"
    success_key: str = ""  # a bool info field set at an episode's end when it succeeded (myosuite's "solved"): its recent rate is logged
    # sampling
    num_envs: int = 64
    env_batch_size: int = 32  # envs per recv(); < num_envs is async
    num_threads: int = 0  # pool worker threads (0: auto)
    num_workers: int = 0  # > 0: the envs spread over this many Ray actors (a cluster)
    ray_address: str = ""  # the Ray cluster to join (default: RAY_ADDRESS, else a local one)
    rollout: int = 32  # T: steps per trajectory
    batch_rollouts: int = 32  # trajectories per learner update
    max_policy_lag: int = 10  # steps acted by an older policy (in updates) are masked out
    deterministic: bool = False
    on_policy: bool = False  # with --deterministic: act on round k only with version k (lag 0, as PPO: acting waits for learning)
    # learning
    lr: float = 2e-3
    anneal_lr: bool = False
    gamma: float = 0.99
    lambda_: float = 0.95  # V-trace's lambda (GAE's when on-policy)
    rho_bar: float = 1.0
    c_bar: float = 1.0
    pg_rho_bar: float = 1.0
    clip_coef: float = 0.2
    ent_coef: float = 0.0
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    num_epochs: int = 4
    num_minibatches: int = 2  # per epoch, each a set of whole trajectories
    norm_adv: bool = True
    clip_vloss: bool = False  # PPO's clipped value loss (CleanRL's, pgx's): V may move at most clip_coef from the behaviour-time value
    reward_scale: float = 1.0  # the learner's rewards are multiplied by this (returns are reported unscaled)
    hidden: int = 64  # MLP width (vector and grid observations)
    cnn: str = "nature"  # pixels: "nature" (Mnih 2015: 32-64-64 convs, 512 units), "small" (Mnih 2013 / A3C: 16-32, 256; ~3x fewer FLOPs) or "minatar" (pgx's MinAtar example: (H, W, C) planes)
    # Atari
    episodic_life: bool = True
    reward_clip: bool = True
    # running it
    device: str = "auto"  # learner: cuda when present, else cpu
    actor_device: str = "auto"  # acting: the learner's device
    torch_threads: int = 0  # 0: torch's default
    run_dir: str = "runs"
    run_name: str = ""  # default: <env>__<seed>__<time>
    checkpoint_every: int = 100  # updates (0: only at the end)
    resume: str = ""  # a checkpoint to continue from
    tensorboard: bool = True
    progress: bool = True
    plot: bool = True
    eval: str = ""  # a checkpoint to evaluate instead of training
    eval_episodes: int = 10
    eval_greedy: bool = False
    gif: str = ""  # with --eval: save one episode as a GIF


# Sensible defaults by the kind of network a task wants (its family says which:
# envpool_lite.families.Family.network_kind); flags given on the command line win.
PRESETS: dict[NetworkKind, dict] = {
    NetworkKind.VECTOR: dict(torch_threads=1),  # small MLPs: one thread each for acting and learning is fastest on 2 cores
    # Pixels: Atari, tuned for a 2-core CPU (Pong-v5), where the learner bounds the
    # run: the small CNN (~3x fewer FLOPs than Nature's), one pass over each
    # batch in small minibatches (8 SGD steps per 1,024 steps: many small
    # updates per second of CPU). Tried on Pong: Nature CNN with 4 epochs x 4
    # minibatches of 1,024 (320 steps/s), 1 epoch (1,100 steps/s, no
    # progress in 29 minutes: 4 SGD steps per 4,096 steps); small CNN 2
    # epochs x 4 (1,190), 1 x 4 (1,750), 1 x 8 (2,010); small CNN 4 x 4
    # (CleanRL's update: 711 steps/s, -18.4 at 20 minutes where this preset
    # is at -15.2). trainers/README.md has the 60-minute curve.
    NetworkKind.PIXELS: dict(
        total_steps=10_000_000,
        cnn="small",
        num_envs=64,
        env_batch_size=32,
        rollout=32,
        batch_rollouts=32,  # 1,024 steps per update
        lr=5e-4,
        anneal_lr=True,
        ent_coef=0.01,
        clip_coef=0.1,
        num_epochs=1,
        num_minibatches=8,  # 4 trajectories (128 steps) per SGD step
        checkpoint_every=200,
    ),
    # Continuous control: gymnasium's MuJoCo tasks (Box actions). Tuned on
    # InvertedPendulum-v5 (a mean return of 900 in 34k-36k steps over seeds 1-3): small updates
    # (512 steps) with many SGD passes over few large minibatches, a high
    # learning rate, and rewards scaled down so the value loss does not eat
    # the clipped gradient norm.
    NetworkKind.CONTROL: dict(
        torch_threads=1,
        total_steps=1_000_000,
        num_envs=8,
        env_batch_size=4,
        rollout=64,
        batch_rollouts=8,
        lr=1e-3,
        num_epochs=10,
        num_minibatches=2,
        reward_scale=0.1,
    ),
    # Feature planes: pgx's MinAtar games, with pgx's own PPO example's network, settings and
    # batch shape (4,096 envs, 128-step rollouts, 3 epochs of minibatches of
    # 4,096 steps, lr 3e-4, clip 0.2, entropy 0.01, the clipped value loss),
    # on-policy as PPO is (acting waits for each update): minatar-breakout
    # reaches pgx's reported return at 20M steps (trainers/README.md). The
    # same batch shape with APPO's overlap (each batch acted by a policy one
    # or two updates old, 384 SGD steps each) learned 3x slower.
    NetworkKind.PLANES: dict(
        torch_threads=2,  # acting and learning take turns: both cores each
        total_steps=20_000_000,
        cnn="minatar",
        deterministic=True,
        on_policy=True,
        clip_vloss=True,
        num_envs=4096,
        rollout=128,  # 524,288 steps per update (all envs' rollouts)
        lr=3e-4,
        ent_coef=0.01,
        clip_coef=0.2,
        num_epochs=3,
        num_minibatches=128,  # 32 trajectories (4,096 steps) each
        checkpoint_every=5,
    ),
    # Grids of ids: MiniGrid's grid worlds (the agent's view, one-hot ids). Set for
    # DoorKey-5x5 (sparse reward: 1 - 0.9 * steps / 250 at the goal): seeds
    # 1-5 reach a mean return of 0.9 (last 100 games) in 45k-72k steps.
    NetworkKind.GRID: dict(
        torch_threads=1,
        total_steps=1_000_000,
        num_envs=16,
        env_batch_size=8,
        rollout=64,
        batch_rollouts=32,  # 2048 steps per update
        lr=1e-3,
        ent_coef=0.01,
        num_epochs=4,
        num_minibatches=8,
    ),
}
# What each kind gets, and a task of that kind, for --help.
PRESET_HELP = {
    NetworkKind.VECTOR: "tanh MLPs; e.g. CartPole-v1",
    NetworkKind.PIXELS: "a CNN, by --cnn; e.g. Pong-v5",
    NetworkKind.CONTROL: "tanh MLPs, a Gaussian policy; e.g. InvertedPendulum-v5",
    NetworkKind.PLANES: "pgx's MinAtar network; e.g. minatar-breakout",
    NetworkKind.GRID: "one-hot ids into tanh MLPs; e.g. MiniGrid-DoorKey-5x5-v0",
}


def network_kind(env_id: str) -> NetworkKind:
    """The kind of network the task wants, as its family says
    (envpool_lite.families.Family.network_kind): the model's torso
    (ActorCritic) and the preset (PRESETS)."""
    return envpool_lite.families.plugin_of(env_id).network_kind(envpool_lite.make_spec(env_id))


def env_options(cfg: Config) -> dict:
    """The pool's options for training (and the task's own where it has
    them: Atari's lives and reward clipping, the image of ids alone)."""
    options = dict(num_envs=cfg.num_envs, batch_size=cfg.env_batch_size, num_threads=cfg.num_threads, seed=cfg.seed)
    if cfg.num_workers > 0:
        options["num_workers"] = cfg.num_workers
    if cfg.deterministic:
        options["batch_size"] = cfg.num_envs  # sync: results in env_id order
    config = envpool_lite.make_spec(cfg.env_id).config
    if "episodic_life" in config and "reward_clip" in config:
        options.update(episodic_life=cfg.episodic_life, reward_clip=cfg.reward_clip)
    if "image_only" in config:
        options["image_only"] = True  # the (7, 7, 3) image of ids, without the mission string
    return options


# --- models -----------------------------------------------------------------
def layer_init(layer, std=math.sqrt(2), bias=0.0):
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias)
    return layer


GRID_IDS = (11, 6, 4)  # MiniGrid's image channels: object type, colour, state (a door's; the agent's direction)


def one_hot_grid(obs: torch.Tensor) -> torch.Tensor:
    """[B, H, W, 3] uint8 ids -> [B, H * W * 21] float, one one-hot per id."""
    ids = obs.long()
    return torch.cat([nn.functional.one_hot(ids[..., i], n) for i, n in enumerate(GRID_IDS)], -1).flatten(1).float()


class ActorCritic(nn.Module):
    """Nature CNN for pixels (uint8 goes to the device, /255 happens there),
    pgx's MinAtar network for feature planes (`cnn="minatar"`), separate
    tanh MLPs for vectors and for grids of ids (NetworkKind.GRID, MiniGrid's:
    one-hot encoded, not pixels). `kind`: the task's (network_kind), by
    default the one its observation's shape says. Discrete actions: a
    categorical over logits; continuous: a diagonal Gaussian with a learned
    log-std."""

    def __init__(self, obs_space, action_space, hidden: int = 64, kind: NetworkKind | None = None, cnn: str = "nature"):
        super().__init__()
        if kind is None:
            kind = NetworkKind.of_observation(obs_space)
        self.grid = kind is NetworkKind.GRID
        self.pixels = kind in (NetworkKind.PIXELS, NetworkKind.PLANES)
        self.discrete = hasattr(action_space, "n")
        out = int(action_space.n) if self.discrete else int(np.prod(action_space.shape))
        self.planes = cnn == "minatar"
        if self.pixels and self.planes:
            # pgx's MinAtar PPO example's network: (H, W, C) planes, a 2x2
            # convolution (haiku's same padding: one row and column after), 2x2
            # average pooling, 64 units,
            # then a tanh MLP (2 x 64) for each head.
            h, w, c = obs_space.shape
            self.torso = nn.Sequential(
                nn.ZeroPad2d((0, 1, 0, 1)), layer_init(nn.Conv2d(c, 32, 2)), nn.ReLU(), nn.AvgPool2d(2),
                nn.Flatten(), layer_init(nn.Linear(32 * (h // 2) * (w // 2), 64)), nn.ReLU(),
            )  # fmt: skip

            def head(n_out, std):
                return nn.Sequential(
                    layer_init(nn.Linear(64, 64)), nn.Tanh(),
                    layer_init(nn.Linear(64, 64)), nn.Tanh(),
                    layer_init(nn.Linear(64, n_out), std=std),
                )  # fmt: skip

            self.actor, self.critic = head(out, 0.01), head(1, 1.0)
        elif self.pixels:
            c = obs_space.shape[0]
            if cnn == "nature":
                self.torso = nn.Sequential(
                    layer_init(nn.Conv2d(c, 32, 8, stride=4)), nn.ReLU(),
                    layer_init(nn.Conv2d(32, 64, 4, stride=2)), nn.ReLU(),
                    layer_init(nn.Conv2d(64, 64, 3, stride=1)), nn.ReLU(),
                    nn.Flatten(),
                )  # fmt: skip
                width = 512
            elif cnn == "small":
                self.torso = nn.Sequential(
                    layer_init(nn.Conv2d(c, 16, 8, stride=4)), nn.ReLU(),
                    layer_init(nn.Conv2d(16, 32, 4, stride=2)), nn.ReLU(),
                    nn.Flatten(),
                )  # fmt: skip
                width = 256
            else:
                raise ValueError(f"cnn must be 'nature', 'small' or 'minatar', not {cnn!r}")
            with torch.no_grad():
                n = self.torso(torch.zeros(1, *obs_space.shape)).shape[1]
            self.torso.append(layer_init(nn.Linear(n, width)))
            self.torso.append(nn.ReLU())
            self.actor = layer_init(nn.Linear(width, out), std=0.01)
            self.critic = layer_init(nn.Linear(width, 1), std=1.0)
        else:
            d = int(np.prod(obs_space.shape[:-1])) * sum(GRID_IDS) if self.grid else int(np.prod(obs_space.shape))

            def mlp(n_out, std):
                return nn.Sequential(
                    layer_init(nn.Linear(d, hidden)), nn.Tanh(),
                    layer_init(nn.Linear(hidden, hidden)), nn.Tanh(),
                    layer_init(nn.Linear(hidden, n_out), std=std),
                )  # fmt: skip

            self.actor, self.critic = mlp(out, 0.01), mlp(1, 1.0)
        if not self.discrete:
            self.log_std = nn.Parameter(torch.zeros(out))
            self.register_buffer("low", torch.as_tensor(action_space.low, dtype=torch.float32))
            self.register_buffer("high", torch.as_tensor(action_space.high, dtype=torch.float32))

    def forward(self, obs: torch.Tensor):
        """(action-distribution parameters, value) for a batch of observations."""
        if self.pixels and self.planes:
            x = self.torso(obs.float().permute(0, 3, 1, 2))
        elif self.pixels:
            x = self.torso(obs.float() / 255.0)
        elif self.grid:
            x = one_hot_grid(obs)
        else:
            x = obs.float().flatten(1)
        return self.actor(x), self.critic(x).squeeze(-1)

    def log_prob_entropy(self, params: torch.Tensor, action: torch.Tensor):
        """log pi(action) and the entropy, written out (no gather: its CUDA
        backward is not deterministic everywhere)."""
        if self.discrete:
            logp_all = params.log_softmax(-1)
            one_hot = action.unsqueeze(-1) == torch.arange(params.shape[-1], device=params.device)
            return (logp_all * one_hot).sum(-1), -(logp_all.exp() * logp_all).sum(-1)
        log_std = self.log_std.expand_as(params)
        logp = -0.5 * ((action - params) / log_std.exp()) ** 2 - log_std - 0.5 * math.log(2 * math.pi)
        return logp.sum(-1), (log_std + 0.5 + 0.5 * math.log(2 * math.pi)).sum(-1)

    def sample(self, params: torch.Tensor, generator: torch.Generator | None, greedy: bool = False):
        """(action, log-prob) drawn with `generator` (so deterministic mode
        controls every random number)."""
        if self.discrete:
            probs = params.softmax(-1)
            action = probs.argmax(-1) if greedy else torch.multinomial(probs, 1, generator=generator).squeeze(-1)
        else:
            noise = torch.randn(params.shape, generator=generator, device=params.device)
            action = params if greedy else params + self.log_std.exp() * noise
        return action, self.log_prob_entropy(params, action)[0]

    def env_action(self, action: torch.Tensor) -> np.ndarray:
        """What the pool takes: int32 ids, or Gaussian samples clipped to the box."""
        if self.discrete:
            return action.to(torch.int32).cpu().numpy()
        return torch.maximum(torch.minimum(action, self.high), self.low).cpu().numpy()


# --- sampling ---------------------------------------------------------------
def sync(device: torch.device) -> None:
    """Wait for this thread's queued CUDA work (nothing to do on the CPU)."""
    if device.type == "cuda":
        torch.cuda.current_stream(device).synchronize()


class PolicyStore:
    """Where the learner publishes its newest parameters (a copy on the acting
    device) and the sampler picks them up. Each side waits for its own copies
    to finish, since on CUDA the two threads use different streams."""

    def __init__(self, model: nn.Module, device: torch.device, version: int):
        self._staged = {k: v.detach().to(device, copy=True) for k, v in model.state_dict().items()}
        self.version = version
        self._cond = threading.Condition()

    def publish(self, model: nn.Module, version: int) -> None:
        with self._cond, torch.no_grad():
            for k, v in model.state_dict().items():
                self._staged[k].copy_(v)
            sync(next(iter(self._staged.values())).device)
            self.version = version
            self._cond.notify_all()

    def load_into(self, actor: nn.Module) -> int:
        with self._cond:
            actor.load_state_dict(self._staged)
            sync(next(iter(self._staged.values())).device)
            return self.version

    def wait_for(self, version: int, stop: threading.Event) -> None:
        with self._cond:
            while self.version < version and not stop.is_set():
                self._cond.wait(0.1)


class Sampler(threading.Thread):
    """Drives the pool and keeps one trajectory per env_id (arrays [env, T, ...]).

    Row n of env e holds the observation the policy acted on, the action, its
    log-prob under the behaviour policy, the policy version, and then the
    result of the action: reward, terminated, truncated. `valid` is False on
    the row whose observation is an episode's last (NEXT_STEP auto-reset: its
    action only resets the env). Full trajectories, with the observation that
    follows row T-1 as the bootstrap, go on `self.queue`.
    """

    def __init__(self, cfg: Config, env, actor: ActorCritic, store: PolicyStore, device: torch.device):
        super().__init__(daemon=True, name="sampler")
        self.cfg, self.env, self.actor, self.store, self.device = cfg, env, actor, store, device
        self.actor_version = store.load_into(actor)
        self.generator = torch.Generator(device=device).manual_seed(cfg.seed)
        n, T = cfg.num_envs, cfg.rollout
        obs_space, act_space = env.single_observation_space, env.single_action_space
        self.obs = np.zeros((n, T + 1, *obs_space.shape), obs_space.dtype)
        self.actions = np.zeros((n, T, *act_space.shape), np.int64 if actor.discrete else np.float32)
        self.logp = np.zeros((n, T), np.float32)
        self.values = np.zeros((n, T), np.float32)  # V(x) at acting time (the clipped value loss's anchor)
        self.rewards = np.zeros((n, T), np.float32)
        self.terms = np.zeros((n, T), bool)
        self.truncs = np.zeros((n, T), bool)
        self.valid = np.zeros((n, T), bool)
        self.versions = np.zeros((n, T), np.int64)
        self.row = np.full(n, -1)  # the row awaiting its result; -1: none yet
        self.game_return = np.zeros(n)
        self.game_length = np.zeros(n, np.int64)
        self.finished: list[tuple[int, float, int]] = []  # (steps sampled, return, length) per game
        self.successes: list[bool] = []  # per game, with cfg.success_key: its value at the game's end
        self.steps = 0
        self.rollouts = 0  # rounds of trajectories emitted (deterministic mode)
        self.failures = 0  # EnvStepErrors recovered from
        self.start_version = store.version
        self.queue: queue.Queue = queue.Queue(maxsize=max(cfg.batch_rollouts, cfg.num_envs))
        self.stop_event = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        # On CUDA, acting gets its own stream: its small kernels must not
        # queue behind the learner's.
        cuda = self.device.type == "cuda"
        try:
            with torch.cuda.stream(torch.cuda.Stream(self.device)) if cuda else contextlib.nullcontext():
                self.env.async_reset()
                while not self.stop_event.is_set():
                    try:
                        batch = self.env.recv()
                    except envpool_lite.EnvStepError as e:
                        self.recover(e)
                        continue
                    self.step(*batch)
        except BaseException as e:  # handed to the learner by get_batch()
            self.error = e
            self.stop_event.set()

    def step(self, obs, reward, terminated, truncated, info) -> None:
        ids = np.asarray(info["env_id"], np.int64)
        row = self.row[ids]
        # 1. The result of each env's last action belongs to its pending row.
        has = row >= 0
        e, r = ids[has], row[has]
        self.rewards[e, r], self.terms[e, r], self.truncs[e, r] = reward[has], terminated[has], truncated[has]
        real = has & self.valid[ids, np.maximum(row, 0)]  # a real step, not a reset
        # An env that came back from a step at elapsed_step 0 was restarted
        # (its Ray worker was): mask that row, as an episode boundary.
        restarted = real & (info["elapsed_step"] == 0)
        if restarted.any():
            self.valid[e[restarted[has]], r[restarted[has]]] = False
            real &= ~restarted
            self.game_return[ids[restarted]], self.game_length[ids[restarted]] = 0.0, 0
        self.track_games(ids, real, reward, terminated, truncated, info)
        self.steps += int(has.sum())
        # 2. The new observation starts the next row; row T ends the trajectory.
        row = np.where(has, row + 1, 0)
        self.obs[ids, row] = obs
        full = ids[row == self.cfg.rollout]
        out = [self.trajectory(e) for e in full]
        if len(full):
            self.obs[full, 0] = self.obs[full, self.cfg.rollout]
            row[row == self.cfg.rollout] = 0
            self.rollouts += 1
        # 3. Act with the newest policy (deterministic: exactly version k-1 for round k).
        if self.cfg.deterministic:
            if len(full):  # round k-1 is done: wait for version k-1 (the learner can't be further)
                lag = 0 if self.cfg.on_policy else 1
                if self.cfg.on_policy:  # the learner needs round k-1 to make version k-1
                    for item in out:
                        self.put(item)
                    out = []
                self.store.wait_for(self.start_version + self.rollouts - lag, self.stop_event)
                self.actor_version = self.store.load_into(self.actor)
        elif self.store.version != self.actor_version:
            self.actor_version = self.store.load_into(self.actor)
        with torch.no_grad():
            params, value = self.actor(torch.as_tensor(obs).to(self.device))
            action, logp = self.actor.sample(params, self.generator)
        self.actions[ids, row] = action.cpu().numpy()
        self.logp[ids, row] = logp.cpu().numpy()
        self.values[ids, row] = value.cpu().numpy()
        self.versions[ids, row] = self.actor_version
        self.valid[ids, row] = ~(terminated | truncated)
        self.row[ids] = row
        self.env.send(self.actor.env_action(action), ids)
        for item in out:  # queued after acting: see the deterministic wait above
            self.put(item)

    def recover(self, err) -> None:
        """Envs whose results were lost (a Ray worker died or hung, an env
        raised) await an action and start a new episode on it: their partial
        trajectories and games are dropped."""
        ids = np.asarray(err.dropped_env_ids or err.env_ids, np.int64)
        self.failures += 1
        self.row[ids] = -1  # the next observation starts a trajectory
        self.game_return[ids], self.game_length[ids] = 0.0, 0
        space = self.env.single_action_space
        self.env.send(np.zeros((len(ids), *space.shape), space.dtype), ids)

    def trajectory(self, e: int) -> dict:
        return dict(
            obs=self.obs[e].copy(), actions=self.actions[e].copy(), logp=self.logp[e].copy(), values=self.values[e].copy(),
            rewards=self.rewards[e].copy(), terms=self.terms[e].copy(), truncs=self.truncs[e].copy(),
            valid=self.valid[e].copy(), versions=self.versions[e].copy(),
        )  # fmt: skip

    def track_games(self, ids, real, reward, terminated, truncated, info) -> None:
        """Full-game returns: Atari's info["reward"] is the unclipped score and
        info["terminated"] the game over (an episode may end on a lost life)."""
        score = info.get("reward", reward)
        if "terminated" in info:
            game_over = info["terminated"].astype(bool)  # Atari's is int32 0/1, as EnvPool's
        elif "lives" in info:
            game_over = info["lives"] == 0
        else:
            game_over = True
        self.game_return[ids[real]] += score[real]
        self.game_length[ids[real]] += 1
        for i in np.flatnonzero(real & (truncated | (terminated & game_over))):
            e = ids[i]
            self.finished.append((self.steps, float(self.game_return[e]), int(self.game_length[e])))
            if self.cfg.success_key:
                self.successes.append(bool(info[self.cfg.success_key][i]))
            self.game_return[e], self.game_length[e] = 0.0, 0

    def put(self, item: dict) -> None:
        while not self.stop_event.is_set():
            try:
                return self.queue.put(item, timeout=0.1)
            except queue.Full:
                pass

    def get_batch(self, n: int) -> dict:
        """n trajectories stacked time-major (torch, CPU): obs [T+1, n, ...], the rest [T, n]."""
        items = []
        while len(items) < n:
            if self.error is not None:
                raise RuntimeError("the sampler thread failed") from self.error
            try:
                items.append(self.queue.get(timeout=0.1))
            except queue.Empty:
                pass
        # torch.stack releases the GIL: the sampler keeps going meanwhile.
        return {k: torch.stack([torch.from_numpy(it[k]) for it in items], dim=1) for k in items[0]}

    def close(self) -> None:
        self.stop_event.set()
        self.join()


# --- learning ---------------------------------------------------------------
def vtrace_targets(cfg: Config, log_rhos, rewards, terms, mask, values):
    """V-trace on a [T, B] batch with its edges: termination cuts the
    bootstrap (discount 0), truncation keeps it (the next row holds the real
    final observation, so values[t + 1] is V of it). A masked row becomes a
    no-op: discount 0 and a reward equal to its own value make its TD error
    0, so vs = V there, its advantage is 0 and no trace crosses it.
    values: [T + 1, B], the last row the bootstrap V(x_T)."""
    v = values[:-1]
    discounts = torch.where(mask, cfg.gamma * (~terms).float(), torch.zeros_like(v))
    rewards = torch.where(mask, rewards, v)
    log_rhos = torch.where(mask, log_rhos, torch.zeros_like(v))
    return vtrace(log_rhos, discounts, rewards, v, values[-1], cfg.rho_bar, cfg.pg_rho_bar, cfg.c_bar, cfg.lambda_)


def masked_mean(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return (x * mask).sum() / mask.sum().clamp(min=1)


class Learner:
    def __init__(self, cfg: Config, model: ActorCritic, device: torch.device):
        self.cfg, self.model, self.device = cfg, model, device
        self.optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr, eps=1e-5, foreach=True)
        self.generator = torch.Generator().manual_seed(cfg.seed + 1)  # minibatch shuffling

    def update(self, batch: dict, version: int, lr: float) -> dict:
        """One APPO update (num_epochs x num_minibatches SGD steps) on a batch
        of trajectories acted by versions <= `version`."""
        cfg, dev = self.cfg, self.device
        for group in self.optimizer.param_groups:
            group["lr"] = lr
        t = {k: v.to(dev) for k, v in batch.items()}
        lag = version - t["versions"]
        mask = t["valid"] & (lag <= cfg.max_policy_lag)
        n = t["actions"].shape[1]
        size = max(1, n // cfg.num_minibatches)
        sums: dict[str, torch.Tensor] = {}
        for _ in range(cfg.num_epochs):
            perm = torch.randperm(n, generator=self.generator).to(dev)
            for start in range(0, n - size + 1, size):
                idx = perm[start : start + size]
                stats = self.sgd_step({k: v[:, idx] for k, v in t.items()}, mask[:, idx])
                for k, v in stats.items():
                    sums[k] = sums.get(k, 0.0) + v
        steps = cfg.num_epochs * (n // size)
        stats = {k: v.item() / steps for k, v in sums.items()}  # one sync per update
        valid_lag = lag[t["valid"]].float()
        stats["policy_lag/mean"] = valid_lag.mean().item() if valid_lag.numel() else 0.0
        stats["policy_lag/max"] = valid_lag.max().item() if valid_lag.numel() else 0.0
        stats["policy_lag/dropped"] = 1.0 - mask.sum().item() / max(1, t["valid"].sum().item())
        return stats

    def sgd_step(self, mb: dict, mask: torch.Tensor) -> dict:
        cfg, model = self.cfg, self.model
        T, B = mb["actions"].shape[:2]
        params, values = model(mb["obs"].flatten(0, 1))
        values = values.view(T + 1, B)
        logp, entropy = model.log_prob_entropy(params[: T * B], mb["actions"].flatten(0, 1))
        logp, entropy = logp.view(T, B), entropy.view(T, B)
        log_ratio = logp - mb["logp"]  # target / behaviour
        with torch.no_grad():
            vs, adv = vtrace_targets(cfg, log_ratio.detach(), mb["rewards"] * cfg.reward_scale, mb["terms"], mask, values.detach())
            if cfg.norm_adv:
                mean = masked_mean(adv, mask)
                std = masked_mean((adv - mean) ** 2, mask).sqrt()
                adv = (adv - mean) / (std + 1e-8)
        ratio = log_ratio.exp()
        pg_loss = masked_mean(-torch.min(ratio * adv, ratio.clamp(1 - cfg.clip_coef, 1 + cfg.clip_coef) * adv), mask)
        v_loss = (values[:-1] - vs) ** 2
        if cfg.clip_vloss:
            clipped = mb["values"] + (values[:-1] - mb["values"]).clamp(-cfg.clip_coef, cfg.clip_coef)
            v_loss = torch.max(v_loss, (clipped - vs) ** 2)
        v_loss = masked_mean(0.5 * v_loss, mask)
        ent = masked_mean(entropy, mask)
        loss = pg_loss + cfg.vf_coef * v_loss - cfg.ent_coef * ent
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        grad_norm = nn.utils.clip_grad_norm_(model.parameters(), cfg.max_grad_norm)
        self.optimizer.step()
        with torch.no_grad():
            clipfrac = masked_mean(((ratio - 1).abs() > cfg.clip_coef).float(), mask)
            approx_kl = masked_mean((ratio - 1) - log_ratio, mask)
        return {
            "losses/policy": pg_loss.detach(), "losses/value": v_loss.detach(), "losses/entropy": ent.detach(),
            "losses/approx_kl": approx_kl, "losses/clipfrac": clipfrac, "losses/grad_norm": grad_norm,
        }  # fmt: skip


# --- running it ------------------------------------------------------------------
def pick_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def recent_mean(finished: list, window: int) -> float:
    return float(np.mean([r for _, r, _ in finished[-window:]])) if finished else float("nan")


def recent_rate(successes: list, window: int) -> float:
    """The share of the last `window` games that succeeded (--success-key)."""
    return float(np.mean(successes[-window:])) if successes else float("nan")


def save_checkpoint(path: Path, cfg: Config, model, learner: Learner, update: int, global_step: int, finished: list) -> None:
    tmp = path.with_suffix(".tmp")
    torch.save(
        {
            "config": dataclasses.asdict(cfg), "model": model.state_dict(), "optimizer": learner.optimizer.state_dict(),
            "generator": learner.generator.get_state(), "update": update, "global_step": global_step, "finished": list(finished),
        },
        tmp,
    )  # fmt: skip
    os.replace(tmp, path)


class Logger:
    """TensorBoard scalars and a progress bar (each optional: tensorboard and
    tqdm are in the `trainers` extra; without them, nothing / plain lines)."""

    def __init__(self, cfg: Config, run_dir: Path, frame_skip: int):
        self.cfg, self.frame_skip, self.writer, self.bar = cfg, frame_skip, None, None
        if cfg.tensorboard:
            try:
                from torch.utils.tensorboard import SummaryWriter

                self.writer = SummaryWriter(str(run_dir))
                self.writer.add_text("config", str(dataclasses.asdict(cfg)))
            except ImportError:
                print("tensorboard is not installed: no TensorBoard logs (pip install tensorboard)")
        if cfg.progress:
            try:
                from tqdm import tqdm

                self.bar = tqdm(total=cfg.total_steps, unit="step", dynamic_ncols=True)
            except ImportError:
                pass
        self.logged_games = 0
        self.last = time.perf_counter()

    def log(self, step: int, sps: float, stats: dict, finished: list) -> None:
        if self.writer is not None:
            for _, ret, length in finished[self.logged_games :]:
                self.writer.add_scalar("charts/episodic_return", ret, step)
                self.writer.add_scalar("charts/episodic_length", length, step)
            for k, v in stats.items():
                self.writer.add_scalar(k, v, step)
            self.writer.add_scalar("charts/SPS", sps, step)
            self.writer.add_scalar("charts/FPS", sps * self.frame_skip, step)
        self.logged_games = len(finished)
        ret = recent_mean(finished, self.cfg.return_window)
        text = f"frames {step * self.frame_skip:,}  FPS {sps * self.frame_skip:,.0f}  return {ret:.1f}  lag {stats['policy_lag/mean']:.2f}"
        if "charts/success_rate" in stats:
            text += f"  success {stats['charts/success_rate']:.2f}"
        if self.bar is not None:
            self.bar.n = min(step, self.cfg.total_steps)
            self.bar.set_postfix_str(text, refresh=True)
        elif self.cfg.progress and time.perf_counter() - self.last > 5:
            self.last = time.perf_counter()
            print(f"steps {step:,}  {text}", flush=True)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        if self.bar is not None:
            self.bar.close()


def plot_curve(path: Path, finished: list, window: int, title: str, frame_skip: int, successes: list | None = None) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = np.array([s for s, _, _ in finished]) * frame_skip
    returns = np.array([r for _, r, _ in finished])
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(steps, returns, ".", alpha=0.3, label="game")
    if len(returns):
        smooth = [returns[max(0, i - window + 1) : i + 1].mean() for i in range(len(returns))]
        ax.plot(steps, smooth, label=f"mean of last {window}")
    ax.set_xlabel("frames" if frame_skip > 1 else "steps")
    ax.set_ylabel("full-game return")
    ax.set_title(title)
    ax.legend(loc="upper left")
    if successes:  # --success-key: the recent success rate on its own axis
        ok = np.array(successes, dtype=float)
        rate = [ok[max(0, i - window + 1) : i + 1].mean() for i in range(len(ok))]
        right = ax.twinx()
        right.plot(steps[: len(rate)], rate, color="tab:green", label=f"success, last {window}")
        right.set_ylim(-0.02, 1.02)
        right.set_ylabel("success rate")
        right.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def finite(x):
    """x with every inf and NaN float as None (strict JSON)."""
    if isinstance(x, dict):
        return {k: finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [finite(v) for v in x]
    return None if isinstance(x, float) and not math.isfinite(x) else x


def train(cfg: Config) -> dict:
    """Train; returns a summary (see the end). Stops at total_steps or once
    the mean of the last return_window full-game returns reaches target_return."""
    if cfg.on_policy and not cfg.deterministic:
        raise ValueError("on_policy needs deterministic (its rounds of whole rollouts, acted in step)")
    if cfg.torch_threads > 0:
        torch.set_num_threads(cfg.torch_threads)
    device = pick_device(cfg.device)
    actor_device = device if cfg.actor_device == "auto" else torch.device(cfg.actor_device)
    was_deterministic = torch.are_deterministic_algorithms_enabled()
    if cfg.deterministic:
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
        torch.use_deterministic_algorithms(True)
        torch.backends.cudnn.benchmark = False
    else:
        torch.backends.cudnn.benchmark = True  # the fastest conv algorithms
    torch.manual_seed(cfg.seed)
    np.random.seed(cfg.seed)
    batch_rollouts = cfg.num_envs if cfg.deterministic else cfg.batch_rollouts
    if cfg.resume and not cfg.run_name:
        run_dir = Path(cfg.resume).parent  # a resumed run carries on where it was
    else:
        run_dir = Path(cfg.run_dir) / (cfg.run_name or f"{cfg.env_id}__{cfg.seed}__{int(time.time())}")
    run_dir.mkdir(parents=True, exist_ok=True)

    if cfg.num_workers > 0 and cfg.ray_address:
        import ray

        ray.init(address=cfg.ray_address, ignore_reinit_error=True)
    env = envpool_lite.make(cfg.env_id, env_type="gymnasium", **env_options(cfg))
    frame_skip = int(env.spec.config.get("frame_skip", 1))
    model = ActorCritic(env.single_observation_space, env.single_action_space, cfg.hidden, network_kind(cfg.env_id), cfg.cnn).to(device)
    learner = Learner(cfg, model, device)
    update, global_step, finished = 0, 0, []
    if cfg.resume:
        ckpt = torch.load(cfg.resume, map_location=device, weights_only=False)
        model.load_state_dict(ckpt["model"])
        learner.optimizer.load_state_dict(ckpt["optimizer"])
        learner.generator.set_state(ckpt["generator"])
        update, global_step, finished = ckpt["update"], ckpt["global_step"], list(ckpt["finished"])
    actor = copy.deepcopy(model).to(actor_device).requires_grad_(False)
    store = PolicyStore(model, actor_device, version=update)
    sampler = Sampler(cfg, env, actor, store, actor_device)
    sampler.finished, sampler.steps = finished, global_step  # a resumed run carries on
    logger = Logger(cfg, run_dir, frame_skip)
    logger.logged_games = len(finished)
    steps_per_update = cfg.rollout * batch_rollouts
    checkpoint = run_dir / "checkpoint.pt"
    result = dict(reached_target=False, steps_to_target=None, time_to_target=None, lag_mean=[], lag_max=0.0)
    start = time.perf_counter()
    start_step = global_step
    wait_time = 0.0
    progress: list[dict] = []  # one row per update: the curves against steps, frames and wall-clock
    sampler.start()
    try:
        while global_step < cfg.total_steps and time.perf_counter() - start < cfg.time_limit:
            t0 = time.perf_counter()
            batch = sampler.get_batch(batch_rollouts)
            wait_time += time.perf_counter() - t0
            frac = global_step / cfg.total_steps if cfg.anneal_lr else 0.0
            stats = learner.update(batch, update, cfg.lr * (1.0 - frac))
            update += 1
            global_step += steps_per_update
            store.publish(model, update)
            elapsed = time.perf_counter() - start
            stats["charts/learning_rate"] = cfg.lr * (1.0 - frac)
            stats["perf/learner_wait_fraction"] = wait_time / elapsed
            if cfg.success_key and sampler.successes:
                stats["charts/success_rate"] = recent_rate(sampler.successes, cfg.return_window)
            for w in env.workers:  # a distributed pool: each Ray worker's share
                stats[f"perf/worker_{w['worker']}_steps_per_s"] = w["steps"] / elapsed
                stats[f"perf/worker_{w['worker']}_failures"] = w["failures"]
            result["lag_mean"].append(stats["policy_lag/mean"])
            result["lag_max"] = max(result["lag_max"], stats["policy_lag/max"])
            sps = (global_step - start_step) / elapsed
            logger.log(global_step, sps, stats, sampler.finished)
            progress.append(
                dict(
                    time=elapsed, step=global_step, frames=global_step * frame_skip, games=len(sampler.finished),
                    recent_return=recent_mean(sampler.finished, cfg.return_window), sps=sps,
                    learner_wait_fraction=stats["perf/learner_wait_fraction"], policy_lag=stats["policy_lag/mean"],
                    recent_success=recent_rate(sampler.successes, cfg.return_window),
                )
            )  # fmt: skip
            if cfg.checkpoint_every and update % cfg.checkpoint_every == 0:
                save_checkpoint(checkpoint, cfg, model, learner, update, global_step, sampler.finished)
            if len(sampler.finished) >= cfg.return_window and recent_mean(sampler.finished, cfg.return_window) >= cfg.target_return:
                result.update(reached_target=True, steps_to_target=global_step, time_to_target=elapsed)
                break
    except KeyboardInterrupt:  # Ctrl-C: stop here, keep the checkpoint, the curve and the summary
        print("interrupted: saving the checkpoint")
    finally:
        sampler.close()
        worker_stats = env.workers
        env.close()
        logger.close()
        torch.use_deterministic_algorithms(was_deterministic)
    elapsed = time.perf_counter() - start
    save_checkpoint(checkpoint, cfg, model, learner, update, global_step, sampler.finished)
    progress_json = dict(config=dataclasses.asdict(cfg), frame_skip=frame_skip, updates=progress, games=sampler.finished, successes=sampler.successes)
    (run_dir / "progress.json").write_text(json.dumps(finite(progress_json), allow_nan=False))
    if cfg.plot:
        plot_curve(run_dir / "learning_curve.png", sampler.finished, cfg.return_window, cfg.env_id, frame_skip, sampler.successes)
    result.update(
        model=model, finished=sampler.finished, updates=update, global_step=global_step, steps_sampled=sampler.steps,
        time=elapsed, sps=(global_step - start_step) / elapsed, run_dir=run_dir, checkpoint=checkpoint,
        recent_return=recent_mean(sampler.finished, cfg.return_window), learner_wait_fraction=wait_time / elapsed,
        workers=worker_stats, successes=sampler.successes, recent_success=recent_rate(sampler.successes, cfg.return_window),
    )  # fmt: skip
    return result


# --- evaluation ------------------------------------------------------------------
def evaluate(path: str, episodes: int = 10, greedy: bool = False, gif: str = "", device: str = "cpu", seed: int = 10_000) -> float:
    """Mean full-game return of a checkpoint's policy over `episodes` games
    (env k of a pool seeded `seed` plays one; Atari without episodic_life or
    reward clipping). gif: save the best of those games (a won one when
    there is one), replayed in a one-env pool seeded seed + k, which plays
    env k's game again step for step (the seed convention), drawn by the
    pool's render()."""
    ckpt = torch.load(path, map_location=device, weights_only=False)
    cfg = Config(**{**ckpt["config"], "seed": seed, "num_envs": episodes, "env_batch_size": episodes, "deterministic": True, "num_workers": 0})
    options = env_options(cfg)
    if "episodic_life" in options:
        options.update(episodic_life=False, reward_clip=False)
    env = envpool_lite.make(cfg.env_id, env_type="gymnasium", **options)
    model = ActorCritic(env.single_observation_space, env.single_action_space, cfg.hidden, network_kind(cfg.env_id), cfg.cnn).to(device)
    model.load_state_dict(ckpt["model"])
    generator = torch.Generator(device=device).manual_seed(seed)
    returns, done = np.zeros(episodes), np.zeros(episodes, bool)
    actions: list[list] = [[] for _ in range(episodes)]
    obs, info = env.reset()
    with torch.no_grad():
        while not done.all():
            params, _ = model(torch.as_tensor(obs).to(device))
            action, _ = model.sample(params, generator, greedy=greedy)
            env_action = model.env_action(action)
            for k in np.flatnonzero(~done):
                actions[k].append(env_action[k])
            obs, reward, term, trunc, info = env.step(env_action)
            returns += np.where(done, 0.0, info.get("reward", reward))
            done |= term | trunc
    env.close()
    if gif:
        best = int(np.argmax(returns))
        replayed = save_gif(gif, cfg.env_id, {**options, "num_envs": 1, "batch_size": 1, "seed": seed + best}, actions[best])
        if replayed != returns[best]:
            raise RuntimeError(f"the replay of game {best} scored {replayed}, the game {returns[best]}")
    return float(returns.mean())


def save_gif(path: str, env_id: str, options: dict, actions: list) -> float:
    """Play `actions` in a one-env pool made with `options` and save its
    pictures (render()) as a GIF at 30 frames/s; returns the game's return."""
    from PIL import Image

    env = envpool_lite.make(env_id, env_type="gymnasium", render_mode="rgb_array", **options)
    env.reset()
    frames, total = [env.render(0)[0]], 0.0
    for a in actions:
        _, reward, _, _, info = env.step(np.asarray([a]))
        total += float(info.get("reward", reward)[0])
        frames.append(env.render(0)[0])
    env.close()
    images = [Image.fromarray(np.asarray(f)) for f in frames]
    images[0].save(path, save_all=True, append_images=images[1:], duration=1000 // 30, loop=0)
    return total


# --- command line -----------------------------------------------------------------
def parse_args(argv=None) -> Config:
    """Flags from the Config fields. Unset flags take the preset of the
    task's kind of network (network_kind), then a resumed checkpoint's
    config, then the Config default."""
    presets = "\n".join(f"  {kind.value} ({PRESET_HELP[kind]}): {values}" for kind, values in PRESETS.items())
    epilog = f"presets by the kind of network the task's family gives it (envpool_lite.families.NetworkKind), for the flags not given:\n{presets}"
    parser = argparse.ArgumentParser(
        description=__doc__, epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter, argument_default=argparse.SUPPRESS,
    )  # fmt: skip
    for f in dataclasses.fields(Config):
        flag = "--" + f.name.rstrip("_").replace("_", "-")
        if isinstance(f.default, bool):
            parser.add_argument(flag, dest=f.name, action=argparse.BooleanOptionalAction)
        else:
            parser.add_argument(flag, dest=f.name, type=type(f.default), metavar=type(f.default).__name__.upper(), help=f"default {f.default}")
    given = vars(parser.parse_args(argv))
    values = {}
    if given.get("resume"):
        values.update(torch.load(given["resume"], map_location="cpu", weights_only=False)["config"])
        values.update(run_name="", eval="", gif="")
    env_id = given.get("env_id", values.get("env_id", Config.env_id))
    if not given.get("eval"):
        values = {**PRESETS[network_kind(env_id)], **values}
    return Config(**{**values, **given})


def main(argv=None) -> None:
    cfg = parse_args(argv)
    if cfg.eval:
        mean = evaluate(cfg.eval, cfg.eval_episodes, cfg.eval_greedy, cfg.gif, str(pick_device(cfg.device)))
        print(f"mean return over {cfg.eval_episodes} games: {mean:.2f}" + (f"  (GIF of the best game: {cfg.gif})" if cfg.gif else ""))
        return
    r = train(cfg)
    lag = np.mean(r["lag_mean"]) if r["lag_mean"] else float("nan")
    print(
        f"{cfg.env_id}: {r['global_step']:,} steps in {r['time']:.1f}s ({r['sps']:,.0f} steps/s), {r['updates']} updates, "
        f"recent return {r['recent_return']:.1f}, policy lag mean {lag:.2f} max {r['lag_max']:.0f}, "
        f"learner waited {100 * r['learner_wait_fraction']:.0f}% of the time"
    )
    for w in r["workers"]:
        print(f"  Ray worker {w['worker']} (node {w['node_id'][:8]}, envs {w['env_ids'].start}..{w['env_ids'].stop - 1}): "
              f"{w['steps'] / r['time']:,.0f} steps/s, {w['failures']} failures")  # fmt: skip
    if cfg.success_key:
        print(
            f"success ({cfg.success_key}) in {100 * r['recent_success']:.0f}% of the last {cfg.return_window} games, {100 * float(np.mean(r['successes'] or [np.nan])):.0f}% of all {len(r['successes'])}"
        )
    if r["reached_target"]:
        print(f"reached a mean return of {cfg.target_return} after {r['steps_to_target']:,} steps and {r['time_to_target']:.1f}s")
    print(f"run: {r['run_dir']}  (checkpoint.pt, learning_curve.png, TensorBoard events)")


if __name__ == "__main__":
    main()
