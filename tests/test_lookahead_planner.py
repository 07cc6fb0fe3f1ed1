"""trainers/lookahead_planner.py (planning from saved env states): on the
same games, the lookahead player outscores the random one, and its
planning pool's restored rollouts are what the real env would do."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "trainers"))

import lookahead_planner  # noqa: E402

import envpool_lite  # noqa: E402


def test_lookahead_beats_random_on_the_same_games():
    args = lookahead_planner.Args(games=2, max_steps=150)
    random_scores = [lookahead_planner.play(args, args.seed + g, lookahead=False)[0] for g in range(args.games)]
    planned = [lookahead_planner.play(args, args.seed + g, lookahead=True)[0] for g in range(args.games)]
    assert sum(planned) >= sum(random_scores) + 5, (planned, random_scores)


def test_a_rollout_is_the_real_envs_future():
    # A state moved into a planning pool of another size, stepped with the
    # same actions, gives the real env's rewards and observations.
    real = envpool_lite.make("minatar-breakout", env_type="gymnasium", num_envs=1, seed=3)
    planner = envpool_lite.make("minatar-breakout", env_type="gymnasium", num_envs=6, seed=99)
    real.reset()
    planner.reset()
    for a in (0, 1, 2, 1):
        real.step(np.array([a]))
    planner.set_state(None, real.get_state([0]) * 6)
    planner.recv()
    for a in (2, 2, 0, 1, 1, 0, 2):
        r = real.step(np.array([a]))
        p = planner.step(np.full(6, a))
        assert (p[0] == r[0]).all() and (p[1] == r[1]).all()
    real.close()
    planner.close()
