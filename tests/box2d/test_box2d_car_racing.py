"""CarRacing: bit-exact with gymnasium 1.4.0's CarRacing-v3 (the box2d 2.3.10
wheel, pygame-ce 2.5.8), pixel observation included, under the seed
convention (env i of a pool seeded s behaves as gymnasium's env reset with
seed s + i, then reset without a seed after each episode end).

gymnasium 1.4 registers only CarRacing-v3; EnvPool's CarRacing-v2 runs the
same env, so its reference is v3 too.

At every step of every env the reward (float64, with ==), terminated,
truncated and info["lap_finished"] are compared; the 96x96 observation is
compared pixel for pixel on a sample of steps (every step of an episode's
start and end, every PIXEL_EVERY-th step otherwise), because drawing it is
most of gymnasium's step time: the reference draws only on those steps
(its _render reads the car and the track and changes neither). The runs go
through laps completed (every tile visited, and lap_complete_percent),
flights off the playfield (-100), time limits and auto-resets, and each
checks it saw the endings it is meant to cover, so none can pass vacuously.
render() frames (600x400, skid marks included) are compared pixel for pixel.
"""

import math
import sys

import gymnasium
import numpy as np
import pytest

import envpool_lite
from envpool_lite.families import box2d

# gymnasium's passive env checker notes, not ours.
pytestmark = pytest.mark.usefixtures("quiet_gymnasium")

TASKS = ["CarRacing-v2", "CarRacing-v3"]
PIXEL_EVERY = 10


class Reference:
    """gymnasium's CarRacing-v3, drawing its observation only when asked."""

    def __init__(self, kwargs=None, render_mode=None):
        self.env = gymnasium.make("CarRacing-v3", render_mode=render_mode, **(kwargs or {}))
        self.car_racing = self.env.unwrapped
        self.draw = True
        self.real_render = self.car_racing._render
        self.car_racing._render = lambda mode: self.real_render(mode) if self.draw or mode != "state_pixels" else None

    def reset(self, seed=None):
        self.draw = True
        return self.env.reset(seed=seed)[0]

    def step(self, action, draw):
        self.draw = draw
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, reward, terminated, truncated, info.get("lap_finished", False)

    def close(self):
        self.env.close()


class Driver:
    """Per-env actions: each episode picks a style: race (follow the track
    with the reference's car and track, which finishes laps), escape (full
    ahead off the playfield: -100), or random (in range, out of range, the
    edges; the brake's three regimes)."""

    def __init__(self, continuous, seed, styles):
        self.continuous = continuous
        self.rng = np.random.default_rng(seed)
        self.styles = list(styles)

    def episode_ended(self, i):
        self.styles[i] = ["race", "escape", "random"][int(self.rng.integers(3))]

    def act(self, i, ref):
        style, rng = self.styles[i], self.rng
        if style == "random":
            if not self.continuous:
                return np.int32(rng.integers(5))
            if rng.random() < 0.5:
                return rng.uniform([-1, 0, 0], [1, 1, 1]).astype(np.float32)
            return rng.choice([-1.5, -1.0, 0.0, 0.3, 0.95, 1.0, 1.2], 3).astype(np.float32)
        if style == "escape":
            return np.array([0.0, 0.6, 0.0], np.float32) if self.continuous else np.int32(3)
        steer, gas, brake = race(ref.car_racing)
        if self.continuous:
            return np.array([steer, gas, brake], np.float32)
        if abs(steer) > 0.2:
            return np.int32(1 if steer > 0 else 2)  # right, left
        return np.int32(3 if gas > 0 else 4 if brake > 0 else 0)


def race(car_racing, look=5, vmax=90.0):
    """Steer towards the track point `look` tiles ahead of the nearest one,
    slowing down before turns."""
    car = car_racing.car
    position = np.array(car.hull.position)
    track = np.array([(t[2], t[3]) for t in car_racing.track])
    i = int(np.argmin(((track - position) ** 2).sum(1)))
    d = track[(i + look) % len(track)] - position
    forward = np.array([-math.sin(car.hull.angle), math.cos(car.hull.angle)])
    error = math.atan2(forward[0] * d[1] - forward[1] * d[0], forward @ d)
    turn = abs(math.remainder(car_racing.track[(i + 8) % len(track)][1] - car_racing.track[i][1], 2 * math.pi))
    target_speed = vmax / (1 + 3 * turn)
    speed = np.linalg.norm(car.hull.linearVelocity)
    gas = 0.6 if speed < target_speed else 0.0
    brake = 0.4 if speed > target_speed + 8 else 0.0
    return float(np.clip(-2.5 * error, -1, 1)), gas, brake


