"""Where a connect_four policy saved by ``ppo_selfplay.py --save`` loses to a
random player: it plays greedy games against a player uniformly random among
legal moves (as player 0; pgx draws who starts) and counts, over its own
moves, the positions where it had a winning
move and did not play one, and those where only the opponent had one and it
did not block it.

    .venv/bin/python trainers/ppo_selfplay.py --save net.pt
    .venv/bin/python trainers/connect_four_tactics.py net.pt
"""

from __future__ import annotations

import argparse

import numpy as np
import torch
from ppo_selfplay import Agent, Args, as_tensors

import envpool_lite


def wins_at(board: np.ndarray, column: int) -> bool:
    """Whether dropping a piece of the mover (+1 in ``board``, rows top to
    bottom) into ``column`` makes four in a row."""
    empty = np.flatnonzero(board[:, column] == 0)
    if len(empty) == 0:
        return False
    row = empty.max()
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        count = 1
        for sign in (1, -1):
            r, c = row + sign * dr, column + sign * dc
            while 0 <= r < board.shape[0] and 0 <= c < board.shape[1] and board[r, c] == 1:
                count, r, c = count + 1, r + sign * dr, c + sign * dc
        if count >= 4:
            return True
    return False


def main() -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("network", help="a state_dict saved by ppo_selfplay.py --save (the default network shape)")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1, help="the games' seed (the pool's is seed + 10,000, as in ppo_selfplay.py's evaluation)")
    args = parser.parse_args()
    defaults = Args()
    env = envpool_lite.make_gymnasium("connect_four", num_envs=1, seed=args.seed + 10_000)
    agent = Agent(env.single_observation_space.shape[1:], int(env.single_action_space.n), defaults.hidden, defaults.channels)
    agent.load_state_dict(torch.load(args.network))
    rng = np.random.default_rng(args.seed)
    counts = {"games": 0, "losses": 0, "own_moves": 0, "missed_wins": 0, "missed_blocks": 0}
    obs, info = env.reset()
    while counts["games"] < args.games:
        player, legal = int(info["current_player"][0]), info["legal_action_mask"][0]
        if player == 0:
            view = obs[0, 0]  # channel 0: the mover's pieces, 1: the opponent's
            with torch.no_grad():
                dist, _ = agent(*as_tensors(view[None], legal[None]))
            action = int(dist.probs.argmax(-1)[0])
            board = view[..., 0].astype(int) - view[..., 1].astype(int)
            wins = [c for c in np.flatnonzero(legal) if wins_at(board, c)]
            threats = [c for c in np.flatnonzero(legal) if wins_at(-board, c)]
            counts["own_moves"] += 1
            counts["missed_wins"] += bool(wins) and action not in wins
            counts["missed_blocks"] += not wins and bool(threats) and action not in threats
        else:
            action = int(rng.choice(np.flatnonzero(legal)))
        obs, reward, terminated, truncated, info = env.step(np.array([action], np.int32))
        if terminated[0] or truncated[0]:
            counts["games"] += 1
            counts["losses"] += int(reward[0, 0] < 0)
            obs, _, _, _, info = env.step(np.zeros(1, np.int32))  # the next-step auto-reset
    env.close()
    print(counts)
    return counts


if __name__ == "__main__":
    main()
