"""DQN on a pool with a discrete action space, CleanRL style, one file; its
defaults are highway-env's own DQN example (scripts/sb3_highway_dqn.py in
highway-env's repository: stable-baselines3's DQN on highway-fast-v0).

    .venv/bin/python trainers/dqn.py                      # highway-fast-v0, 20,000 steps, then 50 greedy episodes
    .venv/bin/python trainers/dqn.py --help

The algorithm is stable-baselines3's DQN with that example's settings: an MLP
of two 256-unit layers on the flattened observation, Adam (5e-4), a replay
buffer of 15,000 transitions, training from step 200 on, one gradient step
of 32 transitions per env step, a target network copied every 50 gradient
steps, the Huber loss with gradients clipped at norm 10, discount 0.8, and
epsilon-greedy exploration from 1 to 0.05 over the first 10% of the steps.
The targets bootstrap through truncations (the pool's step that ends an
episode returns its last observation; the env resets at its next step,
which makes no transition) and not through terminations. With ``--num-envs`` n > 1 each step collects n transitions
and takes n gradient steps, so the updates per transition stay one.

At the end the greedy policy plays ``--eval-episodes`` episodes on a pool
of its own (other seeds) and the script prints their mean return (the
undiscounted sum of highway-env's rewards), the steps and the seconds.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np
import torch
from torch import nn

import envpool_lite


@dataclasses.dataclass
class Args:
    env_id: str = "highway-fast-v0"  # a task with a discrete action space
    seed: int = 1  # the pools' seed and torch's
    num_envs: int = 1  # envs stepping together (the example's: one)
    total_timesteps: int = 20_000  # env steps over all envs
    learning_rate: float = 5e-4  # Adam's step size
    buffer_size: int = 15_000  # transitions the replay buffer keeps
    learning_starts: int = 200  # env steps before the first gradient step
    batch_size: int = 32  # transitions per gradient step
    gamma: float = 0.8  # discount
    target_update_interval: int = 50  # gradient steps between target-network copies
    exploration_fraction: float = 0.1  # of total_timesteps, over which epsilon falls to its final value
    exploration_final_eps: float = 0.05  # epsilon after the fall
    max_grad_norm: float = 10.0  # gradient clipping (norm)
    hidden: int = 256  # units per hidden layer (two layers)
    eval_episodes: int = 50  # greedy episodes at the end
    threads: int = 2  # torch's CPU threads


def parse_args() -> Args:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    for field in dataclasses.fields(Args):
        parser.add_argument("--" + field.name.replace("_", "-"), type=type(field.default), default=field.default)
    return Args(**vars(parser.parse_args()))


class QNetwork(nn.Module):
    def __init__(self, obs_size: int, actions: int, hidden: int):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(obs_size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, actions))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


class ReplayBuffer:
    """A ring of transitions (obs, action, reward, next_obs, terminated)."""

    def __init__(self, size: int, obs_shape: tuple):
        self.obs = np.zeros((size, *obs_shape), np.float32)
        self.next_obs = np.zeros((size, *obs_shape), np.float32)
        self.actions = np.zeros(size, np.int64)
        self.rewards = np.zeros(size, np.float32)
        self.terminated = np.zeros(size, np.float32)
        self.size, self.pos, self.full = size, 0, False

    def add(self, obs, action, reward, next_obs, terminated) -> None:
        for i in range(len(obs)):
            self.obs[self.pos], self.actions[self.pos], self.rewards[self.pos] = obs[i], action[i], reward[i]
            self.next_obs[self.pos], self.terminated[self.pos] = next_obs[i], terminated[i]
            self.pos = (self.pos + 1) % self.size
            self.full = self.full or self.pos == 0

    def sample(self, n: int, rng: np.random.Generator):
        idx = rng.integers(0, self.size if self.full else self.pos, n)
        return (torch.from_numpy(self.obs[idx]), torch.from_numpy(self.actions[idx]), torch.from_numpy(self.rewards[idx]), torch.from_numpy(self.next_obs[idx]), torch.from_numpy(self.terminated[idx]))


def epsilon(args: Args, step: int) -> float:
    """Linear from 1 to exploration_final_eps over the first
    exploration_fraction of the steps (stable-baselines3's schedule)."""
    progress = step / (args.exploration_fraction * args.total_timesteps)
    return max(args.exploration_final_eps, 1.0 - progress * (1.0 - args.exploration_final_eps))


def evaluate(args: Args, q: QNetwork) -> list[float]:
    """Returns of eval_episodes greedy episodes on a pool of other seeds."""
    n = min(args.eval_episodes, 10)
    env = envpool_lite.make_gymnasium(args.env_id, num_envs=n, seed=args.seed + 100_000)
    returns: list[float] = []
    running = np.zeros(n)
    obs, _ = env.reset()
    with torch.no_grad():
        while len(returns) < args.eval_episodes:
            actions = q(torch.from_numpy(np.asarray(obs, np.float32))).argmax(1).numpy().astype(np.int32)
            obs, reward, term, trunc, _ = env.step(actions)
            running += reward
            for i in np.flatnonzero(term | trunc):
                returns.append(float(running[i]))
                running[i] = 0.0
    env.close()
    return returns[: args.eval_episodes]


def train(args: Args) -> dict:
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    env = envpool_lite.make_gymnasium(args.env_id, num_envs=args.num_envs, seed=args.seed)
    obs_shape = env.single_observation_space.shape
    actions = int(env.single_action_space.n)
    q = QNetwork(int(np.prod(obs_shape)), actions, args.hidden)
    target = QNetwork(int(np.prod(obs_shape)), actions, args.hidden)
    target.load_state_dict(q.state_dict())
    optimizer = torch.optim.Adam(q.parameters(), lr=args.learning_rate)
    buffer = ReplayBuffer(args.buffer_size, obs_shape)
    start = time.perf_counter()
    obs, _ = env.reset()
    episode_returns: list[float] = []
    running = np.zeros(args.num_envs)
    was_done = np.zeros(args.num_envs, bool)
    gradient_steps = 0
    step = 0
    while step < args.total_timesteps:
        if rng.random() < epsilon(args, step):
            action = rng.integers(0, actions, args.num_envs).astype(np.int32)
        else:
            with torch.no_grad():
                action = q(torch.from_numpy(np.asarray(obs, np.float32))).argmax(1).numpy().astype(np.int32)
        next_obs, reward, term, trunc, _ = env.step(action)
        # The pool resets an env at the step after its episode ends (that
        # step's action is ignored and its observation is the new episode's
        # first): no transition there. A truncated step's next_obs is the
        # episode's last observation, so its target bootstraps.
        keep = ~was_done
        if keep.any():
            buffer.add(obs[keep], action[keep], reward[keep], next_obs[keep], term[keep])
        was_done = term | trunc
        running += reward
        for i in np.flatnonzero(term | trunc):
            episode_returns.append(float(running[i]))
            running[i] = 0.0
        obs = next_obs
        step += args.num_envs
        if step >= args.learning_starts:
            for _ in range(args.num_envs):
                b_obs, b_act, b_rew, b_next, b_term = buffer.sample(args.batch_size, rng)
                with torch.no_grad():
                    target_q = b_rew + args.gamma * (1.0 - b_term) * target(b_next).max(1).values
                current = q(b_obs).gather(1, b_act[:, None]).squeeze(1)
                loss = nn.functional.smooth_l1_loss(current, target_q)
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(q.parameters(), args.max_grad_norm)
                optimizer.step()
                gradient_steps += 1
                if gradient_steps % args.target_update_interval == 0:
                    target.load_state_dict(q.state_dict())
        if len(episode_returns) and step % 2000 < args.num_envs:
            print(f"step {step}: mean return of the last 20 episodes {np.mean(episode_returns[-20:]):.2f}, epsilon {epsilon(args, step):.2f}, {time.perf_counter() - start:.0f} s", flush=True)
    env.close()
    train_seconds = time.perf_counter() - start
    returns = evaluate(args, q)
    result = {"env_steps": step, "train_seconds": train_seconds, "eval_mean_return": float(np.mean(returns)), "eval_episodes": len(returns)}
    print(
        f"{args.env_id}: {step} env steps in {train_seconds:.1f} s; greedy policy over {len(returns)} episodes: mean return {result['eval_mean_return']:.2f} (min {min(returns):.2f}, max {max(returns):.2f})"
    )
    return result


if __name__ == "__main__":
    train(parse_args())
