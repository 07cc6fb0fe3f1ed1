"""LunarLander: bit-exact with gymnasium 1.4.0's LunarLander-v3 (the box2d
2.3.10 wheel), under the seed convention (env i of a pool seeded s behaves
as gymnasium's env reset with seed s + i, then reset without a seed after
each episode end).

gymnasium 1.4 registers only the v3 ids; EnvPool's LunarLander-v2 and
LunarLanderContinuous-v2 run the same env, so their reference is v3.

Each alignment run compares, at every step of every env, the observation,
reward (float64, with ==), terminated and truncated, through landings (the
lander falls asleep: +100), crashes and flights out of the screen (-100),
time limits and auto-resets, and checks it saw the endings it is meant to
cover, so none can pass vacuously. Frames are compared pixel for pixel with
gymnasium's render(), particles included.
"""

import gymnasium
import numpy as np
import pytest
import scope
from gymnasium.envs.box2d.lunar_lander import heuristic

import envpool_lite

# gymnasium's passive env checker notes, not ours.
pytestmark = pytest.mark.usefixtures("quiet_gymnasium")

TASKS = ["LunarLander-v2", "LunarLander-v3", "LunarLanderContinuous-v2", "LunarLanderContinuous-v3"]


def reference(task, kwargs=None, **extra):
    """gymnasium's env of the task (v3 for EnvPool's v2 ids)."""
    return gymnasium.make(task.replace("-v2", "-v3"), **(kwargs or {}), **extra)


def is_continuous(task, kwargs=None):
    return "Continuous" in task or bool((kwargs or {}).get("continuous"))


class Pilot:
    """Per-env actions: each episode picks a style (land with gymnasium's
    heuristic and a little noise; random actions, which crash; or fire one
    side engine, which flies off the screen), so that every ending is
    reached."""

    def __init__(self, continuous, seed, n):
        self.continuous = continuous
        self.rng = np.random.default_rng(seed)
        self.styles = [self.new_style() for _ in range(n)]

    def new_style(self):
        return ["land", "land", "random", "drift"][int(self.rng.integers(4))]

    def episode_ended(self, i):
        self.styles[i] = self.new_style()

    def act(self, i, ref_env, obs):
        style, rng = self.styles[i], self.rng
        if style == "land" and rng.random() < 0.9:
            a = heuristic(ref_env.unwrapped, obs)
        elif style == "drift" and rng.random() < 0.7:
            a = np.array([0.3, 0.9]) if self.continuous else 3
        elif self.continuous:
            # In range, out of range (clipped by the env) and the edges.
            a = rng.choice([rng.uniform(-1, 1, 2), rng.uniform(-2, 2, 2), rng.choice([-1.0, -0.5, 0.0, 0.5, 1.0], 2)])
        else:
            a = int(rng.integers(4))
        return np.asarray(a, np.float32) if self.continuous else np.int32(a)


class Tally:
    def __init__(self):
        self.landed = self.crashed = self.truncated = 0

    def add(self, reward, terminated, truncated):
        if terminated:
            if reward == 100:
                self.landed += 1
            else:
                assert reward == -100
                self.crashed += 1
        elif truncated:
            self.truncated += 1


def check_step(ours_out, row, ref_out, where):
    obs, rew, term, trunc = ours_out[:4]
    r_obs, r_rew, r_term, r_trunc = ref_out[:4]
    np.testing.assert_array_equal(obs[row], r_obs, err_msg=where)
    assert rew[row] == r_rew, (where, rew[row], r_rew)
    assert term[row] == r_term and trunc[row] == r_trunc, where


