"""Continuous-action PPO on envpool_lite's gym API, in the style of CleanRL's
ppo_continuous_action.py (the MuJoCo script): a Gaussian policy with a
state-independent log-std, GAE, clipped value loss, annealed learning rate,
and the equivalent of its gym wrappers done on the batch: ClipAction,
NormalizeObservation + clip to [-10, 10], NormalizeReward + clip to
[-10, 10] (running mean/std, as gym's wrappers compute them, per pool).

envpool_lite is a drop-in for EnvPool here: only the import changes. A dict
observation (dm_control's tasks) is flattened in key order, as CleanRL's
FlattenObservation wrapper does for its dm_control runs.

    python trainers/cleanrl_ppo_continuous_gym.py --env-id HalfCheetah-v5 --total-timesteps 1000000
    python trainers/cleanrl_ppo_continuous_gym.py --env-id CheetahRun-v1 --total-timesteps 1000000
"""

from __future__ import annotations

import argparse
import dataclasses
import time

import numpy as np
import torch
import torch.nn as nn
from torch.distributions.normal import Normal

import envpool_lite


@dataclasses.dataclass
class Args:
    env_id: str = "HalfCheetah-v5"
    seed: int = 1
    num_envs: int = 1
    num_steps: int = 2048  # per env and rollout
    total_timesteps: int = 1_000_000
    learning_rate: float = 3e-4
    anneal_lr: bool = True
    gamma: float = 0.99
    gae_lambda: float = 0.95
    num_minibatches: int = 32
    update_epochs: int = 10
    norm_adv: bool = True
    clip_coef: float = 0.2
    clip_vloss: bool = True
    ent_coef: float = 0.0
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    torch_threads: int = 1  # small MLPs: one thread is fastest on a few cores


class RunningMeanStd:
    """gym's running mean and variance (parallel update, count starts at 1e-4)."""

    def __init__(self, shape=()):
        self.mean, self.var, self.count = np.zeros(shape), np.ones(shape), 1e-4

    def update(self, x: np.ndarray) -> None:
        mean, var, n = x.mean(0), x.var(0), x.shape[0]
        delta, total = mean - self.mean, self.count + n
        self.mean = self.mean + delta * n / total
        self.var = (self.var * self.count + var * n + delta**2 * self.count * n / total) / total
        self.count = total


class Normalizer:
    """NormalizeObservation and NormalizeReward (gamma-discounted returns),
    each followed by the clip to [-10, 10], for a batch of envs."""

    def __init__(self, obs_shape, num_envs: int, gamma: float):
        self.obs_rms, self.ret_rms = RunningMeanStd(obs_shape), RunningMeanStd()
        self.returns, self.gamma = np.zeros(num_envs), gamma

    def obs(self, obs: np.ndarray) -> np.ndarray:
        self.obs_rms.update(obs)
        return np.clip((obs - self.obs_rms.mean) / np.sqrt(self.obs_rms.var + 1e-8), -10, 10)

    def reward(self, reward: np.ndarray, done: np.ndarray) -> np.ndarray:
        self.returns = self.returns * self.gamma + reward
        self.ret_rms.update(self.returns)
        self.returns[done] = 0.0
        return np.clip(reward / np.sqrt(self.ret_rms.var + 1e-8), -10, 10)


def layer_init(layer, std=np.sqrt(2), bias_const=0.0):
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    def __init__(self, obs_dim: int, act_dim: int):
        super().__init__()
        self.critic = nn.Sequential(layer_init(nn.Linear(obs_dim, 64)), nn.Tanh(), layer_init(nn.Linear(64, 64)), nn.Tanh(), layer_init(nn.Linear(64, 1), std=1.0))
        self.actor_mean = nn.Sequential(layer_init(nn.Linear(obs_dim, 64)), nn.Tanh(), layer_init(nn.Linear(64, 64)), nn.Tanh(), layer_init(nn.Linear(64, act_dim), std=0.01))
        self.actor_logstd = nn.Parameter(torch.zeros(1, act_dim))

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, action=None):
        mean = self.actor_mean(x)
        probs = Normal(mean, self.actor_logstd.expand_as(mean).exp())
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action).sum(1), probs.entropy().sum(1), self.critic(x)


def flatten(obs) -> np.ndarray:
    """(num_envs, n) float64: a dict observation's arrays raveled per env and
    concatenated in key order; an array observation as it is."""
    if not isinstance(obs, dict):
        return obs
    return np.concatenate([v.reshape(len(v), -1) for v in obs.values()], axis=1)


