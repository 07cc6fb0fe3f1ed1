"""Planning with saved env states: a lookahead player for MinAtar Breakout.

At every step of the game it saves the real env's state (get_state), puts
that state into every env of a planning pool (set_state: num_actions x
rollouts envs), plays each first action followed by random actions for
`horizon` steps in all of them at once, and takes the first action whose
rollouts scored most. The real env and the planning pool are two pools
(one env and many): a state moves between pools of the same task and
options. It is compared with a player that acts at random, over the same
games (same seeds).

    .venv/bin/python trainers/lookahead_planner.py
    .venv/bin/python trainers/lookahead_planner.py --games 3 --horizon 30 --rollouts 16
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

import envpool_lite


@dataclasses.dataclass
class Args:
    env_id: str = "minatar-breakout"  # a task with a discrete action space
    games: int = 5  # games played by each player (seeds seed .. seed + games - 1)
    seed: int = 1  # the first game's seed
    max_steps: int = 500  # steps per game at most
    horizon: int = 20  # steps of each rollout
    rollouts: int = 8  # rollouts per first action
    discount: float = 0.99  # of a rollout's rewards


def parse_args() -> Args:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    for field in dataclasses.fields(Args):
        parser.add_argument("--" + field.name.replace("_", "-"), type=type(field.default), default=field.default)
    return Args(**vars(parser.parse_args()))


def plan(state: bytes, planner, num_actions: int, args: Args, rng: np.random.Generator) -> int:
    """The first action whose rollouts from `state` score most (mean
    discounted return; the rollouts of an episode that ends stop there)."""
    n = planner.num_envs
    planner.set_state(None, [state] * n)
    planner.recv()  # the saved moment's rows
    first = np.repeat(np.arange(num_actions), args.rollouts)
    returns, alive, weight = np.zeros(n), np.ones(n, bool), 1.0
    for t in range(args.horizon):
        actions = first if t == 0 else rng.integers(0, num_actions, n)
        _, reward, terminated, truncated, _ = planner.step(actions)
        returns += weight * reward * alive
        alive &= ~(terminated | truncated)
        weight *= args.discount
    scores = returns.reshape(num_actions, args.rollouts).mean(axis=1)
    return int(rng.choice(np.flatnonzero(scores == scores.max())))  # ties at random


def play(args: Args, seed: int, lookahead: bool) -> tuple[float, int]:
    """One game: its score and length."""
    real = envpool_lite.make(args.env_id, env_type="gymnasium", num_envs=1, seed=seed)
    num_actions = int(real.single_action_space.n)
    planner = envpool_lite.make(args.env_id, env_type="gymnasium", num_envs=num_actions * args.rollouts, seed=seed) if lookahead else None
    rng = np.random.default_rng(seed)
    try:
        real.reset()
        if planner is not None:
            planner.reset()
        score, steps = 0.0, 0
        while steps < args.max_steps:
            steps += 1
            if planner is not None:
                action = plan(real.get_state([0])[0], planner, num_actions, args, rng)
            else:
                action = int(rng.integers(0, num_actions))
            _, reward, terminated, truncated, _ = real.step(np.array([action]))
            score += float(reward[0])
            if terminated[0] or truncated[0]:
                break
        return score, steps
    finally:
        real.close()
        if planner is not None:
            planner.close()


def main() -> None:
    args = parse_args()
    print(f"{args.env_id}: {args.games} games of at most {args.max_steps} steps; lookahead {args.rollouts} rollouts x {args.horizon} steps per action")
    for name, lookahead in (("random", False), ("lookahead", True)):
        start = time.perf_counter()
        games = [play(args, args.seed + g, lookahead) for g in range(args.games)]
        scores = [s for s, _ in games]
        steps = sum(n for _, n in games)
        took = time.perf_counter() - start
        print(f"{name:>9}: mean score {np.mean(scores):6.2f} (games {', '.join(f'{s:g}' for s in scores)}), {steps} steps, {took:.1f} s")


if __name__ == "__main__":
    main()