class Tally:
    def __init__(self):
        self.laps = self.off_playfield = self.truncated = self.pixel_checks = 0

    def add(self, reward, terminated, truncated, lap_finished):
        if terminated and lap_finished:
            self.laps += 1
        elif terminated:
            assert reward == -100
            self.off_playfield += 1
        elif truncated:
            self.truncated += 1


def check_step(out, row, ref_out, where, pixels):
    obs, rew, term, trunc, info = out
    r_obs, r_rew, r_term, r_trunc, r_lap = ref_out
    assert rew[row] == r_rew, (where, rew[row], r_rew)
    assert term[row] == r_term and trunc[row] == r_trunc, where
    assert info["lap_finished"][row] == r_lap, where
    if pixels:
        np.testing.assert_array_equal(obs[row], r_obs, err_msg=where)


def run_sync(task, kwargs, num_envs, seed, steps, styles, driver_seed=0):
    """Our sync pool against gymnasium's envs, step by step (NEXT_STEP
    auto-reset: the step after an episode's end is the reset)."""
    continuous = kwargs.get("continuous", True)
    ours = envpool_lite.make(task, env_type="gymnasium", num_envs=num_envs, seed=seed, **kwargs)
    refs = [Reference(kwargs) for _ in range(num_envs)]
    driver = Driver(continuous, driver_seed, styles)
    tally = Tally()
    try:
        obs, _ = ours.reset()
        assert obs.dtype == np.uint8 and obs.shape == (num_envs, 96, 96, 3)
        for i, ref in enumerate(refs):
            np.testing.assert_array_equal(obs[i], ref.reset(seed=seed + i))
        done = [False] * num_envs
        age = [0] * num_envs
        for t in range(steps):
            actions = np.array([driver.act(i, refs[i]) for i in range(num_envs)])
            out = ours.step(actions)
            assert out[1].dtype == np.float64
            for i, ref in enumerate(refs):
                if done[i]:
                    ref_out = (ref.reset(), 0.0, False, False, False)
                    driver.episode_ended(i)
                    age[i] = 0
                    pixels = True
                else:
                    age[i] += 1
                    pixels = age[i] < 3 or t % PIXEL_EVERY == 0 or t == steps - 1
                    ref_out = ref.step(actions[i], draw=pixels)
                    tally.add(*ref_out[1:])
                    pixels = pixels or bool(ref_out[2] or ref_out[3])
                    if pixels and ref_out[0] is None:  # ended on a step not drawn
                        ref_out = (ref.real_render("state_pixels"), *ref_out[1:])
                check_step(out, i, ref_out, f"{task} {kwargs} env {i} step {t}", pixels)
                tally.pixel_checks += pixels
                done[i] = bool(ref_out[2] or ref_out[3])
        return tally
    finally:
        ours.close()
        for ref in refs:
            ref.close()


@pytest.mark.parametrize("task", TASKS)
@pytest.mark.parametrize("continuous", [True, False])
def test_matches_gymnasium(task, continuous):
    # Env 0 flies off the playfield (continuous ~260 steps, discrete ~370),
    # env 1 races, env 2 drives at random; later episodes pick at random.
    steps = 420 if continuous else 500
    tally = run_sync(task, {"continuous": continuous}, 3, 11 + 10 * TASKS.index(task), steps, ["escape", "race", "random"], driver_seed=int(continuous))
    assert tally.off_playfield > 0, "no flight off the playfield"


def test_laps_and_time_limit():
    """Env 0 (seed 3) races a whole lap (every tile visited) within the time
    limit (~940 steps); env 1 (seed 4) needs more and is truncated at 1000."""
    tally = run_sync("CarRacing-v3", {}, 2, 3, 1001, ["race", "race"])
    assert tally.laps > 0, "no lap completed"
    assert tally.truncated > 0, "the time limit never truncated"


def test_lap_complete_percent():
    """A lap counts when tile 0 is first touched (at reset, the car starts on
    it) with more than lap_complete_percent of the tiles visited: with a tiny
    one, the first step ends the episode, lap_finished."""
    tally = run_sync("CarRacing-v2", {"lap_complete_percent": 0.001, "continuous": False}, 2, 8, 6, ["random", "random"])
    assert tally.laps >= 4, tally.laps


