"""BipedalWalker-v3 and BipedalWalkerHardcore-v3 are bit-exact with
gymnasium 1.4.0's (on the box2d==2.3.10 wheel).

Our pool and one gymnasium env per pool env (env i reset with seed + i,
later episodes with reset() continuing its random stream) are stepped side
by side on the same float32 actions; observations, rewards (float64),
terminated and truncated are compared with == at every step, through the
pool's auto-resets. The actions come from gymnasium's own
BipedalWalkerHeuristics (it walks, so the walker meets the hardcore
obstacles, reaches the end of the terrain, or walks until the time limit),
from random actions (out of range and at the edges too: they fall) and from
the heuristic with noise. Each test checks that it saw what it is meant to
cover, so none passes vacuously.
"""

import gymnasium
import numpy as np
import pytest
from gymnasium.envs.box2d import bipedal_walker as gym_bw
from gymnasium.envs.box2d.bipedal_walker import BipedalWalkerHeuristics

import envpool_lite

pytestmark = pytest.mark.usefixtures("quiet_gymnasium")

TASKS = ["BipedalWalker-v3", "BipedalWalkerHardcore-v3"]
END_X = (gym_bw.TERRAIN_LENGTH - gym_bw.TERRAIN_GRASS) * gym_bw.TERRAIN_STEP
SPECIAL = np.array([1.0, -1.0, 0.0, -0.0, 3.0, -3.0, 1e-8, -1.0000001], np.float32)


class Reference:
    """gymnasium's env for one pool env, with the policy that drives it."""

    def __init__(self, task, seed, rng, policies, **kwargs):
        self.env = gymnasium.make(task, **kwargs)
        self.seed, self.rng, self.policies = seed, rng, policies
        self.episodes = 0
        self.done = True
        self.obstacles = set()  # hardcore obstacle kinds met
        self.frames, self.max_scroll = 0, 0.0  # pictures compared
        self.stats = {"falls": 0, "ends": 0, "truncations": 0}

    def reset(self):
        obs, info = self.env.reset(seed=self.seed) if self.episodes == 0 else self.env.reset()
        self.policy = self.policies[self.episodes % len(self.policies)]
        self.episodes += 1
        self.heuristic = BipedalWalkerHeuristics()
        self.obs, self.done = obs, False
        self.max_x = 0.0
        return obs, info

    def act(self):
        heuristic = self.heuristic.step_heuristic(self.obs).astype(np.float32)
        noise = self.rng.uniform(-1.5, 1.5, 4).astype(np.float32)
        special = self.rng.choice(SPECIAL, 4)
        if self.policy == "heuristic":
            return heuristic
        if self.policy == "noisy":
            return np.where(self.rng.random(4) < 0.3, noise, heuristic).astype(np.float32)
        return np.where(self.rng.random(4) < 0.2, special, noise).astype(np.float32)

    def step(self, action):
        out = self.env.step(action)
        self.obs = out[0]
        self.done = bool(out[2] or out[3])
        inner = self.env.unwrapped
        self.max_x = max(self.max_x, inner.hull.position.x)
        if out[2]:
            key = "ends" if inner.hull.position.x > END_X else "falls"
            self.stats[key] += 1
            assert (out[1] == -100) == (key == "falls")
        elif out[3]:
            self.stats["truncations"] += 1
        if self.done:
            self.obstacles |= obstacle_kinds(inner, self.max_x)
        return out


def check(out, row, ref_out, msg):
    obs, rew, term, trunc = out[0][row], out[1][row], out[2][row], out[3][row]
    assert obs.dtype == np.float32 and out[1].dtype == np.float64
    np.testing.assert_array_equal(obs, ref_out[0], err_msg=msg)
    assert rew == ref_out[1], (msg, rew, ref_out[1])
    assert term == ref_out[2] and trunc == ref_out[3], (msg, term, trunc, ref_out[2:4])


def check_frames(frames, refs, msg):
    """Our pictures against gymnasium's render(), pixel for pixel."""
    assert frames.shape == (len(refs), 400, 600, 3) and frames.dtype == np.uint8
    for i, ref in enumerate(refs):
        expected = ref.env.render()
        bad = int(np.any(frames[i] != expected, axis=2).sum())
        assert bad == 0, f"{msg} env {i}: {bad} pixels differ"
        ref.frames += 1
        ref.max_scroll = max(ref.max_scroll, ref.env.unwrapped.scroll)


