"""The classic-control envs are bit-exact with gymnasium's.

Each test runs our pool and gymnasium's SyncVectorEnv (NEXT_STEP autoreset,
env i seeded seed + i) side by side on the same actions and requires equal
observations (bit for bit), rewards equal to the float32 of gymnasium's,
and equal terminated / truncated flags, at every step. Actions alternate
between random phases and scripted phases that reach the goal, and each test
checks that it saw the endings it is meant to cover, so none can pass
vacuously.
"""

import gymnasium
import numpy as np
import pytest
import scope
from gymnasium.envs.classic_control import PendulumEnv

import envpool_lite

# gymnasium's passive env checker notes and old-version warnings, not ours.
pytestmark = pytest.mark.usefixtures("quiet_gymnasium")

TASKS = ["CartPole-v0", "CartPole-v1", "Acrobot-v1", "MountainCar-v0", "MountainCarContinuous-v0", "Pendulum-v1"]


def scripted(task, obs):
    """A per-env policy that ends episodes by termination (for the tasks that
    can terminate); continuous actions include out-of-range magnitudes."""
    if task.startswith("CartPole"):  # balance: push toward where the pole falls
        return (3.0 * obs[:, 2] + obs[:, 3] > 0).astype(np.int64)
    if task == "Acrobot-v1":  # pump energy with the second joint's velocity
        return np.where(obs[:, 5] > 0, 2, 0)
    if task == "MountainCar-v0":  # push along the velocity
        return np.where(obs[:, 1] >= 0, 2, 0)
    if task == "MountainCarContinuous-v0":
        scale = np.resize(np.array([1.0, 0.7, 3.0], np.float32), len(obs))
        return (np.where(obs[:, 1] >= 0, 1.0, -1.0) * scale).astype(np.float32)[:, None]
    raise AssertionError(task)


def random_actions(task, n, rng):
    if task.startswith("CartPole"):
        return rng.integers(0, 2, n)
    if task in ("Acrobot-v1", "MountainCar-v0"):
        return rng.integers(0, 3, n)
    bound = 1.0 if task == "MountainCarContinuous-v0" else 2.0
    # In range, out of range (clipped by the env), and the exact edges.
    choice = rng.integers(0, 3, n)
    values = np.where(
        choice == 0,
        rng.uniform(-bound, bound, n),
        np.where(choice == 1, rng.uniform(-3.0, 3.0, n), rng.choice([-3.0, 3.0, -bound, bound, 0.0], n)),
    )
    return values.astype(np.float32)[:, None]


# task: (steps, phase length, scripted phases?, can terminate)
PLANS = {
    "CartPole-v0": (1200, 400, True, True),
    "CartPole-v1": (2000, 600, True, True),
    "Acrobot-v1": (2000, 600, True, True),
    "MountainCar-v0": (2000, 500, True, True),
    "MountainCarContinuous-v0": (3300, 1100, True, True),
    "Pendulum-v1": (1200, 1200, False, False),
}


def run_side_by_side(task, num_envs, seed, steps, policy, env_kwargs=None, seed_list=None):
    """Step ours and gymnasium's vector env together; return (terminations,
    truncations) seen."""
    env_kwargs = env_kwargs or {}
    ours = envpool_lite.make(task, env_type="gymnasium", num_envs=num_envs, seed=seed, **env_kwargs)
    ref = gymnasium.make_vec(task, num_envs=num_envs, vectorization_mode="sync", **env_kwargs)
    try:
        if seed_list is None:
            obs, _ = ours.reset()
            ref_obs, _ = ref.reset(seed=seed)
        else:
            obs, _ = ours.reset(seed=seed_list)
            ref_obs, _ = ref.reset(seed=seed_list)
        assert obs.dtype == np.float32 and obs.shape == ref_obs.shape
        np.testing.assert_array_equal(obs, ref_obs)
        terminations = truncations = 0
        for t in range(steps):
            actions = policy(t, ref_obs)
            obs, rew, term, trunc, info = ours.step(actions)
            ref_obs, ref_rew, ref_term, ref_trunc, _ = ref.step(actions)
            assert rew.dtype == np.float32
            np.testing.assert_array_equal(obs, ref_obs, err_msg=f"{task} step {t}")
            np.testing.assert_array_equal(rew, np.asarray(ref_rew).astype(np.float32), err_msg=f"{task} step {t}")
            np.testing.assert_array_equal(term, ref_term, err_msg=f"{task} step {t}")
            np.testing.assert_array_equal(trunc, ref_trunc, err_msg=f"{task} step {t}")
            terminations += int(np.sum(ref_term))
            truncations += int(np.sum(ref_trunc & ~ref_term))
        return terminations, truncations
    finally:
        ours.close()
        ref.close()