@pytest.mark.parametrize("continuous", [True, False])
def test_domain_randomize(continuous):
    """New colors (road, background, grass) drawn at every reset, before the
    track; contacts repaint tiles with the road color."""
    kwargs = {"domain_randomize": True, "continuous": continuous, "max_episode_steps": 120}
    tally = run_sync("CarRacing-v3", kwargs, 2, 50, 260, ["race", "random"], driver_seed=5)
    assert tally.truncated > 0


def test_track_generation_retries():
    """Seeds whose first track attempt fails (gymnasium's reset retries,
    drawing new checkpoints) reset identically."""
    seeds = [36, 100, 105, 118, 128, 133]
    ours = envpool_lite.make("CarRacing-v3", num_envs=len(seeds), seed=0)
    try:
        obs, _ = ours.reset(seed=seeds)
        for i, seed in enumerate(seeds):
            ref = Reference()
            fails = []
            create = ref.car_racing._create_track
            ref.car_racing._create_track = lambda create=create, fails=fails: create() or fails.append(1) or False
            np.testing.assert_array_equal(obs[i], ref.reset(seed=seed), err_msg=f"seed {seed}")
            assert fails, f"seed {seed} needed no retry"
            ref.close()
    finally:
        ours.close()


def test_async_pool_matches_gymnasium_per_env():
    """batch_size < num_envs: each batch holds the envs that finished first;
    every env still follows its own reference, matched by env_id."""
    task, kwargs = "CarRacing-v3", {"max_episode_steps": 90}
    num_envs, batch, seed = 4, 2, 70
    ours = envpool_lite.make(task, env_type="gymnasium", num_envs=num_envs, batch_size=batch, num_threads=2, seed=seed, **kwargs)
    refs = [Reference(kwargs) for _ in range(num_envs)]
    driver = Driver(True, 3, ["race", "random", "escape", "race"])
    tally = Tally()
    started, done, steps = [False] * num_envs, [False] * num_envs, [0] * num_envs
    last_action = {}
    try:
        ours.async_reset()
        for _ in range(300):
            out = ours.recv()
            ids = [int(i) for i in out[4]["env_id"]]
            assert len(ids) == batch
            for row, i in enumerate(ids):
                if not started[i] or done[i]:
                    r_obs = refs[i].reset(seed=seed + i) if not started[i] else refs[i].reset()
                    ref_out = (r_obs, 0.0, False, False, False)
                    if started[i]:
                        driver.episode_ended(i)
                    started[i] = True
                    pixels = True
                else:
                    pixels = steps[i] % PIXEL_EVERY == 0
                    ref_out = refs[i].step(last_action[i], draw=pixels)
                    tally.add(*ref_out[1:])
                check_step(out, row, ref_out, f"env {i} step {steps[i]}", pixels)
                done[i] = bool(ref_out[2] or ref_out[3])
                steps[i] += 1
            for i in ids:
                last_action[i] = driver.act(i, refs[i])
            ours.send(np.array([last_action[i] for i in ids]), ids)
        assert all(s > 100 for s in steps), steps
        assert tally.truncated > 0
    finally:
        ours.close()
        for ref in refs:
            ref.close()


def test_render_equals_gymnasium():
    """render() (rgb_array) equals gymnasium's 600x400 frame pixel for pixel,
    skid marks included (more than the 30 gymnasium keeps, so that the
    oldest are dropped)."""
    seed, steps = 5, 260
    ours = envpool_lite.make("CarRacing-v3", num_envs=1, seed=seed, render_mode="rgb_array")
    ref = Reference(render_mode="rgb_array")
    rng = np.random.default_rng(1)
    try:
        ours.reset()
        ref.reset(seed=seed)
        mismatched, most = [], 0
        for t in range(steps):
            if t % 5 == 0 or 115 < t < 145:
                frames = ours.render()
                assert frames.shape == (1, 400, 600, 3) and frames.dtype == np.uint8
                mismatched.append(int(np.any(frames[0] != ref.env.render(), axis=2).sum()))
                most = max(most, len(ref.car_racing.car.particles))
            # Full ahead, then a skidding turn, a hard brake, then at random.
            if t < 120:
                action = [0.0 if t < 60 else 1.0, 1.0, 0.0]
            elif t < 140:
                action = [-1.0, 0.0, 1.0]
            else:
                action = rng.uniform([-1, 0, 0], [1, 1, 1])
            action = np.asarray(action, np.float32)
            out = ours.step(action[None])
            check_step(out, 0, ref.step(action, draw=t % PIXEL_EVERY == 0), f"step {t}", t % PIXEL_EVERY == 0)
        assert sum(mismatched) == 0, f"{sum(m > 0 for m in mismatched)} frames differ, at most {max(mismatched)} pixels"
        assert most == 30, "the skid marks never filled gymnasium's deque"
    finally:
        ours.close()
        ref.close()