def run_sync(task, seeds, steps, policies, rng_seed=0, render_at=None, **kwargs):
    """A sync pool (env i reset with seeds[i]) against its references; with
    render_at(t), the pictures before step t too."""
    n = len(seeds)
    if render_at is not None:
        kwargs["render_mode"] = "rgb_array"
    ours = envpool_lite.make(task, env_type="gymnasium", num_envs=n, **kwargs)
    refs = [Reference(task, s, np.random.default_rng(rng_seed + i), policies, **kwargs) for i, s in enumerate(seeds)]
    try:
        out = ours.reset(seed=list(seeds))
        for i, ref in enumerate(refs):
            check((*out[:1], np.zeros(n), np.zeros(n, bool), np.zeros(n, bool)), i, (*ref.reset()[:1], 0, False, False), f"reset {i}")
        for t in range(steps):
            if render_at is not None and render_at(t):
                check_frames(ours.render(), refs, f"{task} before step {t}")
            actions = np.stack([ref.act() for ref in refs])
            was_done = [ref.done for ref in refs]
            out = ours.step(actions)
            for i, ref in enumerate(refs):
                # The step after an episode's end is the pool's auto-reset.
                ref_out = (*ref.reset()[:1], 0.0, False, False) if was_done[i] else ref.step(actions[i])
                check(out, i, ref_out, f"{task} env {i} step {t}")
        return refs
    finally:
        ours.close()


def obstacle_kinds(inner, max_x):
    """The kinds of the hardcore obstacles the walker came within lidar range
    of, from the reference's terrain bodies (their size in terrain steps)."""
    kinds = set()
    step = gym_bw.TERRAIN_STEP
    for body in inner.terrain:
        shape = body.fixtures[0].shape
        if not isinstance(shape, gym_bw.polygonShape):
            continue
        xs, ys = zip(*shape.vertices)
        if min(xs) > max_x + gym_bw.LIDAR_RANGE:
            continue
        w, h = round((max(xs) - min(xs)) / step), round((max(ys) - min(ys)) / step)
        kinds.add({(1, 4): "pit", (1, 1): "stump", (2, 2): "stump", (4, 1): "stairs"}[(w, h)])
    return kinds


@pytest.mark.parametrize("task", TASKS)
def test_matches_gymnasium(task):
    refs = run_sync(task, [5, 6, 7, 8], 1500, ["heuristic", "random", "noisy"], rng_seed=1)
    falls = sum(r.stats["falls"] for r in refs)
    assert falls >= 3, [r.stats for r in refs]
    assert sum(r.episodes for r in refs) >= 8


def test_hardcore_obstacles():
    """The heuristic walks into the hardcore obstacles (and falls there):
    stumps, stairs and pits all come within the lidar's range, so their
    shapes are in the compared observations."""
    refs = run_sync("BipedalWalkerHardcore-v3", [0, 4, 10, 20], 700, ["heuristic"])
    assert all(ref.stats["falls"] > 0 for ref in refs)
    assert set().union(*(ref.obstacles for ref in refs)) == {"pit", "stump", "stairs"}


def test_end_of_terrain_and_time_limit():
    """gymnasium's heuristic walker: from seed 6 it reaches the end of the
    terrain (terminated, not a fall) at its step 1544; from seed 0 it walks
    until the 1600-step limit truncates the episode. Pictures on the way, up
    to the widest surfaces (scroll about 84: 3100 pixels), and after each
    ending (the episode's last state until the pool's auto-reset step)."""
    render_at = lambda t: t % 100 == 0 or 1540 <= t <= 1546 or t >= 1598  # noqa: E731
    refs = run_sync("BipedalWalker-v3", [0, 6], 1602, ["heuristic"], render_at=render_at)
    assert refs[1].max_scroll > 80
    assert refs[0].episodes == 2 and refs[1].episodes == 2
    assert refs[0].stats == {"falls": 0, "ends": 0, "truncations": 1}
    assert refs[1].stats["ends"] == 1 and refs[1].stats["falls"] == 0