def train(args: Args) -> list[tuple[int, float]]:
    """Runs PPO; returns (global step, return) of each episode that finished
    (the raw reward, not the normalised one)."""
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    if args.torch_threads > 0:
        torch.set_num_threads(args.torch_threads)
    batch_size = args.num_envs * args.num_steps
    minibatch_size = batch_size // args.num_minibatches
    num_iterations = args.total_timesteps // batch_size

    envs = envpool_lite.make(args.env_id, env_type="gym", num_envs=args.num_envs, seed=args.seed)
    space = envs.observation_space
    obs_shape = (sum(int(np.prod(s.shape)) for s in space.spaces.values()),) if hasattr(space, "spaces") else space.shape
    act_shape = envs.action_space.shape
    low, high = envs.action_space.low, envs.action_space.high
    norm = Normalizer(obs_shape, args.num_envs, args.gamma)

    agent = Agent(int(np.prod(obs_shape)), int(np.prod(act_shape)))
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    obs = torch.zeros((args.num_steps, args.num_envs) + obs_shape)
    actions = torch.zeros((args.num_steps, args.num_envs) + act_shape)
    logprobs = torch.zeros((args.num_steps, args.num_envs))
    rewards = torch.zeros((args.num_steps, args.num_envs))
    dones = torch.zeros((args.num_steps, args.num_envs))
    values = torch.zeros((args.num_steps, args.num_envs))
    episode_returns = np.zeros(args.num_envs)
    finished: list[tuple[int, float]] = []

    global_step = 0
    next_obs = torch.Tensor(norm.obs(flatten(envs.reset())))
    next_done = torch.zeros(args.num_envs)
    start = time.time()
    for iteration in range(1, num_iterations + 1):
        if args.anneal_lr:
            optimizer.param_groups[0]["lr"] = (1.0 - (iteration - 1.0) / num_iterations) * args.learning_rate
        for step in range(args.num_steps):
            global_step += args.num_envs
            obs[step] = next_obs
            dones[step] = next_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs)
            values[step] = value.flatten()
            actions[step] = action
            logprobs[step] = logprob
            # ClipAction: the policy's sample is stored, the clipped one sent.
            o, reward, done, info = envs.step(np.clip(action.numpy(), low, high).astype(np.float32))
            episode_returns += reward
            for k in np.flatnonzero(done):
                finished.append((global_step, float(episode_returns[k])))
                episode_returns[k] = 0
            rewards[step] = torch.tensor(norm.reward(reward, done), dtype=torch.float32)
            next_obs, next_done = torch.Tensor(norm.obs(flatten(o))), torch.Tensor(done.astype(np.float32))

        with torch.no_grad():
            next_value = agent.get_value(next_obs).reshape(1, -1)
            advantages = torch.zeros_like(rewards)
            lastgaelam = 0
            for t in reversed(range(args.num_steps)):
                nextnonterminal = 1.0 - (next_done if t == args.num_steps - 1 else dones[t + 1])
                nextvalues = next_value if t == args.num_steps - 1 else values[t + 1]
                delta = rewards[t] + args.gamma * nextvalues * nextnonterminal - values[t]
                advantages[t] = lastgaelam = delta + args.gamma * args.gae_lambda * nextnonterminal * lastgaelam
            returns = advantages + values

        b_obs = obs.reshape((-1,) + obs_shape)
        b_logprobs, b_actions = logprobs.reshape(-1), actions.reshape((-1,) + act_shape)
        b_advantages, b_returns, b_values = advantages.reshape(-1), returns.reshape(-1), values.reshape(-1)
        b_inds = np.arange(batch_size)
        for _ in range(args.update_epochs):
            np.random.shuffle(b_inds)
            for s in range(0, batch_size, minibatch_size):
                mb = b_inds[s : s + minibatch_size]
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb], b_actions[mb])
                ratio = (newlogprob - b_logprobs[mb]).exp()
                adv = b_advantages[mb]
                if args.norm_adv:
                    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg_loss = torch.max(-adv * ratio, -adv * torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef)).mean()
                newvalue = newvalue.view(-1)
                if args.clip_vloss:
                    v_clipped = b_values[mb] + torch.clamp(newvalue - b_values[mb], -args.clip_coef, args.clip_coef)
                    v_loss = 0.5 * torch.max((newvalue - b_returns[mb]) ** 2, (v_clipped - b_returns[mb]) ** 2).mean()
                else:
                    v_loss = 0.5 * ((newvalue - b_returns[mb]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + v_loss * args.vf_coef
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        recent = np.mean([r for _, r in finished[-20:]]) if finished else float("nan")
        print(f"iteration {iteration}/{num_iterations}  steps {global_step}  SPS {int(global_step / (time.time() - start))}  recent return {recent:.1f}", flush=True)
    envs.close()
    return finished


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for field in dataclasses.fields(Args):
        if isinstance(field.default, bool):
            parser.add_argument("--" + field.name.replace("_", "-"), action=argparse.BooleanOptionalAction, default=field.default)
        else:
            parser.add_argument("--" + field.name.replace("_", "-"), type=type(field.default), default=field.default)
    train(Args(**vars(parser.parse_args())))


if __name__ == "__main__":
    main()