def test_reward_text_matches_pygame():
    """The reward counter is composed from glyphs captured at make(); the
    composition equals pygame's font.render of the whole text for every
    counter from -1000 to 10000 (every value a default episode can show),
    and a sample up to +-100000."""
    pygame = pytest.importorskip("pygame")
    pygame.font.init()
    font = pygame.font.Font(pygame.font.get_default_font(), box2d.REWARD_FONT_SIZE)
    composer = box2d.RewardFontData(box2d.reward_font())
    values = list(range(-1000, 10001)) + list(range(-100000, 100001, 97)) + [-0.4, 0.4, 999.5, 1000.5]
    for value in values:
        text = f"{value:04.0f}"
        np.testing.assert_array_equal(composer.compose(text), box2d._render_text(font, text), err_msg=text)


@pytest.mark.parametrize("task", TASKS)
def test_spaces_and_time_limit(task):
    for continuous in (True, False):
        ours = envpool_lite.make(task, num_envs=1, continuous=continuous)
        ref = gymnasium.make("CarRacing-v3", continuous=continuous)
        try:
            assert ours.single_observation_space == ref.observation_space
            assert ours.single_action_space == ref.action_space
        finally:
            ours.close()
            ref.close()
    spec = envpool_lite.make_spec(task)
    assert spec.config["max_episode_steps"] == gymnasium.spec("CarRacing-v3").max_episode_steps == 1000
    assert spec.reward_dtype == np.float64
    assert [i["name"] for i in spec.info_specs] == ["lap_finished"]
    assert "reward_font" not in spec.config  # internal, filled by make()


@pytest.mark.parametrize(
    "value, match",
    [(0.0, r"'lap_complete_percent' must be in \(0, 1\]"), (-0.5, r"\(0, 1\]"), (1.01, r"\(0, 1\]"), (float("nan"), "'lap_complete_percent'")],
)
def test_bad_lap_complete_percent_raises_naming_it(value, match):
    with pytest.raises(ValueError, match=match):
        envpool_lite.make("CarRacing-v3", num_envs=1, lap_complete_percent=value)


def test_internal_option_is_not_an_option():
    with pytest.raises(TypeError, match="reward_font"):
        envpool_lite.make("CarRacing-v3", num_envs=1, reward_font=(1.0,))
    envpool_lite.make("CarRacing-v3", num_envs=1, lap_complete_percent=1.0).close()


def test_bad_action_raises_and_the_pool_keeps_stepping():
    for continuous, bad, good in [
        (True, np.array([[0.5, np.nan, 0.0], [0.0, 0.0, 0.0]], np.float32), np.array([[0.3, 0.5, 0.0], [-1.0, 1.0, 0.5]], np.float32)),
        (False, np.array([5, 0]), np.array([3, 1])),
    ]:
        ours = envpool_lite.make("CarRacing-v3", num_envs=2, seed=9, continuous=continuous)
        refs = [Reference({"continuous": continuous}) for _ in range(2)]
        try:
            obs, _ = ours.reset()
            for i, ref in enumerate(refs):
                np.testing.assert_array_equal(obs[i], ref.reset(seed=9 + i))
            with pytest.raises(ValueError):
                ours.step(bad)
            for t in range(3):  # the bad action stepped nothing
                out = ours.step(good)
                for i, ref in enumerate(refs):
                    check_step(out, i, ref.step(good[i], draw=True), f"step {t}", True)
        finally:
            ours.close()
            for ref in refs:
                ref.close()


def test_missing_pygame_is_an_import_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "pygame", None)
    box2d.reward_font.cache_clear()
    try:
        with pytest.raises(ImportError, match="pygame"):
            envpool_lite.make("CarRacing-v3", num_envs=1)
    finally:
        box2d.reward_font.cache_clear()
