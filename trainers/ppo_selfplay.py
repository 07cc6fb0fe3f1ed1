"""Self-play PPO on a turn-based game, CleanRL style, one file, on the
flattened-agents face (envpool_lite.make_flat_agents): one network plays
every seat of every game.

    .venv/bin/python trainers/ppo_selfplay.py                 # connect_four, then 1,000 games against a random player
    .venv/bin/python trainers/ppo_selfplay.py --help

The face gives one row per (game, player) and says which rows act
(``info["active"]``) and what they may play (``info["action_mask"]``). Each
row is its own stream of transitions, made of the steps where it acted: the
rewards a player receives while the other moves (a loss when the opponent
wins) are added to its last transition, and a finished game ends the
stream's episode. The step after a game's end resets it (next-step
auto-reset): nobody acts there. Advantages are GAE over each stream's own
transitions, bootstrapped at the rollout's end from the value of the
player's current view. In a share of the games (``--past-opponents``) one
seat is played by a past snapshot of the network instead (fictitious
self-play, as OpenAI Five's 20% of past selves), and only the other seat
trains; ``--opponent-random`` makes a share of that past self's moves
uniformly random legal ones (off by default: it did not help). The rest is
CleanRL's ppo.py with a larger entropy bonus (0.05): with CleanRL's 0.01 the
policy grows sure of itself, its games repeat, and it seldom meets the
positions (its own pieces placed otherwise, an open three left unblocked)
where it would learn to take a win or block one (trainers/README.md has
the runs and the missed wins and blocks). Clipped objective, value
loss, advantage normalisation, Adam, gradient clipping; illegal moves get
zero probability.

At the end the greedy policy plays ``--eval-games`` games against a player
that picks uniformly among legal moves (each seat half the time: pgx draws
who starts) and the script prints the share it wins.
"""

from __future__ import annotations

import copy
import dataclasses
import time

import numpy as np
import torch
from torch import nn

import envpool_lite


@dataclasses.dataclass
class Args:
    env_id: str = "connect_four"  # a turn-based multi-player task
    seed: int = 1  # the pools' seed and torch's
    num_envs: int = 64  # games played together
    num_steps: int = 128  # env steps per rollout
    total_timesteps: int = 4_000_000  # env steps over all games
    learning_rate: float = 2.5e-4  # Adam's step size
    anneal_lr: bool = True  # the step size falls linearly to 0 over the run (CleanRL's default)
    gamma: float = 0.99  # discount, per own move
    gae_lambda: float = 0.95  # GAE's lambda
    num_minibatches: int = 4  # minibatches per epoch
    update_epochs: int = 4  # passes over each rollout
    clip_coef: float = 0.2  # PPO's ratio clip
    ent_coef: float = 0.05  # entropy bonus (above CleanRL's 0.01: a surer self-play policy meets too few positions and misses wins and blocks)
    past_opponents: float = 0.25  # share of games where one seat (drawn) is played by a past snapshot of the network, untrained (fictitious self-play; 0: the network plays both seats)
    snapshot_every: int = 10  # updates between the snapshots kept as past opponents (the first: the untrained network)
    opponent_random: float = 0.0  # share of a past opponent's moves played uniformly at random among legal ones (a weaker opponent; 0: it did not help, trainers/README.md)
    vf_coef: float = 0.5  # value loss weight
    max_grad_norm: float = 0.5  # gradient clipping (norm)
    hidden: int = 256  # units of the hidden layer(s) before the heads
    channels: int = 64  # convolution channels for board observations (0: an MLP)
    eval_games: int = 1000  # greedy games against a random player at the end
    threads: int = 2  # torch's CPU threads
    save: str = ""  # a file to save the trained network's state_dict to (torch.save)


def parse_args() -> Args:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    for field in dataclasses.fields(Args):
        flag = "--" + field.name.replace("_", "-")
        if isinstance(field.default, bool):
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=field.default)
        else:
            parser.add_argument(flag, type=type(field.default), default=field.default)
    return Args(**vars(parser.parse_args()))


