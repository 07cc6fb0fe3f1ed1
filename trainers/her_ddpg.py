"""DDPG + HER (hindsight experience replay) on a goal-conditioned pool, CleanRL
style, one file: the relabelling calls the pool's own ``compute_reward``.

    .venv/bin/python trainers/her_ddpg.py --env-id FetchReach-v4
    .venv/bin/python trainers/her_ddpg.py --help

The algorithm is the one of baselines' HER (Andrychowicz et al., 2017) as
most reimplementations have it: episodes are collected from every env of a
sync pool at once, stored whole, and each update samples transitions whose
goal is replaced, with probability 1 - 1/(1 + k), by a goal the same episode
achieves later ("future" strategy); the reward of the new goal is
``env.compute_reward(achieved_goal, goal, info)``. Observations and goals are
normalised by running statistics (clipped at 5), the actor's actions get
Gaussian noise plus a fraction of uniformly random actions, targets move by
Polyak averaging, and the critic's target is clipped to the returns the
rewards seen allow ([-1 / (1 - gamma), 0] for Fetch's rewards in [-1, 0]).
Stops when the deterministic policy's success rate over ``--eval-envs``
episodes reaches ``--target-success``.
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
    env_id: str = "FetchReach-v4"  # a goal-conditioned task (dict observation, compute_reward)
    seed: int = 1  # the pools' seed and torch's
    num_envs: int = 8  # envs collecting episodes together
    eval_envs: int = 16  # episodes of the deterministic policy per evaluation
    cycles: int = 200  # at most this many collect-then-train cycles
    updates_per_cycle: int = 40  # gradient steps after each cycle's episodes
    batch_size: int = 256  # transitions per gradient step
    buffer_episodes: int = 10000  # episodes the replay buffer keeps
    replay_k: int = 4  # relabelled : original goals = k : 1 ("future" strategy)
    gamma: float = 0.98  # discount
    polyak: float = 0.95  # target = polyak * target + (1 - polyak) * online
    lr_actor: float = 1e-3  # Adam's step size for the actor
    lr_critic: float = 1e-3  # Adam's step size for the critic
    hidden: int = 256  # units per hidden layer (three layers)
    action_l2: float = 1.0  # penalty on the actor's squared actions
    noise_eps: float = 0.2  # Gaussian exploration noise (fraction of the action range)
    random_eps: float = 0.3  # probability of a uniformly random action
    clip_obs: float = 200.0  # observations clipped before normalising
    target_success: float = 0.9  # stop when the evaluation reaches this success rate
    threads: int = 2  # torch's CPU threads


def parse_args() -> Args:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    for field in dataclasses.fields(Args):
        parser.add_argument("--" + field.name.replace("_", "-"), type=type(field.default), default=field.default)
    return Args(**vars(parser.parse_args()))


class Normalizer:
    """Running mean and standard deviation of a vector, clipped at 5."""

    def __init__(self, size: int, eps: float = 1e-2, clip: float = 5.0):
        self.sum, self.sumsq, self.count = np.zeros(size), np.zeros(size), 0
        self.mean, self.std = np.zeros(size), np.ones(size)
        self.eps, self.clip = eps, clip

    def update(self, x: np.ndarray) -> None:
        x = x.reshape(-1, self.sum.size)
        self.sum += x.sum(0)
        self.sumsq += (x**2).sum(0)
        self.count += len(x)
        self.mean = self.sum / self.count
        self.std = np.sqrt(np.maximum(self.eps**2, self.sumsq / self.count - self.mean**2))

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return np.clip((x - self.mean) / self.std, -self.clip, self.clip)


def mlp(inputs: int, outputs: int, hidden: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(inputs, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, outputs))


class Agent:
    def __init__(self, args: Args, obs_size: int, goal_size: int, action_size: int):
        self.args = args
        self.obs_norm, self.goal_norm = Normalizer(obs_size), Normalizer(goal_size)
        inputs = obs_size + goal_size
        self.actor = nn.Sequential(mlp(inputs, action_size, args.hidden), nn.Tanh())
        self.critic = mlp(inputs + action_size, 1, args.hidden)
        self.actor_target = nn.Sequential(mlp(inputs, action_size, args.hidden), nn.Tanh())
        self.critic_target = mlp(inputs + action_size, 1, args.hidden)
        self.actor_target.load_state_dict(self.actor.state_dict())
        self.critic_target.load_state_dict(self.critic.state_dict())
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=args.lr_actor)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=args.lr_critic)
        self.reward_low, self.reward_high = 0.0, 0.0

    def inputs(self, obs: np.ndarray, goal: np.ndarray) -> torch.Tensor:
        obs = np.clip(obs, -self.args.clip_obs, self.args.clip_obs)
        goal = np.clip(goal, -self.args.clip_obs, self.args.clip_obs)
        return torch.as_tensor(np.concatenate([self.obs_norm(obs), self.goal_norm(goal)], -1), dtype=torch.float32)

    @torch.no_grad()
    def act(self, obs: np.ndarray, goal: np.ndarray, explore: bool, rng: np.random.Generator) -> np.ndarray:
        action = self.actor(self.inputs(obs, goal)).numpy()
        if explore:
            action = np.clip(action + self.args.noise_eps * rng.standard_normal(action.shape), -1, 1)
            random = rng.uniform(-1, 1, action.shape)
            action = np.where(rng.random((len(action), 1)) < self.args.random_eps, random, action)
        return action.astype(np.float32)

    def update(self, batch: dict[str, np.ndarray]) -> tuple[float, float]:
        args = self.args
        x = self.inputs(batch["obs"], batch["goal"])
        x_next = self.inputs(batch["obs_next"], batch["goal"])
        actions = torch.as_tensor(batch["action"])
        rewards = torch.as_tensor(batch["reward"], dtype=torch.float32).unsqueeze(1)
        # Returns lie between the smallest and largest reward seen over
        # 1 - gamma ([-1/(1-gamma), 0] for Fetch's sparse rewards).
        self.reward_low = min(self.reward_low, float(rewards.min()))
        self.reward_high = max(self.reward_high, float(rewards.max()))
        with torch.no_grad():
            q_next = self.critic_target(torch.cat([x_next, self.actor_target(x_next)], 1))
            target = (rewards + args.gamma * q_next).clamp(self.reward_low / (1.0 - args.gamma), self.reward_high / (1.0 - args.gamma))
        critic_loss = (self.critic(torch.cat([x, actions], 1)) - target).pow(2).mean()
        self.critic_opt.zero_grad()
        critic_loss.backward()
        self.critic_opt.step()
        pi = self.actor(x)
        actor_loss = -self.critic(torch.cat([x, pi], 1)).mean() + args.action_l2 * pi.pow(2).mean()
        self.actor_opt.zero_grad()
        actor_loss.backward()
        self.actor_opt.step()
        return float(critic_loss), float(actor_loss)

    @torch.no_grad()
    def soft_update(self) -> None:
        for net, target in ((self.actor, self.actor_target), (self.critic, self.critic_target)):
            for p, tp in zip(net.parameters(), target.parameters()):
                tp.mul_(self.args.polyak).add_((1 - self.args.polyak) * p)


class EpisodeBuffer:
    """Whole episodes: obs and achieved goals at T + 1 times, goals and
    actions at T; sampled with HER's "future" relabelling."""

    def __init__(self, args: Args, horizon: int, obs_size: int, goal_size: int, action_size: int, compute_reward):
        n = args.buffer_episodes
        self.obs = np.zeros((n, horizon + 1, obs_size))
        self.ag = np.zeros((n, horizon + 1, goal_size))
        self.goal = np.zeros((n, horizon, goal_size))
        self.action = np.zeros((n, horizon, action_size), np.float32)
        self.size, self.next, self.horizon = 0, 0, horizon
        self.future_p = 1 - 1.0 / (1 + args.replay_k)
        self.compute_reward = compute_reward

    def add(self, obs: np.ndarray, ag: np.ndarray, goal: np.ndarray, action: np.ndarray) -> None:
        for e in range(len(obs)):
            i = self.next
            self.obs[i], self.ag[i], self.goal[i], self.action[i] = obs[e], ag[e], goal[e], action[e]
            self.next = (self.next + 1) % len(self.obs)
            self.size = min(self.size + 1, len(self.obs))

    def sample(self, n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        ep = rng.integers(0, self.size, n)
        t = rng.integers(0, self.horizon, n)
        goal = self.goal[ep, t].copy()
        relabel = rng.random(n) < self.future_p
        future = t + 1 + (rng.random(n) * (self.horizon - t)).astype(int)
        goal[relabel] = self.ag[ep[relabel], future[relabel]]
        ag_next = self.ag[ep, t + 1]
        # The pool's compute_reward, over the whole batch at once.
        reward = self.compute_reward(ag_next, goal, None)
        return {"obs": self.obs[ep, t], "obs_next": self.obs[ep, t + 1], "goal": goal, "action": self.action[ep, t], "reward": reward}


def run_episodes(pool, agent: Agent, horizon: int, explore: bool, rng: np.random.Generator):
    """One episode in every env of a sync pool (reset, horizon steps):
    (obs, achieved goals, goals, actions, final is_success)."""
    obs, _ = pool.reset()
    n = len(obs["observation"])
    observations, achieved, goals, actions = [obs["observation"]], [obs["achieved_goal"]], [], []
    for _ in range(horizon):
        goal = obs["desired_goal"]
        action = agent.act(obs["observation"], goal, explore, rng)
        obs, _, _, _, info = pool.step(action)
        observations.append(obs["observation"])
        achieved.append(obs["achieved_goal"])
        goals.append(goal)
        actions.append(action)
    stack = lambda xs: np.stack(xs, 1)  # noqa: E731
    assert np.all(info["elapsed_step"] == horizon) or n == 0
    success = info["is_success"] if "is_success" in info else info["success"]  # Fetch and Hand / the mazes
    return stack(observations), stack(achieved), stack(goals), stack(actions), success.astype(float)


def main(args: Args) -> dict[str, float]:
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    pool = envpool_lite.make(args.env_id, env_type="gymnasium", num_envs=args.num_envs, seed=args.seed)
    eval_pool = envpool_lite.make(args.env_id, env_type="gymnasium", num_envs=args.eval_envs, seed=args.seed + 10_000)
    horizon = pool.spec.max_episode_steps
    space = pool.single_observation_space
    obs_size, goal_size = space["observation"].shape[0], space["desired_goal"].shape[0]
    action_size = pool.single_action_space.shape[0]
    agent = Agent(args, obs_size, goal_size, action_size)
    buffer = EpisodeBuffer(args, horizon, obs_size, goal_size, action_size, pool.compute_reward)
    start, steps, success = time.time(), 0, 0.0
    for cycle in range(1, args.cycles + 1):
        obs, ag, goal, action, _ = run_episodes(pool, agent, horizon, True, rng)
        buffer.add(obs, ag, goal, action)
        steps += args.num_envs * horizon
        agent.obs_norm.update(obs)
        agent.goal_norm.update(np.concatenate([goal, ag[:, 1:]], 1))
        for _ in range(args.updates_per_cycle):
            critic_loss, actor_loss = agent.update(buffer.sample(args.batch_size, rng))
        agent.soft_update()
        success = float(run_episodes(eval_pool, agent, horizon, False, rng)[4].mean())
        print(f"cycle {cycle:4d}  env steps {steps:7d}  {time.time() - start:6.1f} s  critic {critic_loss:.4f}  actor {actor_loss:.3f}  eval success {success:.2f}", flush=True)
        if success >= args.target_success:
            break
    wall = time.time() - start
    print(f"{args.env_id}: eval success {success:.2f} after {steps} env steps (training episodes only), {wall:.1f} s")
    pool.close()
    eval_pool.close()
    return {"success": success, "steps": steps, "seconds": wall}


if __name__ == "__main__":
    main(parse_args())
