"""What code written for EnvPool reads from a pool: the spec surface
(config attributes, action/state_array_spec, reward_threshold), dm_env's
structure (Acme-style tree maps over spec and observation), players ids,
seed(), and Atari's game-over flag that CleanRL's episode tracker relies on,
on every face."""

from pathlib import Path

import dm_env
import numpy as np
import pytest
import tree

import envpool_lite


class CleanRLEpisodeTracker:
    """CleanRL's RecordEpisodeStatistics for EnvPool (ppo_atari_envpool.py):
    full-game returns from info["reward"], cleared on info["terminated"] (the
    game over), logged when an episode ends with no lives left."""

    def __init__(self, n):
        self.episode_returns = np.zeros(n)
        self.returned = np.zeros(n)
        self.logged = {i: [] for i in range(n)}

    def update(self, done, info):
        self.episode_returns += info["reward"]
        self.returned[:] = self.episode_returns
        self.episode_returns *= 1 - info["terminated"]
        for i in np.flatnonzero(done):
            if info["lives"][i] == 0:
                self.logged[i].append(float(self.returned[i]))


@pytest.mark.parametrize("env_type", ["gym", "gymnasium", "dm"])
def test_cleanrl_tracker_logs_full_game_returns(env_type):
    n = 4
    env = envpool_lite.make("Breakout-v5", env_type=env_type, num_envs=n, episodic_life=True, reward_clip=True, seed=1)
    tracker = CleanRLEpisodeTracker(n)
    truth = {i: [] for i in range(n)}  # sum of info["reward"] per game
    running = np.zeros(n)
    rng = np.random.default_rng(0)
    env.reset()
    lives_lost = 0
    for _ in range(1500):
        action = rng.integers(0, 4, n).astype(np.int32)
        if env_type == "dm":
            ts = env.step(action)
            info = ts.observation._asdict()
            done = ts.last()
        else:
            out = env.step(action)
            info = out[-1]
            done = out[2] if env_type == "gym" else out[2] | out[3]
        tracker.update(done, info)
        running += info["reward"]
        for i in np.flatnonzero(done):
            if info["lives"][i] == 0:  # the game is over: its return is complete
                truth[i].append(float(running[i]))
                running[i] = 0
            else:
                lives_lost += 1
    env.close()
    games = sum(len(v) for v in truth.values())
    assert games >= 4 and lives_lost >= 8, "the run must cover lost lives and whole games"
    assert tracker.logged == truth
    assert sum(r > 0 for v in truth.values() for r in v) >= 2  # not vacuous: scores are not all 0


def test_spec_surface():
    spec = envpool_lite.make_spec("Pong-v5", num_envs=3, batch_size=2)
    assert spec.config.num_envs == 3 and spec.config["num_envs"] == 3
    assert spec.config.batch_size == 2 and spec.config._asdict()["frame_skip"] == 4
    with pytest.raises(AttributeError):
        spec.config.num_envs = 5
    with pytest.raises(AttributeError, match="no option"):
        _ = spec.config.nonexistent
    assert dict(spec.config)["seed"] == 42
    actions = spec.action_array_spec
    assert list(actions) == ["env_id", "players.env_id", "action"]
    assert actions["action"].maximum + 1 == 6 and actions["action"].dtype == np.int32 and actions["action"].is_discrete
    states = spec.state_array_spec
    assert states["obs"].shape == [4, 84, 84] and states["obs"].dtype == np.uint8 and states["obs"].maximum == 255
    assert states["info:ram"].shape == [128] and states["info:lives"].dtype == np.int32
    assert {"info:env_id", "info:players.env_id", "elapsed_step", "reward", "done", "discount", "trunc", "step_type"} <= set(states)
    assert spec.reward_threshold is None
    # EnvPool's EnvSpec has gymnasium_* names for the spaces too.
    assert spec.gymnasium_observation_space == spec.observation_space and spec.gymnasium_action_space == spec.action_space
    assert envpool_lite.make_spec("CartPole-v1").reward_threshold == 475.0  # gymnasium's
    assert envpool_lite.make_spec("CartPole-v0").reward_threshold == 195.0
    assert envpool_lite.make_spec("CartPole-v0").config.max_episode_steps == 200
    spec.id = "renamed"  # SB3's example sets it
    assert Path(envpool_lite.__file__).with_name("py.typed").is_file()