class Agent(nn.Module):
    """A board (H, W, C) goes through two 3x3 convolutions (the same
    patterns anywhere on the board), anything else through an MLP; then a
    policy head (illegal moves masked out) and a value head."""

    def __init__(self, obs_shape: tuple, actions: int, hidden: int, channels: int):
        super().__init__()
        self.board = len(obs_shape) == 3 and channels > 0
        if self.board:
            h, w, c = obs_shape
            self.shape = (h, w, c)
            self.body = nn.Sequential(
                nn.Conv2d(c, channels, 3, padding=1), nn.ReLU(),
                nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU(),
                nn.Flatten(), nn.Linear(channels * h * w, hidden), nn.ReLU(),
            )  # fmt: skip
        else:
            size = int(np.prod(obs_shape))
            self.body = nn.Sequential(nn.Flatten(), nn.Linear(size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.policy = nn.Linear(hidden, actions)
        self.value = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor):
        if self.board:
            obs = obs.reshape(-1, *self.shape).permute(0, 3, 1, 2)
        h = self.body(obs)
        logits = self.policy(h).masked_fill(~mask, -1e9)
        return torch.distributions.Categorical(logits=logits), self.value(h).squeeze(-1)


def as_tensors(obs: np.ndarray, mask: np.ndarray):
    mask = torch.as_tensor(mask, dtype=torch.bool)
    # A row with no legal move (a player waiting): any action, it is ignored.
    mask = mask | ~mask.any(-1, keepdim=True)
    return torch.as_tensor(obs, dtype=torch.float32), mask


def gae(rewards, values, dones, valid, last_values, gamma, lam):
    """GAE over each row's own transitions (the steps where it acted,
    ``valid``), backwards in time; dones[t]: the game ended after t."""
    adv = np.zeros_like(rewards)
    next_value, next_adv = last_values.copy(), np.zeros_like(last_values)
    for t in reversed(range(len(rewards))):
        v = valid[t]
        live = 1.0 - dones[t, v]
        delta = rewards[t, v] + gamma * next_value[v] * live - values[t, v]
        adv[t, v] = delta + gamma * lam * live * next_adv[v]
        next_value[v], next_adv[v] = values[t, v], adv[t, v]
    return adv


def evaluate(agent: Agent, args: Args) -> dict:
    """The share of `eval_games` games the greedy policy wins against a
    uniformly random legal player (its seat: player 0; pgx draws who
    starts), and its wins and games when it moved first and second."""
    n = 100
    env = envpool_lite.make_gymnasium(args.env_id, num_envs=n, seed=args.seed + 10_000)
    rng = np.random.default_rng(args.seed)
    wins = games = 0
    by_order = np.zeros((2, 2), int)  # [moved first, moved second] x [wins, games]
    obs, info = env.reset()
    first = info["current_player"] == 0
    starting = np.zeros(n, bool)
    while games < args.eval_games:
        cur = info["current_player"]
        legal = info["legal_action_mask"]
        with torch.no_grad():
            o, m = as_tensors(obs[np.arange(n), cur], legal)
            dist, _ = agent(o, m)
            greedy = dist.probs.argmax(-1).numpy()
        random = np.array([rng.choice(np.flatnonzero(row)) for row in legal])
        actions = np.where(cur == 0, greedy, random).astype(np.int32)
        obs, reward, terminated, truncated, info = env.step(actions)
        done = (terminated | truncated) & ~starting
        won = reward[done, 0] > 0
        take = min(len(won), args.eval_games - games)  # exactly eval_games games, by env id
        wins += int(won[:take].sum())
        games += take
        order = np.where(first[done][:take], 0, 1)
        np.add.at(by_order, (order, 0), won[:take])
        np.add.at(by_order, (order, 1), 1)
        first = np.where(starting, info["current_player"] == 0, first)  # the games that began at this step
        starting = terminated | truncated
    env.close()
    return {
        "win_rate_vs_random": wins / games,
        "wins_first": f"{by_order[0, 0]}/{by_order[0, 1]}",
        "wins_second": f"{by_order[1, 0]}/{by_order[1, 1]}",
    }


def main(args: Args) -> dict:
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    env = envpool_lite.make_flat_agents(args.env_id, num_envs=args.num_envs, seed=args.seed)
    rows = env.num_agents
    obs_size = int(np.prod(env.single_observation_space.shape))
    agent = Agent(env.single_observation_space.shape, int(env.single_action_space.n), args.hidden, args.channels)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    # Past opponents: each game, with probability `past_opponents`, one seat
    # (drawn) is played by a snapshot of the network; that seat's rows do not
    # train. One snapshot, drawn uniformly from those kept, plays every such
    # seat during a rollout.
    opponent = Agent(env.single_observation_space.shape, int(env.single_action_space.n), args.hidden, args.channels)
    snapshots = [copy.deepcopy(agent.state_dict())]
    rng = np.random.default_rng(args.seed)
    players = env.num_players
    seat = np.tile(np.arange(players), args.num_envs)  # each row's player
    past_seat = np.full(args.num_envs, -1)  # each game's seat played by the past snapshot (-1: none)

    def draw_opponents(games: np.ndarray) -> None:
        past = rng.random(len(games)) < args.past_opponents
        past_seat[games] = np.where(past, rng.integers(players, size=len(games)), -1)

    draw_opponents(np.arange(args.num_envs))
    updates = 0
    start = time.time()
    obs, info = env.reset()
    resetting = np.zeros(rows, bool)  # this step resets the row's game: nobody acts
    steps = 0
    # Slot 0 of a rollout holds each row's last transition of the rollout
    # before, when its outcome was still open (the rewards of the opponent's
    # reply, or the game's end, arrive after it): it trains in this rollout.
    T, A = args.num_steps, int(env.single_action_space.n)
    obs_buf = torch.zeros((T + 1, rows, obs_size))
    mask_buf = torch.zeros((T + 1, rows, A), dtype=torch.bool)
    action_buf = torch.zeros((T + 1, rows), dtype=torch.long)
    logp_buf = torch.zeros((T + 1, rows))
    values = np.zeros((T + 1, rows), np.float32)
    carried = np.zeros(rows, bool)
    while steps < args.total_timesteps:
        if args.anneal_lr:
            optimizer.param_groups[0]["lr"] = args.learning_rate * (1.0 - steps / args.total_timesteps)
        opponent.load_state_dict(snapshots[rng.integers(len(snapshots))])
        rewards = np.zeros((T + 1, rows), np.float32)
        dones = np.zeros((T + 1, rows), np.float32)
        valid = np.zeros((T + 1, rows), bool)
        valid[0] = carried
        last = np.where(carried, 0, -1)  # each row's last transition in the buffers
        for t in range(1, T + 1):
            with torch.no_grad():
                o, m = as_tensors(obs, info["action_mask"])
                dist, value = agent(o, m)
                action = dist.sample()
                past_row = np.repeat(past_seat, players) == seat
                by_past = np.flatnonzero(past_row & info["active"])
                if len(by_past):
                    action[by_past] = opponent(o[by_past], m[by_past])[0].sample()
                    at_random = by_past[rng.random(len(by_past)) < args.opponent_random]
                    if len(at_random):
                        action[at_random] = torch.multinomial(m[at_random].float(), 1).squeeze(-1)
            obs_buf[t], mask_buf[t], action_buf[t], logp_buf[t] = o.reshape(rows, -1), m, action, dist.log_prob(action)
            values[t] = value.numpy()
            valid[t] = info["active"] & ~resetting & ~past_row
            last[valid[t]] = t
            obs, reward, terminated, truncated, info = env.step(action.numpy().astype(np.int32))
            ended = terminated | truncated
            rows_ = np.flatnonzero(last >= 0)  # not a resetting row: its game's end cleared it
            rewards[last[rows_], rows_] += reward[rows_]
            dones[last[rows_], rows_] = ended[rows_]
            last[ended] = -1  # a finished game's streams take no later reward
            draw_opponents(np.flatnonzero(ended[::players]))
            resetting = ended
            steps += args.num_envs
        with torch.no_grad():
            o, m = as_tensors(obs, info["action_mask"])
            _, last_values = agent(o, m)
        adv = gae(rewards, values, dones, valid, last_values.numpy(), args.gamma, args.gae_lambda)
        # A row's last transition whose game goes on waits for the next rollout
        # (a game's end cleared its rows' `last`).
        open_ = np.flatnonzero(last >= 0)
        train = valid.copy()
        train[last[open_], open_] = False
        carried = np.zeros(rows, bool)
        carried[open_] = True
        flat = torch.as_tensor(train.reshape(-1))
        b_obs, b_mask = obs_buf.reshape((T + 1) * rows, -1)[flat], mask_buf.reshape((T + 1) * rows, A)[flat]
        b_action, b_logp = action_buf.reshape(-1)[flat], logp_buf.reshape(-1)[flat]
        b_adv = torch.as_tensor(adv.reshape(-1))[flat]
        b_ret = b_adv + torch.as_tensor(values.reshape(-1))[flat]
        idx = torch.as_tensor(last[open_])
        for buf in (obs_buf, mask_buf, action_buf, logp_buf):
            buf[0, open_] = buf[idx, open_]
        values[0, open_] = values[last[open_], open_]
        size = len(b_adv)
        minibatch = max(size // args.num_minibatches, 1)
        for _ in range(args.update_epochs):
            order = torch.randperm(size)
            for i in range(0, size, minibatch):
                idx = order[i : i + minibatch]
                dist, value = agent(b_obs[idx], b_mask[idx])
                ratio = (dist.log_prob(b_action[idx]) - b_logp[idx]).exp()
                adv = b_adv[idx]
                adv = (adv - adv.mean()) / (adv.std(unbiased=False) + 1e-8)
                pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
                v_loss = 0.5 * ((value - b_ret[idx]) ** 2).mean()
                loss = pg_loss + args.vf_coef * v_loss - args.ent_coef * dist.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        updates += 1
        if updates % args.snapshot_every == 0:
            snapshots.append(copy.deepcopy(agent.state_dict()))
    train_seconds = time.time() - start
    env.close()
    if args.save:
        torch.save(agent.state_dict(), args.save)
    result = {"env_id": args.env_id, "steps": steps, "train_seconds": round(train_seconds, 1), **evaluate(agent, args)}
    print(result)
    return result


if __name__ == "__main__":
    main(parse_args())