def run_sync(task, kwargs, num_envs, seed, steps, pilot_seed=0):
    """Our sync pool against gymnasium's envs, step by step (NEXT_STEP
    auto-reset: the step after an episode's end is the reset)."""
    ours = envpool_lite.make(task, env_type="gymnasium", num_envs=num_envs, seed=seed, **kwargs)
    refs = [reference(task, kwargs) for _ in range(num_envs)]
    pilot = Pilot(is_continuous(task, kwargs), pilot_seed, num_envs)
    tally = Tally()
    try:
        obs, _ = ours.reset()
        assert obs.dtype == np.float32 and obs.shape == (num_envs, 8)
        r_obs = [ref.reset(seed=seed + i)[0] for i, ref in enumerate(refs)]
        np.testing.assert_array_equal(obs, np.array(r_obs))
        done = [False] * num_envs
        for t in range(steps):
            actions = np.array([pilot.act(i, refs[i], r_obs[i]) for i in range(num_envs)])
            out = ours.step(actions)
            assert out[1].dtype == np.float64
            for i, ref in enumerate(refs):
                if done[i]:
                    ref_out = (ref.reset()[0], 0.0, False, False)
                    pilot.episode_ended(i)
                else:
                    ref_out = ref.step(actions[i])
                    tally.add(*ref_out[1:4])
                check_step(out, i, ref_out, f"{task} {kwargs} env {i} step {t}")
                r_obs[i] = ref_out[0]
                done[i] = bool(ref_out[2] or ref_out[3])
        return tally
    finally:
        ours.close()
        for ref in refs:
            ref.close()


@pytest.mark.parametrize("task", TASKS)
def test_matches_gymnasium(task):
    tally = run_sync(task, {}, num_envs=3, seed=17 + 100 * TASKS.index(task), steps=scope.steps(1200, full=6000))
    assert tally.landed > 0, "no landing (the lander never fell asleep)"
    assert tally.crashed > 0, "no crash"


@pytest.mark.parametrize(
    "task, kwargs",
    [
        # The wind (v3: its offsets drawn at every reset) and turbulence.
        ("LunarLander-v3", {"enable_wind": True, "wind_power": 20.0, "turbulence_power": 2.0, "max_episode_steps": 300}),
        ("LunarLanderContinuous-v3", {"enable_wind": True, "gravity": -11.5, "turbulence_power": 0.7, "max_episode_steps": 300}),
        # A lighter moon, and the continuous lander under the discrete id.
        ("LunarLander-v2", {"gravity": -3.0, "max_episode_steps": 150}),
        ("LunarLander-v3", {"continuous": True, "gravity": -0.5, "enable_wind": True, "wind_power": 0.0, "max_episode_steps": 120}),
    ],
)
def test_options_match_gymnasium(task, kwargs):
    tally = run_sync(task, kwargs, num_envs=3, seed=5, steps=500, pilot_seed=1)
    assert tally.truncated > 0, "the time limit never truncated"
    assert tally.landed + tally.crashed > 0


def test_async_pool_matches_gymnasium_per_env():
    """batch_size < num_envs: each batch holds the envs that finished first;
    every env still follows its own reference, matched by env_id."""
    task, kwargs = "LunarLanderContinuous-v3", {"enable_wind": True, "max_episode_steps": 200}
    num_envs, batch, seed = 5, 2, 40
    ours = envpool_lite.make(task, env_type="gymnasium", num_envs=num_envs, batch_size=batch, num_threads=2, seed=seed, **kwargs)
    refs = [reference(task, kwargs) for _ in range(num_envs)]
    pilot = Pilot(True, 3, num_envs)
    tally = Tally()
    started, done, steps = [False] * num_envs, [False] * num_envs, [0] * num_envs
    last_obs, last_action = {}, {}
    try:
        ours.async_reset()
        for _ in range(900):
            out = ours.recv()
            ids = [int(i) for i in out[4]["env_id"]]
            assert len(ids) == batch
            for row, i in enumerate(ids):
                if not started[i] or done[i]:
                    r_obs = refs[i].reset(seed=seed + i)[0] if not started[i] else refs[i].reset()[0]
                    ref_out = (r_obs, 0.0, False, False)
                    if started[i]:
                        pilot.episode_ended(i)
                    started[i] = True
                else:
                    ref_out = refs[i].step(last_action[i])
                    tally.add(*ref_out[1:4])
                check_step(out, row, ref_out, f"env {i} step {steps[i]}")
                done[i] = bool(ref_out[2] or ref_out[3])
                last_obs[i] = ref_out[0]
                steps[i] += 1
            for i in ids:
                last_action[i] = pilot.act(i, refs[i], last_obs[i])
            ours.send(np.array([last_action[i] for i in ids]), ids)
        assert all(s > 100 for s in steps), steps
        assert tally.truncated > 0 and tally.landed + tally.crashed > 0
    finally:
        ours.close()
        for ref in refs:
            ref.close()