def test_dm_face_is_a_dm_env_with_matching_structure():
    env = envpool_lite.make_dm("Breakout-v5", num_envs=2)
    assert isinstance(env, dm_env.Environment)
    spec = env.observation_spec()
    assert env.reward_spec().dtype == np.float32 and env.discount_spec().maximum == 1.0
    ts = env.reset()
    for _ in range(3):
        tree.assert_same_structure(spec, ts.observation)
        # Acme-style: one spec per leaf validates that leaf of every env.
        for i in range(2):
            tree.map_structure(lambda s, x, i=i: s.validate(np.asarray(x[i])), spec, ts.observation)
            env.reward_spec().validate(ts.reward[i])
            env.discount_spec().validate(ts.discount[i])
        np.testing.assert_array_equal(ts.observation.players.env_id, ts.observation.env_id)
        ts = env.step(np.ones(2, np.int32))
    env.close()


def test_players_seed_and_all_env_ids(make):
    env = make("CartPole-v1", num_envs=3)
    _, info = env.reset()
    np.testing.assert_array_equal(info["players"]["env_id"], [0, 1, 2])
    assert info["players"]["env_id"].dtype == np.int32
    np.testing.assert_array_equal(env.all_env_ids, [0, 1, 2])
    with pytest.warns(UserWarning, match="seed"):
        env.seed(1)
    gym = make("CartPole-v1", env_type="gym", num_envs=2)
    gym.reset()
    info = gym.step(np.zeros(2, np.int32))[-1]
    np.testing.assert_array_equal(info["players"]["env_id"], [0, 1])


def test_max_num_players():
    """EnvPool's max_num_players (TorchRL passes it): 1 is accepted and shows
    in config, as in EnvPool; anything else is a clear error."""
    env = envpool_lite.make("CartPole-v1", num_envs=2, max_num_players=1)
    try:
        assert env.config["max_num_players"] == 1
        assert env.spec.config["max_num_players"] == 1
        env.reset()
    finally:
        env.close()
    for bad in (0, 2):
        with pytest.raises(ValueError, match="max_num_players must be 1"):
            envpool_lite.make("CartPole-v1", num_envs=2, max_num_players=bad)


@pytest.mark.parametrize("env_type", ["gymnasium", "gym", "dm"])
def test_empty_env_ids_give_an_empty_batch(env_type):
    """reset(env_id=[]) and step([], env_id=[]) return a batch of no env, as
    EnvPool does (Sample Factory resets np.nonzero(done)[0] after every
    step); the other envs are untouched."""
    env = envpool_lite.make("Pong-v5", env_type=env_type, num_envs=3, seed=1)
    ref = envpool_lite.make("Pong-v5", env_type=env_type, num_envs=3, seed=1)
    obs = (lambda out: out.observation.obs) if env_type == "dm" else (lambda out: out[0])
    try:
        env.reset()
        ref.reset()
        none = np.array([], dtype=np.int32)
        reset = env.reset(none)
        for o in (reset if env_type == "gym" else obs(reset), obs(env.step(np.zeros(0, dtype=int), none))):
            assert o.shape == (0, 4, 84, 84) and o.dtype == np.uint8
        with pytest.raises(ValueError, match="no env ids takes no actions"):
            env.step(np.zeros(3, dtype=int), none)
        assert np.array_equal(obs(env.step(np.ones(3, dtype=int))), obs(ref.step(np.ones(3, dtype=int))))
    finally:
        env.close()
        ref.close()