@pytest.mark.parametrize("task", TASKS)
def test_async_pool_matches_gymnasium_per_env(task):
    """batch_size < num_envs: each batch holds the envs that finished first;
    each env still follows its own reference, matched by env_id."""
    num_envs, batch, seed = 6, 2, 30
    ours = envpool_lite.make(task, env_type="gymnasium", num_envs=num_envs, batch_size=batch, num_threads=2, seed=seed)
    refs = [Reference(task, seed + i, np.random.default_rng(i), ["random", "noisy", "heuristic"]) for i in range(num_envs)]
    last = {}
    steps = [0] * num_envs
    try:
        ours.async_reset()
        for _ in range(1500):
            out = ours.recv()
            ids = [int(i) for i in out[4]["env_id"]]
            assert len(ids) == batch
            for row, i in enumerate(ids):
                ref = refs[i]
                ref_out = (*ref.reset()[:1], 0.0, False, False) if ref.done else ref.step(last[i])
                check(out, row, ref_out, f"{task} env {i} step {steps[i]}")
                steps[i] += 1
                last[i] = ref.act()
            ours.send(np.stack([last[i] for i in ids]), ids)
        assert all(s > 100 for s in steps), steps
        assert sum(r.stats["falls"] for r in refs) >= 3
    finally:
        ours.close()


def test_seeds_give_different_starts():
    ours = envpool_lite.make("BipedalWalkerHardcore-v3", num_envs=4, seed=5)
    try:
        obs, _ = ours.reset()
        assert len({row.tobytes() for row in obs}) == 4
        for i in range(4):
            ref, _ = gymnasium.make("BipedalWalkerHardcore-v3").reset(seed=5 + i)
            np.testing.assert_array_equal(obs[i], ref)
        again, _ = ours.reset(seed=5)
        np.testing.assert_array_equal(again, obs)
    finally:
        ours.close()


@pytest.mark.parametrize("task", TASKS)
def test_spaces_match_gymnasium(task):
    ours = envpool_lite.make(task, num_envs=2)
    ref = gymnasium.make(task)
    try:
        assert ours.single_observation_space == ref.observation_space
        assert ours.single_action_space == ref.action_space
        spec = envpool_lite.make_spec(task)
        assert spec.config["max_episode_steps"] == gymnasium.spec(task).max_episode_steps
        assert spec.config["hardcore"] == (task == "BipedalWalkerHardcore-v3")
    finally:
        ours.close()


def test_hardcore_option_on_either_id():
    """hardcore=True on BipedalWalker-v3 is gymnasium's
    make("BipedalWalker-v3", hardcore=True) (1600-step limit)."""
    run_sync("BipedalWalker-v3", [3, 4], 300, ["random", "heuristic"], hardcore=True)
    assert envpool_lite.make_spec("BipedalWalker-v3", hardcore=True).config["max_episode_steps"] == 1600


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"hardcore": "yes"}, TypeError, "'hardcore'"),
        ({"hardcore": 1}, TypeError, "'hardcore'"),
        ({"max_episode_steps": 0}, ValueError, "max_episode_steps"),
        ({"lidar": 3}, TypeError, "unknown option"),
    ],
)
def test_bad_options_raise_naming_the_option(kwargs, error, match):
    with pytest.raises(error, match=match):
        envpool_lite.make("BipedalWalker-v3", num_envs=1, **kwargs)


def test_bad_action_raises_and_the_pool_keeps_stepping():
    ours = envpool_lite.make("BipedalWalker-v3", num_envs=2, seed=9)
    refs = [gymnasium.make("BipedalWalker-v3") for _ in range(2)]
    try:
        obs, _ = ours.reset()
        for i, ref in enumerate(refs):
            np.testing.assert_array_equal(obs[i], ref.reset(seed=9 + i)[0])
        for bad in (np.full((2, 4), np.nan, np.float32), np.zeros((2, 3), np.float32), np.array([[0, 0, 0, np.inf]] * 2, np.float32)):
            with pytest.raises(ValueError):
                ours.step(bad)
        rng = np.random.default_rng(2)
        for t in range(20):  # the bad actions stepped nothing
            actions = rng.uniform(-1, 1, (2, 4)).astype(np.float32)
            out = ours.step(actions)
            for i, ref in enumerate(refs):
                check(out, i, ref.step(actions[i]), f"step {t}")
    finally:
        ours.close()


@pytest.mark.parametrize("task", TASKS)
def test_render_equals_gymnasium(task):
    """Every picture equals gymnasium's render() pixel for pixel: each step of
    the first 60 (one lidar ray per frame, sweeping over 20 frames of 100),
    then every 20th step as the walker walks and the view scrolls (the
    surface widens with it), across auto-resets."""
    pytest.importorskip("pygame")
    refs = run_sync(task, [40, 41], 600, ["heuristic", "random"], render_at=lambda t: t < 60 or t % 20 == 0)
    assert sum(r.frames for r in refs) == 2 * 60 + 2 * 27
    assert max(r.max_scroll for r in refs) > 5.0 and sum(r.episodes for r in refs) > 2