@pytest.mark.parametrize("task", TASKS)
@pytest.mark.parametrize("seed", [0, 12345])
def test_matches_gymnasium(task, seed):
    steps, phase, has_script, can_terminate = PLANS[task]
    rng = np.random.default_rng(seed + 1)
    num_envs = 4

    def policy(t, obs):
        actions = random_actions(task, num_envs, rng)  # drawn every step
        if has_script and (t // phase) % 2 == 1:
            return scripted(task, obs)
        return actions

    terminations, truncations = run_side_by_side(task, num_envs, seed, scope.steps(steps, full=5 * steps), policy)
    assert truncations > 0, "the test never hit the time limit"
    if can_terminate:
        assert terminations > 0, "the test never saw a termination"


@pytest.mark.parametrize(
    "task, env_kwargs",
    [
        ("CartPole-v1", {"sutton_barto_reward": True}),
        ("Pendulum-v1", {"g": 9.81}),
        ("MountainCar-v0", {"goal_velocity": 0.01}),
        ("MountainCarContinuous-v0", {"goal_velocity": 0.005}),
        ("Acrobot-v1", {"max_episode_steps": 120}),
        ("CartPole-v1", {"max_episode_steps": 60}),
    ],
)
def test_options_match_gymnasium(task, env_kwargs):
    rng = np.random.default_rng(3)
    num_envs = 3
    scripted_ok = task != "Pendulum-v1"

    def policy(t, obs):
        actions = random_actions(task, num_envs, rng)
        return scripted(task, obs) if scripted_ok and (t // 300) % 2 == 1 else actions

    terminations, truncations = run_side_by_side(task, num_envs, 7, 1200, policy, env_kwargs)
    assert terminations + truncations > 0


@pytest.mark.parametrize("task", TASKS)
def test_seed_list_matches_gymnasium(task):
    seeds = [7, 100, 0, 2**32 - 1]
    rng = np.random.default_rng(0)
    run_side_by_side(task, len(seeds), 0, 300, lambda t, obs: random_actions(task, len(seeds), rng), seed_list=seeds)


@pytest.mark.parametrize("task", TASKS)
def test_seeds_give_different_starts(task):
    env = envpool_lite.make(task, num_envs=8, seed=5)
    try:
        obs, _ = env.reset()
        assert len({row.tobytes() for row in obs}) == 8  # env i gets seed 5 + i
        again, _ = env.reset(seed=5)
        np.testing.assert_array_equal(again, obs)
        other, _ = env.reset(seed=6)
        np.testing.assert_array_equal(other[:-1], obs[1:])  # seed 6 + i == 5 + (i + 1)
        assert not np.array_equal(other[-1], obs[-1])
        for i, s in enumerate([5, 6, 7]):
            ref, _ = gymnasium.make(task).reset(seed=s)
            np.testing.assert_array_equal(obs[i], ref)
    finally:
        env.close()


@pytest.mark.parametrize("task", TASKS)
def test_spaces_match_gymnasium(task):
    ours = envpool_lite.make(task, num_envs=2)
    ref = gymnasium.make_vec(task, num_envs=2, vectorization_mode="sync")
    try:
        assert ours.single_observation_space == ref.single_observation_space
        assert ours.single_action_space == ref.single_action_space
        assert envpool_lite.make_spec(task).config["max_episode_steps"] == gymnasium.spec(task).max_episode_steps
    finally:
        ours.close()
        ref.close()


def test_invalid_options_are_rejected():
    with pytest.raises(ValueError, match="'g' must be a finite number"):
        envpool_lite.make("Pendulum-v1", num_envs=1, g=float("inf"))
    with pytest.raises(ValueError, match="goal_velocity"):
        envpool_lite.make("MountainCar-v0", num_envs=1, goal_velocity=float("nan"))


class PendulumV0(PendulumEnv):
    """gymnasium's Pendulum-v1 with the one change of EnvPool's Pendulum-v0
    (gym 0.21's order): the angle moves by the speed before it is clipped."""

    def step(self, u):
        th, thdot = self.state
        g, m, l, dt = self.g, self.m, self.l, self.dt  # noqa: E741 (gymnasium's names)
        u = np.clip(u, -self.max_torque, self.max_torque)[0]
        self.last_u = u
        costs = ((th + np.pi) % (2 * np.pi) - np.pi) ** 2 + 0.1 * thdot**2 + 0.001 * (u**2)
        newthdot = thdot + (3 * g / (2 * l) * np.sin(th) + 3.0 / (m * l**2) * u) * dt
        newth = th + newthdot * dt  # v0: before the clip
        newthdot = np.clip(newthdot, -self.max_speed, self.max_speed)
        self.state = np.array([newth, newthdot])
        return self._get_obs(), -costs, False, False, {}


def test_pendulum_v0_matches_its_reference():
    num_envs, seed = 3, 21
    ours = envpool_lite.make("Pendulum-v0", num_envs=num_envs, seed=seed)
    refs = [gymnasium.wrappers.TimeLimit(PendulumV0(), 200) for _ in range(num_envs)]
    try:
        obs, _ = ours.reset()
        for i, ref in enumerate(refs):
            np.testing.assert_array_equal(obs[i], ref.reset(seed=seed + i)[0])
        rng = np.random.default_rng(0)
        clipped_differs = False
        for t in range(199):  # one whole episode: the speed hits its bound
            actions = rng.uniform(-3.0, 3.0, (num_envs, 1)).astype(np.float32)
            obs, rew, term, trunc, _ = ours.step(actions)
            for i, ref in enumerate(refs):
                o, r, te, tr, _ = ref.step(actions[i])
                np.testing.assert_array_equal(obs[i], o, err_msg=f"step {t}")
                assert rew[i] == np.float32(r) and term[i] == te and trunc[i] == tr
            clipped_differs |= bool(np.any(np.abs(obs[:, 2]) == 8.0))
        assert clipped_differs, "the speed never reached its bound, where v0 and v1 differ"
        v1 = envpool_lite.make("Pendulum-v1", num_envs=num_envs, seed=seed)
        v1.reset()
        rng = np.random.default_rng(0)
        v1_obs = [v1.step(rng.uniform(-3.0, 3.0, (num_envs, 1)).astype(np.float32))[0] for _ in range(199)][-1]
        v1.close()
        assert not np.array_equal(v1_obs, obs)
    finally:
        ours.close()
