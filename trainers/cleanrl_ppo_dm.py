"""PPO on envpool_lite's dm_env API, in the style of CleanRL's scripts.

envpool_lite is a drop-in for EnvPool's dm_env face here (`make_dm`):
batched dm_env.TimeSteps whose step_type is FIRST / MID / LAST.

    python trainers/cleanrl_ppo_dm.py --env-id CartPole-v1 --total-timesteps 100000

Two things the gym script does not see are handled here:
- the action sent on a LAST TimeStep only resets the env (the next TimeStep
  is FIRST, reward 0), so that transition is left out of the loss;
- discount is 0 on termination and 1 on truncation (dm_env.truncation), so
  a truncated episode bootstraps from the value of its last observation and
  a terminated one does not. (EnvPool's dm_env discount is 0 on both.)
"""

from __future__ import annotations

import argparse
import dataclasses
import time

import dm_env
import numpy as np
import torch
import torch.nn as nn
from torch.distributions.categorical import Categorical

import envpool_lite


@dataclasses.dataclass
class Args:
    env_id: str = "CartPole-v1"
    seed: int = 1
    num_envs: int = 8
    num_steps: int = 128
    total_timesteps: int = 100_000
    learning_rate: float = 2.5e-4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 4
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5


def layer_init(layer, std=np.sqrt(2), bias_const=0.0):
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    def __init__(self, obs_dim: int, num_actions: int):
        super().__init__()
        self.critic = nn.Sequential(layer_init(nn.Linear(obs_dim, 64)), nn.Tanh(), layer_init(nn.Linear(64, 64)), nn.Tanh(), layer_init(nn.Linear(64, 1), std=1.0))
        self.actor = nn.Sequential(layer_init(nn.Linear(obs_dim, 64)), nn.Tanh(), layer_init(nn.Linear(64, 64)), nn.Tanh(), layer_init(nn.Linear(64, num_actions), std=0.01))

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, action=None):
        probs = Categorical(logits=self.actor(x))
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(x)


def train(args: Args) -> list[float]:
    """Runs PPO; returns the returns of the episodes that finished."""
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    batch_size = args.num_envs * args.num_steps
    num_iterations = args.total_timesteps // batch_size
    LAST = int(dm_env.StepType.LAST)

    envs = envpool_lite.make(args.env_id, env_type="dm", num_envs=args.num_envs, seed=args.seed)
    obs_shape = envs.observation_spec().obs.shape
    agent = Agent(int(np.prod(obs_shape)), int(envs.action_spec().num_values))
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    obs = torch.zeros((args.num_steps, args.num_envs) + obs_shape)
    actions = torch.zeros((args.num_steps, args.num_envs), dtype=torch.long)
    logprobs = torch.zeros((args.num_steps, args.num_envs))
    rewards = torch.zeros((args.num_steps, args.num_envs))
    discounts = torch.zeros((args.num_steps, args.num_envs))
    valid = torch.zeros((args.num_steps, args.num_envs))  # 0: the obs was LAST, the action only resets
    values = torch.zeros((args.num_steps, args.num_envs))
    episode_returns = np.zeros(args.num_envs)
    finished: list[float] = []

    timestep = envs.reset()
    next_obs = torch.Tensor(timestep.observation.obs)
    next_valid = torch.Tensor(timestep.step_type != LAST)
    start = time.time()
    for iteration in range(1, num_iterations + 1):
        frac = 1.0 - (iteration - 1.0) / num_iterations
        optimizer.param_groups[0]["lr"] = frac * args.learning_rate
        for step in range(args.num_steps):
            obs[step] = next_obs
            valid[step] = next_valid
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs)
            values[step] = value.flatten()
            actions[step] = action
            logprobs[step] = logprob
            timestep = envs.step(action.numpy().astype(np.int32))
            rewards[step] = torch.tensor(timestep.reward)
            discounts[step] = torch.tensor(timestep.discount)
            last = timestep.step_type == LAST
            episode_returns += timestep.reward
            for k in np.flatnonzero(last):
                finished.append(float(episode_returns[k]))
                episode_returns[k] = 0
            next_obs, next_valid = torch.Tensor(timestep.observation.obs), torch.Tensor(~last)

        with torch.no_grad():
            next_value = agent.get_value(next_obs).reshape(1, -1)
            advantages = torch.zeros_like(rewards)
            lastgaelam = 0
            for t in reversed(range(args.num_steps)):
                nextvalues = next_value if t == args.num_steps - 1 else values[t + 1]
                # The trace stops where the next row is an episode's last
                # observation; its value is still the (truncation) bootstrap.
                nextvalid = next_valid if t == args.num_steps - 1 else valid[t + 1]
                delta = rewards[t] + args.gamma * discounts[t] * nextvalues - values[t]
                lastgaelam = delta + args.gamma * args.gae_lambda * discounts[t] * nextvalid * lastgaelam
                advantages[t] = lastgaelam * valid[t]
            returns = advantages + values

        b_obs = obs.reshape((-1,) + obs_shape)
        b_logprobs, b_actions = logprobs.reshape(-1), actions.reshape(-1)
        b_advantages, b_returns = advantages.reshape(-1), returns.reshape(-1)
        b_inds = np.flatnonzero(valid.reshape(-1).numpy())  # real steps only
        for _ in range(args.update_epochs):
            np.random.shuffle(b_inds)
            for mb in np.array_split(b_inds, args.num_minibatches):
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb], b_actions[mb])
                ratio = (newlogprob - b_logprobs[mb]).exp()
                adv = b_advantages[mb]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg_loss = torch.max(-adv * ratio, -adv * torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef)).mean()
                v_loss = 0.5 * ((newvalue.view(-1) - b_returns[mb]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + v_loss * args.vf_coef
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        recent = np.mean(finished[-20:]) if finished else float("nan")
        print(f"iteration {iteration}/{num_iterations}  steps {iteration * batch_size}  SPS {int(iteration * batch_size / (time.time() - start))}  recent return {recent:.1f}")
    envs.close()
    return finished


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for field in dataclasses.fields(Args):
        parser.add_argument("--" + field.name.replace("_", "-"), type=type(field.default), default=field.default)
    train(Args(**vars(parser.parse_args())))


if __name__ == "__main__":
    main()
