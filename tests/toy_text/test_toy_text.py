"""The toy-text family: bit-exact with its references, under the seed
convention (env i of a pool seeded s behaves as the reference reset with seed
s + i, then reset without a seed after each episode end).

References: gymnasium 1.4.0's own envs for FrozenLake, Taxi-v4, CliffWalking
and Blackjack (and for the ids gymnasium 1.4 does not register: Taxi-v3 is
gymnasium 1.2's taxi, written below as gymnasium 1.4's TaxiEnv with 1.2's
rain; CliffWalking-v0 and the "tabular/" aliases are the same envs as
CliffWalking-v1 and Blackjack-v1); for EnvPool's NChain and Catch, small
Python references written here from EnvPool's definition (a std::mt19937
seeded with the env's seed and libstdc++'s distributions), and EnvPool 1.2.5
itself when it is installed.

Each alignment run compares, at every step of every env, the observation,
reward, terminated, truncated and every info field the reference gives with
==, through episode ends, auto-resets and a reseeding reset; each checks it
saw the endings (and the random events) it is meant to cover, so none can
pass vacuously.
"""

import math
import warnings

import gymnasium
import numpy as np
import pytest
import scope
from gymnasium.envs.toy_text import TaxiEnv
from gymnasium.envs.toy_text.frozen_lake import generate_random_map
from gymnasium.wrappers import TimeLimit

import envpool_lite
from envpool_lite import families

# gymnasium's passive env checker notes, not ours.
pytestmark = pytest.mark.usefixtures("quiet_gymnasium")

TASKS = [
    "FrozenLake-v1",
    "FrozenLake8x8-v1",
    "Taxi-v3",
    "Taxi-v4",
    "NChain-v0",
    "CliffWalking-v1",
    "tabular/CliffWalking-v0",
    "CliffWalkingSlippery-v1",
    "CliffWalking-v0",
    "Blackjack-v1",
    "tabular/Blackjack-v0",
    "Catch-v0",
]
# The same env under another id, where gymnasium 1.4 lacks the id.
SAME_ENV = {
    "CliffWalking-v0": "CliffWalking-v1",
    "tabular/CliffWalking-v0": "CliffWalking-v1",
    "tabular/Blackjack-v0": "Blackjack-v1",
}
NO_TIME_LIMIT = 2**31 - 1  # EnvPool's "none"


def test_every_toy_text_task_is_covered():
    assert sorted(families.task_ids("toy_text")) == sorted(TASKS)


# --- references -----------------------------------------------------------
class TaxiV3(TaxiEnv):
    """gymnasium 1.2's Taxi-v3: gymnasium 1.4's TaxiEnv with 1.2's rain (its
    lateral moves, which for south were west then east; its wall check, one
    map column for every slide; moving north or south counted as possible
    at the grid's edge; 0.8 / 0.1 / 0.1) and its fickle passenger (0.3)."""

    def __init__(self, render_mode=None, is_rainy=False, fickle_passenger=False):
        super().__init__(render_mode=render_mode, is_rainy=is_rainy, fickle_passenger=fickle_passenger, rainy_probability=0.8, fickle_probability=0.3)

    def _calc_new_position(self, row, col, movement, offset=0):
        new_row = max(0, min(row + movement[0], self.max_row))
        new_col = max(0, min(col + movement[1], self.max_col))
        if self.desc[1 + new_row, 2 * new_col + offset] == b":":
            return new_row, new_col
        return row, col

    def _build_rainy_transitions(self, row, col, pass_idx, dest_idx, action):
        state = self.encode(row, col, pass_idx, dest_idx)
        taxi_loc = left_pos = right_pos = (row, col)
        new_row, new_col, new_pass_idx = row, col, pass_idx
        reward, terminated = -1, False
        moves = {0: ((1, 0), (0, -1), (0, 1)), 1: ((-1, 0), (0, -1), (0, 1)), 2: ((0, 1), (1, 0), (-1, 0)), 3: ((0, -1), (1, 0), (-1, 0))}
        if action in (0, 1) or (action == 2 and self.desc[1 + row, 2 * col + 2] == b":") or (action == 3 and self.desc[1 + row, 2 * col] == b":"):
            dr, dc = moves[action][0]
            new_row = max(0, min(row + dr, self.max_row))
            new_col = max(0, min(col + dc, self.max_col))
            left_pos = self._calc_new_position(row, col, moves[action][1], offset=2)
            right_pos = self._calc_new_position(row, col, moves[action][2])
        elif action == 4:
            new_pass_idx, reward = self._pickup(taxi_loc, new_pass_idx, reward)
        elif action == 5:
            new_pass_idx, reward, terminated = self._dropoff(taxi_loc, new_pass_idx, dest_idx, reward)
        intended = self.encode(new_row, new_col, new_pass_idx, dest_idx)
        if action <= 3:
            for p, (r, c) in ((0.8, (new_row, new_col)), (0.1, left_pos), (0.1, right_pos)):
                self.P[state][action].append((p, self.encode(r, c, new_pass_idx, dest_idx), -1, terminated))
        else:
            self.P[state][action].append((1.0, intended, reward, terminated))