@pytest.mark.parametrize("task", TASKS)
def test_spaces_and_time_limit(task):
    ours = envpool_lite.make(task, num_envs=1)
    ref = reference(task)
    try:
        assert ours.single_observation_space == ref.observation_space
        assert ours.single_action_space == ref.action_space
        assert envpool_lite.make_spec(task).config["max_episode_steps"] == ref.spec.max_episode_steps == 1000
    finally:
        ours.close()
        ref.close()
    continuous = envpool_lite.make("LunarLander-v3", num_envs=1, continuous=True)
    assert continuous.single_action_space == reference("LunarLanderContinuous-v3").action_space
    continuous.close()


@pytest.mark.parametrize(
    "task, kwargs, match",
    [
        ("LunarLander-v3", {"gravity": 0.0}, r"'gravity' must be in \(-12, 0\)"),
        ("LunarLander-v3", {"gravity": -12.0}, "'gravity'"),
        ("LunarLanderContinuous-v2", {"gravity": 3.0}, "'gravity'"),
        ("LunarLander-v3", {"gravity": float("nan")}, "'gravity'"),
        ("LunarLander-v3", {"wind_power": 20.5}, "'wind_power'.*gymnasium warns and goes on; envpool_lite refuses"),
        ("LunarLander-v2", {"wind_power": -1.0}, "'wind_power'"),
        ("LunarLanderContinuous-v3", {"turbulence_power": 2.1}, "'turbulence_power'.*gymnasium warns"),
        ("LunarLander-v3", {"turbulence_power": -0.1}, "'turbulence_power'"),
        ("LunarLanderContinuous-v3", {"continuous": False}, "'continuous' must be True"),
        ("LunarLanderContinuous-v2", {"continuous": False}, "'continuous'"),
    ],
)
def test_bad_options_raise_naming_the_option(task, kwargs, match):
    with pytest.raises(ValueError, match=match):
        envpool_lite.make(task, num_envs=1, **kwargs)


def test_edges_of_the_ranges_are_accepted():
    for kwargs in ({"gravity": -11.99, "wind_power": 20.0, "turbulence_power": 2.0}, {"wind_power": 0.0, "turbulence_power": 0.0}):
        envpool_lite.make("LunarLander-v3", num_envs=1, **kwargs).close()


def test_bad_action_raises_and_the_pool_keeps_stepping():
    ours = envpool_lite.make("LunarLanderContinuous-v3", num_envs=2, seed=9)
    refs = [reference("LunarLanderContinuous-v3") for _ in range(2)]
    try:
        obs, _ = ours.reset()
        for i, ref in enumerate(refs):
            np.testing.assert_array_equal(obs[i], ref.reset(seed=9 + i)[0])
        with pytest.raises(ValueError):
            ours.step(np.array([[0.5, np.nan], [0.0, 0.0]], np.float32))
        for t in range(5):  # the bad action stepped nothing
            action = np.array([[0.6, -0.7], [1.0, 0.2]], np.float32)
            out = ours.step(action)
            for i, ref in enumerate(refs):
                check_step(out, i, ref.step(action[i]), f"step {t}")
    finally:
        ours.close()


def test_particles_leave_the_lander_unchanged():
    """gymnasium creates a particle body per engine firing only with a
    render_mode; so do the pool's envs (none without one). The lander's
    trajectory is the same either way (the particles collide with the
    terrain only and move in other Box2D islands): our pool without a
    render_mode equals gymnasium's env made with render_mode="rgb_array",
    particles piling up."""
    task, seed, n = "LunarLander-v3", 23, 2
    ours = envpool_lite.make(task, num_envs=n, seed=seed)
    refs = [reference(task, render_mode="rgb_array") for _ in range(n)]
    pilot = Pilot(False, 4, n)
    try:
        obs, _ = ours.reset()
        r_obs = [ref.reset(seed=seed + i)[0] for i, ref in enumerate(refs)]
        most = 0
        done = [False] * n
        for t in range(400):
            actions = np.array([pilot.act(i, refs[i], r_obs[i]) for i in range(n)])
            out = ours.step(actions)
            for i, ref in enumerate(refs):
                most = max(most, len(ref.unwrapped.particles))
                ref_out = (ref.reset()[0], 0.0, False, False) if done[i] else ref.step(actions[i])
                check_step(out, i, ref_out, f"env {i} step {t}")
                r_obs[i] = ref_out[0]
                done[i] = bool(ref_out[2] or ref_out[3])
        assert most > 50, most
    finally:
        ours.close()