class MT19937:
    """std::mt19937 seeded with one number (init_genrand), the C++ standard's
    generator: 32-bit outputs."""

    def __init__(self, seed):
        self.mt = [seed & 0xFFFFFFFF]
        for i in range(1, 624):
            self.mt.append((1812433253 * (self.mt[-1] ^ (self.mt[-1] >> 30)) + i) & 0xFFFFFFFF)
        self.index = 624

    def __call__(self):
        if self.index == 624:
            for i in range(624):
                y = (self.mt[i] & 0x80000000) | (self.mt[(i + 1) % 624] & 0x7FFFFFFF)
                self.mt[i] = self.mt[(i + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self.index = 0
        y = self.mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def uniform01(self):
        """libstdc++'s uniform_real_distribution<double>(0, 1): two draws."""
        value = (float(self()) + float(self()) * 2.0**32) / 2.0**64
        return math.nextafter(1.0, 0.0) if value >= 1.0 else value

    def uniform_int(self, n):
        """libstdc++'s uniform_int_distribution<int>(0, n - 1) (Lemire)."""
        product = self() * n
        if product & 0xFFFFFFFF < n:
            threshold = (2**32 - n) % n
            while product & 0xFFFFFFFF < threshold:
                product = self() * n
        return product >> 32


def test_mt19937_reference_is_the_standards():
    gen = MT19937(5489)  # the C++ standard: the 10000th output of mt19937()
    values = [gen() for _ in range(10000)]
    assert values[-1] == 4123659995


class NChainReference(gymnasium.Env):
    """EnvPool's NChain-v0: 5 states; action 0 forward (+10 at the end), 1
    back to the start (+2); the action flips with probability 0.2."""

    observation_space = gymnasium.spaces.Discrete(5)
    action_space = gymnasium.spaces.Discrete(2)

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self.gen = MT19937(seed)
        self.s = 0
        return self.s, {}

    def step(self, action):
        if self.gen.uniform01() < 0.2:
            action = 1 - action
        reward = 0.0
        if action:
            reward, self.s = 2.0, 0
        elif self.s < 4:
            self.s += 1
        else:
            reward = 10.0
        return self.s, reward, False, False, {}


class CatchReference(gymnasium.Env):
    """EnvPool's Catch-v0: the ball falls from a random column of the top
    row; the paddle (bottom row) moves by action - 1; +1 / -1 at the bottom."""

    def __init__(self, height=10, width=5):
        self.height, self.width = height, width
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, (height, width), np.float32)
        self.action_space = gymnasium.spaces.Discrete(3)

    def board(self):
        b = np.zeros((self.height, self.width), np.float32)
        b[self.row, self.col] = 1.0
        b[self.height - 1, self.paddle] = 1.0
        return b

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self.gen = MT19937(seed)
        self.row, self.col, self.paddle = 0, self.gen.uniform_int(self.width), self.width // 2
        return self.board(), {}

    def step(self, action):
        self.paddle = min(max(self.paddle + int(action) - 1, 0), self.width - 1)
        self.row += 1
        done = self.row == self.height - 1
        reward = (1.0 if self.col == self.paddle else -1.0) if done else 0.0
        return self.board(), reward, done, False, {}


def reference(task, kwargs, render_mode=None):
    """One reference env of a task with our options."""
    kwargs = dict(kwargs)
    limit = kwargs.pop("max_episode_steps", None)
    if task == "Taxi-v3":
        return TimeLimit(TaxiV3(render_mode=render_mode, **kwargs), limit or 200)
    if task == "NChain-v0":
        return TimeLimit(NChainReference(), limit or 1000)
    if task == "Catch-v0":
        env = CatchReference(**kwargs)
        return TimeLimit(env, limit) if limit else env
    return gymnasium.make(SAME_ENV.get(task, task), render_mode=render_mode, max_episode_steps=limit, **kwargs)


# --- alignment ------------------------------------------------------------
TAXI_MAP = ["+---------+", "|R: | : :G|", "| : | : : |", "| : : : : |", "| | : | : |", "|Y| : |B: |", "+---------+"]
TAXI_LOCS = [(0, 0), (0, 4), (4, 0), (4, 3)]


def taxi_moves(row, col):
    """(action, cell) of the moves the map allows from a cell."""
    if row < 4:
        yield 0, (row + 1, col)
    if row > 0:
        yield 1, (row - 1, col)
    if TAXI_MAP[1 + row][2 * col + 2] == ":":
        yield 2, (row, col + 1)
    if TAXI_MAP[1 + row][2 * col] == ":":
        yield 3, (row, col - 1)


def taxi_distances(target):
    """Moves from every cell to target (breadth-first; moves are symmetric)."""
    dist, frontier = {target: 0}, [target]
    while frontier:
        cell = frontier.pop(0)
        for _, nxt in taxi_moves(*cell):
            if nxt not in dist:
                dist[nxt] = dist[cell] + 1
                frontier.append(nxt)
    return dist


TAXI_DISTANCES = [taxi_distances(loc) for loc in TAXI_LOCS]


def taxi_driver(state):
    """The action that takes the passenger home: drive to it, pick it up,
    drive to the destination, drop it off."""
    dest, state = state % 4, state // 4
    passenger, state = state % 5, state // 5
    cell = (state // 5, state % 5)
    goal = passenger if passenger < 4 else dest
    if cell == TAXI_LOCS[goal]:
        return 4 if passenger < 4 else 5
    dist = TAXI_DISTANCES[goal]
    return min(taxi_moves(*cell), key=lambda move: dist[move[1]])[0]


def act(task, rng, obs, info_row):
    """One env's next action: for Taxi, mostly the driver's (so passengers
    ride, change their minds and get delivered), else a legal move or any
    action; a rightward drift for CliffWalking (so the goal is reached);
    uniform otherwise."""
    if task.startswith("Taxi"):
        u = rng.random()
        if u < 0.6:
            return taxi_driver(int(obs))
        if u < 0.85:
            return int(rng.choice(np.flatnonzero(info_row["action_mask"])))
        return int(rng.integers(6))
    if "CliffWalking" in task:
        return int(rng.choice(4, p=[0.3, 0.45, 0.2, 0.05]))
    n = {"FrozenLake": 4, "NChain": 2, "Blackjack": 2, "Catch": 3}[next(k for k in ("FrozenLake", "NChain", "Blackjack", "Catch") if k in task)]
    return int(rng.integers(n))


def row_of(info, i):
    return {k: v[i] for k, v in info.items() if k != "players"}


class Tally:
    def __init__(self):
        self.terminated = self.truncated = self.fickle = 0


def check_row(task, ours, i, ref_out, tally, where):
    """Env row i of our batch (obs, rew, term, trunc, info) against the
    reference's (obs, reward, terminated, truncated, info)."""
    obs, rew, term, trunc, info = ours
    r_obs, r_rew, r_term, r_trunc, r_info = ref_out
    np.testing.assert_array_equal(obs[i], np.asarray(r_obs), err_msg=f"{task} obs {where}")
    assert rew[i] == r_rew, f"{task} reward {where}: {rew[i]!r} != {r_rew!r}"
    assert term[i] == r_term and trunc[i] == r_trunc, f"{task} terminated/truncated {where}"
    for key, value in r_info.items():
        np.testing.assert_array_equal(info[key][i], np.asarray(value), err_msg=f"{task} info[{key!r}] {where}")
    tally.terminated += bool(r_term)
    tally.truncated += bool(r_trunc and not r_term)


def check_dtypes(task, kwargs, obs, rew, info):
    assert obs.dtype == (np.float32 if task == "Catch-v0" else np.int64)
    if task.startswith("FrozenLake") and any(float(np.float32(v)) != v for v in kwargs.get("reward_schedule", ())):
        assert rew.dtype == np.float64  # a schedule float32 cannot hold
    else:
        assert rew.dtype == np.float32
    if "prob" in info:
        assert info["prob"].dtype == np.float64
    if "action_mask" in info:
        assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape[1:] == (6,)


def fickle_fired(env):
    """Whether the reference's step just changed its passenger's mind."""
    inner = env.unwrapped
    return getattr(inner, "fickle_passenger", False) and not inner.fickle_step


def run_sync(task, kwargs, num_envs, seed, steps, reseed_at=None):
    """Our sync pool against one reference per env; returns the tally."""
    ours = envpool_lite.make(task, env_type="gymnasium", num_envs=num_envs, seed=seed, **kwargs)
    refs = [reference(task, kwargs) for _ in range(num_envs)]
    rngs = [np.random.default_rng(1000 + i) for i in range(num_envs)]
    tally = Tally()
    try:
        obs, info = ours.reset()
        check_dtypes(task, kwargs, obs, np.zeros(0, ours.spec.reward_dtype), info)
        zeros = np.zeros(num_envs)
        for i, ref in enumerate(refs):
            r_obs, r_info = ref.reset(seed=seed + i)
            check_row(task, (obs, zeros, zeros, zeros, info), i, (r_obs, 0, False, False, r_info), tally, "at reset")
        rows = [row_of(info, i) for i in range(num_envs)]
        done = [False] * num_envs
        for t in range(steps):
            if t == reseed_at:  # reset(seed=...) reseeds every env: seed + i
                obs, info = ours.reset(seed=seed + 100)
                for i, ref in enumerate(refs):
                    r_obs, r_info = ref.reset(seed=seed + 100 + i)
                    check_row(task, (obs, zeros, zeros, zeros, info), i, (r_obs, 0, False, False, r_info), tally, f"at the reseed, step {t}")
                rows = [row_of(info, i) for i in range(num_envs)]
                done = [False] * num_envs
            actions = np.array([act(task, rngs[i], obs[i], rows[i]) for i in range(num_envs)])
            out = ours.step(actions)
            check_dtypes(task, kwargs, out[0], out[1], out[4])
            for i, ref in enumerate(refs):
                if done[i]:  # NEXT_STEP: this step resets the env, no seed
                    r_obs, r_info = ref.reset()
                    ref_out = (r_obs, 0, False, False, r_info)
                else:
                    was_fickle = getattr(ref.unwrapped, "fickle_step", False)
                    ref_out = ref.step(int(actions[i]))
                    tally.fickle += was_fickle and fickle_fired(ref)
                check_row(task, out, i, ref_out, tally, f"env {i} step {t}")
                done[i] = bool(ref_out[2] or ref_out[3])
            obs, rows = out[0], [row_of(out[4], i) for i in range(num_envs)]
        return tally
    finally:
        ours.close()


# (task, options, steps, endings the run must see: "term", "trunc", "fickle")
CASES = [
    ("FrozenLake-v1", {}, 300, "term"),
    ("FrozenLake-v1", {"is_slippery": False}, 300, "term"),
    ("FrozenLake8x8-v1", {}, 400, "term"),
    ("FrozenLake-v1", {"success_rate": 0.75, "reward_schedule": (1, -0.1, -0.01), "max_episode_steps": 20}, 300, "term trunc"),
    ("FrozenLake-v1", {"desc": ["SFFH", "FSFF", "HFGS"], "reward_schedule": (2.5, -1, 0.5)}, 300, "term"),
    ("FrozenLake-v1", {"desc": generate_random_map(size=6, p=0.85, seed=3), "is_slippery": False}, 300, "term"),
    ("FrozenLake8x8-v1", {"success_rate": 1.0}, 300, "term"),
    ("Taxi-v4", {}, 500, "term"),
    ("Taxi-v4", {"is_rainy": True, "max_episode_steps": 25}, 500, "term trunc"),
    ("Taxi-v4", {"fickle_passenger": True}, 600, "term fickle"),
    ("Taxi-v4", {"is_rainy": True, "fickle_passenger": True, "rainy_probability": 0.6, "fickle_probability": 0.9}, 600, "term fickle"),
    ("Taxi-v3", {"max_episode_steps": 25}, 500, "term trunc"),
    ("Taxi-v3", {"is_rainy": True, "fickle_passenger": True}, 700, "term fickle"),
    ("CliffWalking-v1", {"max_episode_steps": 60}, 300, "term trunc"),
    ("CliffWalkingSlippery-v1", {"max_episode_steps": 60}, 300, "term trunc"),
    ("CliffWalking-v0", {"is_slippery": True, "max_episode_steps": 120}, 400, "term trunc"),
    ("tabular/CliffWalking-v0", {}, 300, "term"),
    ("Blackjack-v1", {}, 300, "term"),
    ("Blackjack-v1", {"sab": False}, 300, "term"),
    ("Blackjack-v1", {"sab": False, "natural": True}, 300, "term"),
    ("tabular/Blackjack-v0", {"natural": True}, 300, "term"),
    ("NChain-v0", {}, 1010, "trunc"),
    ("NChain-v0", {"max_episode_steps": 37}, 300, "trunc"),
    ("Catch-v0", {}, 300, "term"),
    ("Catch-v0", {"height": 4, "width": 9}, 300, "term"),
]


@pytest.mark.parametrize("task, kwargs, steps, must_see", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_matches_reference(task, kwargs, steps, must_see):
    # Reseed two thirds in (NChain's 1000-step episode: after it ends).
    reseed_at = 1005 if steps > 1000 else steps * 2 // 3
    tally = run_sync(task, kwargs, num_envs=3, seed=11, steps=scope.steps(steps, full=5 * steps), reseed_at=reseed_at)
    if "term" in must_see:
        assert tally.terminated > 0, "the run never saw a termination"
    if "trunc" in must_see:
        assert tally.truncated > 0, "the run never hit the time limit"
    if "fickle" in must_see:
        assert tally.fickle > 0, "the passenger never changed its mind"


def test_blackjack_natural_rules_are_seen():
    """Naturals are rare (about 1 hand in 21): a longer run, with sab and
    with natural, must reach the rules that pay them."""
    for kwargs in ({"sab": True}, {"sab": False, "natural": True}):
        ours = envpool_lite.make("Blackjack-v1", num_envs=8, seed=3, **kwargs)
        refs = [reference("Blackjack-v1", kwargs) for _ in range(8)]
        naturals = 0
        try:
            obs, _ = ours.reset()
            for i, ref in enumerate(refs):
                assert tuple(obs[i]) == ref.reset(seed=3 + i)[0]
            for _ in range(150):  # stick at once: every step ends a hand
                obs, rew, term, _, _ = ours.step(np.zeros(8, np.int32))
                for i, ref in enumerate(refs):
                    if not term[i]:  # the auto-reset step
                        assert tuple(obs[i]) == ref.reset()[0]
                        continue
                    inner = ref.unwrapped
                    natural = sorted(inner.player) == [1, 10]
                    _, r, te, _, _ = ref.step(0)
                    assert te and rew[i] == r
                    naturals += natural and r in (1.0, 1.5)
        finally:
            ours.close()
        assert naturals > 0


@pytest.mark.parametrize(
    "task, kwargs",
    [
        ("FrozenLake-v1", {}),
        ("Taxi-v4", {"is_rainy": True, "fickle_passenger": True}),
        ("Blackjack-v1", {}),
        ("CliffWalkingSlippery-v1", {"max_episode_steps": 40}),
        ("Catch-v0", {}),
        ("NChain-v0", {"max_episode_steps": 25}),
    ],
)
def test_async_pool_matches_reference_per_env(task, kwargs):
    """batch_size < num_envs: each batch holds the envs that finished first;
    every env still follows its own reference, matched by env_id."""
    num_envs, batch, seed = 6, 2, 5
    ours = envpool_lite.make(task, env_type="gymnasium", num_envs=num_envs, batch_size=batch, num_threads=2, seed=seed, **kwargs)
    refs = [reference(task, kwargs) for _ in range(num_envs)]
    rngs = [np.random.default_rng(50 + i) for i in range(num_envs)]
    tally = Tally()
    started, done, steps = [False] * num_envs, [False] * num_envs, [0] * num_envs
    last_action = {}
    try:
        ours.async_reset()
        for _ in range(600):
            out = ours.recv()
            ids = [int(i) for i in out[4]["env_id"]]
            assert len(ids) == batch
            for row, i in enumerate(ids):
                if not started[i] or done[i]:
                    r_obs, r_info = refs[i].reset(seed=seed + i) if not started[i] else refs[i].reset()
                    ref_out = (r_obs, 0, False, False, r_info)
                    started[i] = True
                else:
                    ref_out = refs[i].step(last_action[i])
                check_row(task, out, row, ref_out, tally, f"env {i} step {steps[i]}")
                done[i] = bool(ref_out[2] or ref_out[3])
                steps[i] += 1
            for row, i in enumerate(ids):
                last_action[i] = act(task, rngs[i], out[0][row], row_of(out[4], row))
            ours.send(np.array([last_action[i] for i in ids]), ids)
        assert all(s > 20 for s in steps), steps
        assert tally.terminated + tally.truncated > 0
    finally:
        ours.close()


# --- seeds, spaces, faces ---------------------------------------------------
@pytest.mark.parametrize("task", TASKS)
def test_spaces(task):
    spec = envpool_lite.make_spec(task)
    if task == "Blackjack-v1" or task == "tabular/Blackjack-v0":
        # gymnasium's Tuple(Discrete(32), Discrete(11), Discrete(2)) as one array
        space = spec.observation_space
        assert isinstance(space, gymnasium.spaces.Box) and space.shape == (3,) and space.dtype == np.int64
        assert space.low.tolist() == [0, 0, 0] and space.high.tolist() == [31, 10, 1]
    elif task == "Catch-v0":
        assert spec.observation_space == gymnasium.spaces.Box(0.0, 1.0, (10, 5), np.float32)
    else:
        ref = reference(task, {})
        assert spec.observation_space == ref.observation_space and spec.observation_space.dtype == np.int64
        assert spec.action_space == ref.action_space
    gym_id = SAME_ENV.get(task, {"Taxi-v3": None, "NChain-v0": None, "Catch-v0": None}.get(task, task))
    if gym_id is not None:
        limit = gymnasium.spec(gym_id).max_episode_steps
        assert spec.config["max_episode_steps"] == (limit or NO_TIME_LIMIT)
    # Options and defaults are gymnasium's (Blackjack-v1: sab=True, natural=False).
    if gym_id is not None:
        for name, value in gymnasium.spec(gym_id).kwargs.items():
            assert spec.config[name] == value, name


def test_defaults_follow_gymnasium_and_envpool():
    assert envpool_lite.make_spec("Taxi-v3").config["max_episode_steps"] == 200
    assert envpool_lite.make_spec("NChain-v0").config["max_episode_steps"] == 1000
    assert envpool_lite.make_spec("Catch-v0").config["max_episode_steps"] == NO_TIME_LIMIT
    config = envpool_lite.make_spec("FrozenLake-v1").config
    assert (config["map_name"], config["is_slippery"], config["success_rate"], config["reward_schedule"]) == ("4x4", True, 1.0 / 3.0, (1.0, 0.0, 0.0))
    config = envpool_lite.make_spec("Taxi-v4").config
    assert (config["is_rainy"], config["fickle_passenger"], config["rainy_probability"], config["fickle_probability"]) == (False, False, 0.8, 0.3)
    assert "rainy_probability" not in envpool_lite.make_spec("Taxi-v3").config
    assert envpool_lite.make_spec("CliffWalkingSlippery-v1").config["is_slippery"] is True


def test_reward_dtype_follows_the_reward_schedule():
    assert envpool_lite.make_spec("FrozenLake-v1").reward_dtype == np.float32
    assert envpool_lite.make_spec("FrozenLake-v1", reward_schedule=(2, -1, 0.25)).reward_dtype == np.float32
    assert envpool_lite.make_spec("FrozenLake-v1", reward_schedule=(1, 0, -0.1)).reward_dtype == np.float64


@pytest.mark.parametrize(
    "desc",
    [
        ["SFFF", "FHFH", "FFFH", "HFFG"],
        [list("SFFF"), list("FHFH"), list("FFFH"), list("HFFG")],
        [b"SFFF", b"FHFH", b"FFFH", b"HFFG"],
        np.asarray(["SFFF", "FHFH", "FFFH", "HFFG"], dtype="c"),
        np.array([b"SFFF", b"FHFH", b"FFFH", b"HFFG"]),
        np.array(["SFFF", "FHFH", "FFFH", "HFFG"]),
    ],
)
def test_desc_forms_gymnasium_accepts(desc):
    spec = envpool_lite.make_spec("FrozenLake-v1", desc=desc, map_name=None)
    assert spec.config["desc"] == ("SFFF", "FHFH", "FFFH", "HFFG")
    assert envpool_lite.make_spec("FrozenLake-v1", desc=None).config["desc"] == ()


def test_faces_give_the_same_batch():
    """gym and dm_env faces: the same observations and rewards (dm_env:
    reward and discount per its spec)."""
    kwargs = {"num_envs": 3, "seed": 4, "is_rainy": True}
    gymn = envpool_lite.make("Taxi-v4", env_type="gymnasium", **kwargs)
    gym = envpool_lite.make("Taxi-v4", env_type="gym", **kwargs)
    dm = envpool_lite.make("Taxi-v4", env_type="dm", **kwargs)
    try:
        obs_a = gymn.reset()[0]
        obs_b = gym.reset()
        obs_b = obs_b[0] if isinstance(obs_b, tuple) else obs_b
        ts = dm.reset()
        np.testing.assert_array_equal(obs_a, obs_b)
        np.testing.assert_array_equal(obs_a, ts.observation.obs)
        assert ts.observation.action_mask.dtype == np.int8
        actions = np.array([0, 2, 4])
        a, b, c = gymn.step(actions), gym.step(actions), dm.step(actions)
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[0], c.observation.obs)
        np.testing.assert_array_equal(a[1], c.reward)
    finally:
        gymn.close()
        gym.close()
        dm.close()


# --- EnvPool's own envs against EnvPool -------------------------------------
@pytest.mark.parametrize("task, kwargs", [("NChain-v0", {}), ("Catch-v0", {}), ("Catch-v0", {"height": 7, "width": 13}), ("Catch-v0", {"width": 1})])
@pytest.mark.parametrize("seed", [0, 2**31 - 10])
def test_nchain_catch_match_envpool(task, kwargs, seed):
    """Our env seeded s draws what EnvPool 1.2.5's env seeded s draws (its
    NChain truncates at 1000 steps, as ours)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        envpool = pytest.importorskip("envpool")
        theirs = envpool.make_gymnasium(task, num_envs=3, seed=seed, **kwargs)
    ours = envpool_lite.make(task, env_type="gymnasium", num_envs=3, seed=seed, **kwargs)
    try:
        np.testing.assert_array_equal(ours.reset()[0], theirs.reset()[0])
        rng = np.random.default_rng(seed % 1000)
        ends = 0
        for t in range(1100 if task == "NChain-v0" else 400):
            actions = rng.integers(0, ours.single_action_space.n, 3).astype(np.int32)
            a, b = ours.step(actions), theirs.step(actions)
            for k in range(4):
                np.testing.assert_array_equal(a[k], b[k], err_msg=f"{task} field {k} step {t}")
            ends += int(np.sum(a[2] | a[3]))
        assert ends > 0
    finally:
        ours.close()
        theirs.close()


# --- render -----------------------------------------------------------------
RENDERED = [
    ("FrozenLake-v1", {}),
    ("FrozenLake8x8-v1", {}),
    ("FrozenLake-v1", {"desc": ["SFFH", "FSFF", "HFGS"]}),
    ("Taxi-v4", {"is_rainy": True, "fickle_passenger": True}),
    ("Taxi-v3", {}),
    ("CliffWalkingSlippery-v1", {"max_episode_steps": 15}),
    ("tabular/CliffWalking-v0", {}),
    ("Blackjack-v1", {}),
    ("tabular/Blackjack-v0", {}),
]


@pytest.mark.parametrize("task, kwargs", RENDERED)
def test_render_equals_gymnasium(task, kwargs):
    """Every env's picture equals the reference env's own render(), pixel for
    pixel, at reset and after each step (rendered every step, as a video
    records: Taxi's orientation is the last move's)."""
    pytest.importorskip("pygame")
    n, seed = 2, 8
    steps = 12 if task == "FrozenLake8x8-v1" else 30
    ours = envpool_lite.make(task, num_envs=n, seed=seed, render_mode="rgb_array", **kwargs)
    refs = [reference(task, kwargs, render_mode="rgb_array") for _ in range(n)]
    rngs = [np.random.default_rng(i) for i in range(n)]
    try:
        obs, info = ours.reset()
        for i, ref in enumerate(refs):
            ref.reset(seed=seed + i)
        done = [False] * n
        seen = set()
        for t in range(steps):
            frames = ours.render()
            for i, ref in enumerate(refs):
                expected = ref.render()
                assert frames[i].shape == expected.shape and frames[i].dtype == np.uint8
                np.testing.assert_array_equal(frames[i], expected, err_msg=f"{task} env {i} step {t}")
                inner = ref.unwrapped
                if task.endswith("Blackjack-v1") or task.endswith("Blackjack-v0"):
                    seen.add(inner.dealer_top_card_value_str)
            np.testing.assert_array_equal(ours.render(1)[0], frames[1])  # one env by id
            actions = np.array([act(task, rngs[i], obs[i], row_of(info, i)) for i in range(n)])
            obs, _, term, trunc, info = ours.step(actions)
            for i, ref in enumerate(refs):
                if done[i]:
                    ref.reset()
                else:
                    ref.step(int(actions[i]))
            done = list(term | trunc)
        if "Blackjack" in task:
            assert seen & {"J", "Q", "K"} and "A" in seen, seen  # the drawn face and an ace were drawn
    finally:
        ours.close()
        for ref in refs:
            ref.close()


def test_catch_render_is_its_board_scaled_up():
    ours = envpool_lite.make("Catch-v0", num_envs=2, seed=1, render_mode="rgb_array", height=6, width=4)
    try:
        obs, _ = ours.reset()
        for _ in range(8):
            frames = ours.render()
            assert frames.shape == (2, 6 * 32, 4 * 32, 3) and frames.dtype == np.uint8
            for i in range(2):
                board = np.kron(obs[i], np.ones((32, 32))).astype(np.uint8) * 255
                np.testing.assert_array_equal(frames[i], np.repeat(board[..., None], 3, axis=2))
            obs = ours.step(np.array([0, 2]))[0]
    finally:
        ours.close()


def test_nchain_cannot_be_rendered():
    with pytest.raises(ValueError, match="NChain-v0 cannot be rendered"):
        envpool_lite.make("NChain-v0", render_mode="rgb_array")


# --- bad input ---------------------------------------------------------------
@pytest.mark.parametrize(
    "task, kwargs, error, match",
    [
        ("FrozenLake-v1", {"desc": ["SFF", "FG"]}, ValueError, "'desc' must be rectangular"),
        ("FrozenLake-v1", {"desc": ["FFF", "FFG"]}, ValueError, "'desc' has no start tile 'S'"),
        ("FrozenLake-v1", {"desc": ["SFF", "FHF"]}, ValueError, "'desc' has no goal tile 'G'"),
        ("FrozenLake-v1", {"desc": ["SXF", "FFG"]}, ValueError, "'desc' holds 'X' at row 0, column 1"),
        ("FrozenLake-v1", {"desc": ["sfg"]}, ValueError, "'desc' holds 's'"),
        ("FrozenLake-v1", {"desc": []}, ValueError, "'desc' must have at least one row"),
        ("FrozenLake-v1", {"desc": ["", ""]}, ValueError, "'desc': row 0 is empty"),
        ("FrozenLake-v1", {"desc": "SFFG"}, TypeError, "'desc' must be a list of rows"),
        ("FrozenLake-v1", {"desc": [["S", "FF"], ["F", "G"]]}, TypeError, "'desc' row 0"),
        ("FrozenLake-v1", {"desc": [1, 2]}, TypeError, "'desc' row 0"),
        ("FrozenLake-v1", {"map_name": "5x5"}, ValueError, "'map_name' must be '4x4' or '8x8'"),
        ("FrozenLake-v1", {"map_name": None}, ValueError, r"map_name=None.*generate_random_map\(size"),
        ("FrozenLake-v1", {"map_name": None, "desc": None}, ValueError, "generate_random_map"),
        ("FrozenLake-v1", {"success_rate": 1.5}, ValueError, r"'success_rate' must be in \[0, 1\]"),
        ("FrozenLake-v1", {"success_rate": -0.1}, ValueError, "'success_rate'"),
        ("FrozenLake-v1", {"success_rate": float("nan")}, ValueError, "'success_rate'"),
        ("FrozenLake-v1", {"reward_schedule": (1, 0)}, TypeError, "'reward_schedule' must be a tuple of 3 numbers"),
        ("FrozenLake-v1", {"reward_schedule": (1, 0, 0, 0)}, TypeError, "'reward_schedule'"),
        ("FrozenLake-v1", {"reward_schedule": (1, 0, float("inf"))}, ValueError, "'reward_schedule' must be 3 finite numbers"),
        ("FrozenLake-v1", {"reward_schedule": "100"}, TypeError, "'reward_schedule'"),
        ("FrozenLake-v1", {"is_slippery": "yes"}, TypeError, "'is_slippery'"),
        ("Taxi-v4", {"rainy_probability": -0.1}, ValueError, r"'rainy_probability' must be in \[0, 1\]"),
        ("Taxi-v4", {"fickle_probability": 2}, ValueError, r"'fickle_probability' must be in \[0, 1\]"),
        ("Taxi-v4", {"rainy_probability": float("nan")}, ValueError, "'rainy_probability'"),
        ("Taxi-v3", {"rainy_probability": 0.5}, TypeError, "'rainy_probability' is Taxi-v4's"),
        ("Taxi-v3", {"fickle_probability": 0.5}, TypeError, "'fickle_probability' is Taxi-v4's"),
        ("Taxi-v4", {"is_rainy": 1}, TypeError, "'is_rainy'"),
        ("CliffWalking-v1", {"is_slippery": "no"}, TypeError, "'is_slippery'"),
        ("Blackjack-v1", {"natural": 1}, TypeError, "'natural'"),
        ("Blackjack-v1", {"sab": None}, TypeError, "'sab'"),
        ("Catch-v0", {"height": 1}, ValueError, r"'height' must be in \[2, "),
        ("Catch-v0", {"width": 0}, ValueError, r"'width' must be in \[1, "),
        ("Catch-v0", {"height": 100000, "width": 100000}, ValueError, "'height' x 'width'"),
        ("NChain-v0", {"max_episode_steps": 0}, ValueError, "max_episode_steps"),
        ("NChain-v0", {"n": 3}, TypeError, "unknown option"),
    ],
)
def test_bad_options_raise_naming_the_option(task, kwargs, error, match):
    with pytest.raises(error, match=match):
        envpool_lite.make(task, num_envs=1, **kwargs)


def test_map_name_is_ignored_with_a_desc_as_in_gymnasium():
    spec = envpool_lite.make_spec("FrozenLake-v1", desc=["SG"], map_name="anything")
    assert spec.observation_space == gymnasium.spaces.Discrete(2)


@pytest.mark.parametrize("task", ["Taxi-v4", "FrozenLake-v1", "Blackjack-v1"])
def test_bad_action_raises_and_the_pool_keeps_stepping(task):
    ours = envpool_lite.make(task, num_envs=2, seed=9)
    refs = [reference(task, {}) for _ in range(2)]
    try:
        obs, _ = ours.reset()
        for i, ref in enumerate(refs):
            np.testing.assert_array_equal(obs[i], np.asarray(ref.reset(seed=9 + i)[0]))
        n = ours.single_action_space.n
        for bad in ([n, 0], [0, -1], [0.5, 0]):
            with pytest.raises(ValueError):
                ours.step(np.array(bad))
        for t in range(5):  # the bad actions stepped nothing
            out = ours.step(np.array([1, 0]))
            for i, ref in enumerate(refs):
                r = ref.step([1, 0][i])
                np.testing.assert_array_equal(out[0][i], np.asarray(r[0]), err_msg=f"step {t}")
                assert out[1][i] == r[1]
                if r[2] or r[3]:
                    return
    finally:
        ours.close()


def test_q_learning_through_gymnasium_wrappers_solves_frozen_lake():
    """Code none of us wrote: gymnasium's RecordEpisodeStatistics vector
    wrapper around a pool, and tabular Q-learning on its batches (NEXT_STEP
    autoreset: the step after an episode's end is its reset, not learned
    from). Deterministic FrozenLake is solved: the last 50 episodes' mean
    return (the wrapper's) is at least 0.8 (0.94 here, with 5% exploration)."""
    n = 16
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(envpool_lite.make("FrozenLake-v1", num_envs=n, seed=0, is_slippery=False))
    q = np.zeros((16, 4))
    rng = np.random.default_rng(0)
    obs, _ = env.reset()
    returns: list[float] = []
    after_end = np.zeros(n, bool)
    for step in range(3000):
        explore = rng.random(n) < max(0.05, 1 - step / 1500)
        act = np.where(explore, rng.integers(0, 4, n), np.argmax(q[obs] + rng.random((n, 4)) * 1e-6, axis=1))
        next_obs, reward, terminated, truncated, info = env.step(act)
        learn = ~after_end
        target = reward + 0.99 * q[next_obs].max(1) * (1 - terminated)
        q[obs[learn], act[learn]] += 0.5 * (target[learn] - q[obs[learn], act[learn]])
        after_end = terminated | truncated
        if "episode" in info:
            returns += info["episode"]["r"][info["_episode"]].tolist()
        obs = next_obs
    env.close()
    assert len(returns) > 1000
    assert np.mean(returns[-50:]) >= 0.8, np.mean(returns[-50:])