def test_first_render_mid_episode():
    """A pool made with render_mode="rgb_array" makes particles from the
    first step, as gymnasium's env does, so a first render() in the middle of
    an episode shows the ones made before it (never aged: only render()
    ages them), and the frames after it stay equal."""
    pytest.importorskip("pygame")
    task, seed, n = "LunarLander-v3", 37, 2
    ours = envpool_lite.make(task, num_envs=n, seed=seed, render_mode="rgb_array")
    refs = [reference(task, render_mode="rgb_array") for _ in range(n)]
    pilot = Pilot(False, 7, n)
    try:
        ours.reset()
        r_obs = [ref.reset(seed=seed + i)[0] for i, ref in enumerate(refs)]
        drawn = 0
        done = [False] * n
        for t in range(60):
            if t >= 30:
                frames = ours.render(np.arange(n))
                for i, ref in enumerate(refs):
                    np.testing.assert_array_equal(frames[i], ref.render(), err_msg=f"env {i} step {t}")
                    drawn = max(drawn, len(ref.unwrapped.particles))
            actions = np.array([pilot.act(i, refs[i], r_obs[i]) for i in range(n)])
            out = ours.step(actions)
            for i, ref in enumerate(refs):
                ref_out = (ref.reset()[0], 0.0, False, False) if done[i] else ref.step(actions[i])
                check_step(out, i, ref_out, f"env {i} step {t}")
                r_obs[i] = ref_out[0]
                done[i] = bool(ref_out[2] or ref_out[3])
        assert drawn > 20, drawn  # particles from before the first render()
    finally:
        ours.close()
        for ref in refs:
            ref.close()


@pytest.mark.parametrize("task, kwargs", [("LunarLander-v3", {}), ("LunarLanderContinuous-v2", {"enable_wind": True})])
def test_render_equals_gymnasium(task, kwargs):
    """Every frame equals gymnasium's render() (drawn after every reset and
    step, as a video records), particles, flags and sky included; the drawn
    env's world holds the particles, as gymnasium's does."""
    pytest.importorskip("pygame")
    n, seed, steps = 2, 31, 160
    ours = envpool_lite.make(task, num_envs=n, seed=seed, render_mode="rgb_array", **kwargs)
    refs = [reference(task, kwargs, render_mode="rgb_array") for _ in range(n)]
    pilot = Pilot(is_continuous(task), 6, n)
    try:
        obs, _ = ours.reset()
        r_obs = [ref.reset(seed=seed + i)[0] for i, ref in enumerate(refs)]
        done = [False] * n
        mismatched_pixels = []
        most = 0
        for t in range(steps):
            frames = ours.render()
            assert frames.shape == (n, 400, 600, 3) and frames.dtype == np.uint8
            for i, ref in enumerate(refs):
                expected = ref.render()
                mismatched_pixels.append(int(np.any(frames[i] != expected, axis=2).sum()))
                most = max(most, len(ref.unwrapped.particles))
            actions = np.array([pilot.act(i, refs[i], r_obs[i]) for i in range(n)])
            out = ours.step(actions)
            for i, ref in enumerate(refs):
                ref_out = (ref.reset()[0], 0.0, False, False) if done[i] else ref.step(actions[i])
                check_step(out, i, ref_out, f"env {i} step {t}")
                r_obs[i] = ref_out[0]
                done[i] = bool(ref_out[2] or ref_out[3])
        assert sum(mismatched_pixels) == 0, f"{sum(m > 0 for m in mismatched_pixels)} frames differ, at most {max(mismatched_pixels)} pixels"
        assert most > 3, "no particles were drawn"
    finally:
        ours.close()
        for ref in refs:
            ref.close()
