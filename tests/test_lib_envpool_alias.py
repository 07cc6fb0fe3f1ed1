"""compat/envpool, the module named `envpool` that is envpool_lite (pip-
installed into build/compat/envpool by scripts/setup_compat.sh, as a user
installs it): EnvPool's names, signatures and behaviours that the libraries
reach for, with each gym version."""

import pytest
from libcompat import run_with


def test_names_version_and_mixin():
    out = run_with(
        (),
        """
        import envpool, envpool.python.envpool as m, envpool.registration as reg
        from packaging import version
        assert version.parse(envpool.__version__) >= version.parse("1.2.5"), envpool.__version__
        for name in envpool.__all__:
            assert hasattr(envpool, name), name
        for name in ("make", "make_dm", "make_gym", "make_gymnasium", "make_spec", "list_all_envs", "register"):
            assert callable(getattr(reg, name)), name
        assert "Pong-v5" in envpool.list_all_envs()
        for t in ("gym", "gymnasium", "dm"):
            env = envpool.make("CartPole-v1", env_type=t, num_envs=2, max_num_players=1)
            assert isinstance(env, m.EnvPoolMixin), t
            assert env.config["num_envs"] == 2 and env.config["max_num_players"] == 1
            assert env.spec.config.num_envs == 2
        assert not isinstance(object(), m.EnvPoolMixin)
        for bad, error in ((lambda: envpool.make("CartPole-v1", env_type="gym_old"), ValueError),
                           (lambda: envpool.make("CartPole-v1", env_type="gym", max_num_players=2), ValueError),
                           (lambda: envpool.make_gymnasium("CartPole-v1", gym_reset_return_info=False), ValueError),
                           (lambda: reg.register("X-v0", "a", "b", "c", "d", "e"), NotImplementedError)):
            try:
                bad()
            except error as e:
                assert str(e)
            else:
                raise AssertionError("no error")
        print("ok")
        """,
    )
    assert out.strip() == "ok", out


# env_type="gym" by the gym installed, as EnvPool 0.8: none (EnvPool 1.x's
# gymnasium API and spaces), gym 0.26 (gymnasium API, gym's spaces), gym
# 0.23 (the old API).
@pytest.mark.parametrize(
    "groups, api, spaces",
    [((), "gymnasium", "gymnasium"), (("torchrl",), "gymnasium", "gym"), (("jax_scripts",), "old", "gym")],
    ids=["no gym", "gym 0.26.2", "gym 0.23.1"],
)
def test_gym_env_type_follows_the_installed_gym(groups, api, spaces):
    out = run_with(
        groups,
        f"""
        import envpool, numpy as np
        env = envpool.make("CartPole-v1", env_type="gym", num_envs=3, seed=1)
        for space in (env.observation_space, env.action_space, env.spec.observation_space, env.spec.action_space):
            assert type(space).__module__.split(".")[0] == {spaces!r}, type(space)
        assert env.observation_space.shape == (4,) and env.action_space.n == 2  # one env's, as EnvPool
        out = env.reset()
        step = env.step(np.zeros(3, dtype=int))
        if {api!r} == "old":
            assert isinstance(out, np.ndarray) and len(step) == 4 and "TimeLimit.truncated" in step[3]
            obs, info = envpool.make("CartPole-v1", env_type="gym", num_envs=3, gym_reset_return_info=True).reset()
        else:
            assert isinstance(out, tuple) and len(step) == 5
        gymnasium_env = envpool.make_gymnasium("CartPole-v1", num_envs=3)
        assert type(gymnasium_env.action_space).__module__.startswith("gymnasium")
        print("ok")
        """,
    )
    assert out.strip() == "ok", out


def test_close_and_extra_actions_as_envpool():
    """EnvPool's close() leaves the pool working; a partial step with more
    actions than ids uses the first len(ids). envpool_lite's own pools keep
    their clear errors."""
    out = run_with(
        (),
        """
        import envpool, envpool_lite, numpy as np
        for t in ("gym", "gymnasium", "dm"):
            env = envpool.make("CartPole-v1", env_type=t, num_envs=4, seed=1)
            env.reset()
            env.close()
            env.reset()
            a = env.step(np.array([1, 1, 0, 0]), np.array([1, 3]))
            b = envpool.make("CartPole-v1", env_type=t, num_envs=4, seed=1)
            b.reset()
            b.reset()
            c = b.step(np.array([1, 1]), np.array([1, 3]))
            obs = (lambda s: s.observation.obs) if t == "dm" else (lambda s: s[0])
            assert np.array_equal(obs(a), obs(c)), t
        own = envpool_lite.make_gymnasium("CartPole-v1", num_envs=4)
        own.reset()
        try:
            own.step(np.zeros(4, dtype=int), np.array([1, 3]))
        except ValueError:
            pass
        else:
            raise AssertionError("envpool_lite accepted 4 actions for 2 ids")
        own.close()
        try:
            own.reset()
        except RuntimeError:
            pass
        else:
            raise AssertionError("envpool_lite's pool worked after close()")
        print("ok")
        """,
    )
    assert out.strip() == "ok", out


def test_envpool_defaults():
    """Where an option's default differs (Procgen's channel_first,
    ViZDoom's reward_mode), the `envpool` module takes EnvPool's; a given
    value wins."""
    out = run_with(
        (),
        """
        import envpool
        assert envpool.make_gymnasium("CoinrunHard-v0", num_envs=2).observation_space.shape == (3, 64, 64)
        assert envpool.make_spec("CoinrunHard-v0").config["channel_first"] is True
        assert envpool.make_dm("CoinrunHard-v0", channel_first=False).spec.config["channel_first"] is False
        assert envpool.make_gymnasium("CartPole-v1").observation_space.shape == (4,)
        assert envpool.make_spec("Basic-v1").config["reward_mode"] == "envpool"
        assert envpool.make_spec("Basic-v1", reward_mode="scenario").config["reward_mode"] == "scenario"
        print("ok")
        """,
    )
    assert out.strip() == "ok"


def test_render_with_no_env_ids_is_env_0():
    """EnvPool's render(): with no env_ids, env 0's picture as (1, H, W, 3),
    on every face of the `envpool` module (envpool_lite's gymnasium face
    draws every env); given env_ids, those envs."""
    out = run_with(
        (),
        """
        import numpy as np, envpool
        for make in (envpool.make_gymnasium, envpool.make_dm):
            env = make("CartPole-v1", num_envs=3, render_mode="rgb_array")
            env.reset()
            first = env.render()
            assert first.shape == (1, 400, 600, 3), first.shape
            both = env.render(np.array([0, 2]))
            assert both.shape == (2, 400, 600, 3) and np.array_equal(both[0], first[0])
        print("ok")
        """,
    )
    assert out.strip() == "ok"


def test_minigrid_max_episode_steps_is_max_steps():
    """EnvPool's MiniGrid takes max_episode_steps as minigrid's max_steps:
    the end of the episode and the reward, 1 - 0.9 * steps / max_steps
    (EnvPool 1.2.5, measured: Empty-5x5 reached in 5 steps gives 0.955 with
    its default 100, 0.25 with max_episode_steps=6)."""
    out = run_with(
        (),
        """
        import numpy as np, envpool
        rewards = []
        for limit in (None, 6):
            kwargs = {} if limit is None else {"max_episode_steps": limit}
            env = envpool.make_gymnasium("MiniGrid-Empty-5x5-v0", num_envs=1, seed=0, **kwargs)
            env.reset()
            for a in (2, 2, 1, 2, 2):  # forward, forward, right, forward, forward: the goal
                _, r, term, trunc, _ = env.step(np.array([a]))
            assert term[0] and not trunc[0]
            rewards.append(float(r[0]))
        env = envpool.make_gymnasium("MiniGrid-Empty-5x5-v0", num_envs=1, seed=0, max_episode_steps=3)
        env.reset()
        for _ in range(3):
            _, _, term, trunc, _ = env.step(np.array([0]))
        assert trunc[0] and not term[0]
        try:
            envpool.make_gymnasium("MiniGrid-Empty-5x5-v0", max_episode_steps=3, max_steps=4)
        except ValueError:
            pass
        else:
            raise AssertionError("both names accepted")
        print(rewards)
        """,
    )
    assert out.strip().splitlines()[-1] == "[0.955, 0.25]"


def test_procgen_render_is_the_observation():
    """EnvPool's Procgen render(): the 64x64 frame the observation shows
    (envpool_lite's own: procgen's 512x512 info["rgb"]), through an episode
    end (where the observation shows the last frame again)."""
    out = run_with(
        (),
        """
        import numpy as np, envpool, envpool_lite
        env = envpool.make_gymnasium("CoinrunEasy-v0", num_envs=2, seed=1, render_mode="rgb_array", channel_first=False)
        obs, _ = env.reset()
        ends = 0
        for t in range(1010):  # past coinrun's timeout, 1000 steps
            frames = env.render(np.arange(2))
            assert frames.shape == (2, 64, 64, 3) and np.array_equal(frames, obs), t
            obs, _, term, trunc, _ = env.step(np.full(2, 6, np.int32))  # right
            ends += int((term | trunc).sum())
        assert ends > 0
        own = envpool_lite.make_gymnasium("CoinrunEasy-v0", num_envs=1, render_mode="rgb_array")
        own.reset()
        assert own.render().shape == (1, 512, 512, 3)
        print("ok")
        """,
    )
    assert out.strip() == "ok"


def test_mujoco_reset_state_in_info():
    """EnvPool's info["qpos0"] / info["qvel0"] of the MuJoCo tasks: the state
    the last reset set, reported at every step; gymnasium's env put in that
    state steps to the same observations bit for bit (what EnvPool's own
    alignment test does with it). envpool_lite's own info has neither."""
    out = run_with(
        (),
        """
        import numpy as np, gymnasium, mujoco, envpool, envpool_lite
        env = envpool.make_gymnasium("Hopper-v5", num_envs=2, seed=3)
        obs, info = env.reset()
        assert info["qpos0"].shape == (2, 6) and info["qvel0"].shape == (2, 6)
        ref = gymnasium.make("Hopper-v5").unwrapped
        ref.reset(seed=0)
        mujoco.mj_resetData(ref.model, ref.data)
        ref.set_state(info["qpos0"][0], info["qvel0"][0])
        assert np.array_equal(ref._get_obs(), obs[0])
        rng = np.random.default_rng(0)
        for t in range(20):
            a = rng.uniform(-1, 1, (2, 3)).astype(np.float32)
            obs, _, term, trunc, step_info = env.step(a)
            want = ref.step(a[0])[0]
            assert np.array_equal(want, obs[0]), t
            assert np.array_equal(step_info["qpos0"], info["qpos0"])  # until the next reset
        own = envpool_lite.make_gymnasium("Hopper-v5", num_envs=1)
        assert "qpos0" not in own.reset()[1]
        print("ok")
        """,
    )
    assert out.strip() == "ok"


def test_dm_control_reset_state_in_the_observation():
    """EnvPool's reset-state fields of the dm_control tasks, in the dm face's
    observation under EnvPool's names (its tests test hasattr): dm_control's
    env put in that state as EnvPool's alignment test puts it steps to the
    same observations bit for bit, through three resets: cheetah's qpos0 is
    the drawn qpos, before its 200 settling steps; reacher's target, fish's
    target0 and point_mass hard's wrap_prm are model parameters;
    manipulator's random_info reports init type 3 where the object moves
    after a rejected draw (dm_control's loop keeps that velocity; EnvPool's
    test restores it for 3 only: the third reset here). envpool_lite's own
    pools have none of the fields, and make() refuses the option."""
    out = run_with(
        (),
        """
        import numpy as np, dm_env, envpool, envpool_lite
        from dm_control import suite
        fields = {
            "AcrobotSwingup-v1": ["qpos0"], "CartpoleBalance-v1": ["qpos0", "qvel0"],
            "FingerTurnEasy-v1": ["qpos0", "target"], "FishSwim-v1": ["qpos0", "target0"],
            "LqrLqr21-v1": ["qpos0", "qvel0", "stiffness0"],
            "ManipulatorBringBall-v1": ["qpos0", "random_info"], "PointMassHard-v1": ["qpos0", "wrap_prm"],
            "QuadrupedWalk-v1": ["qpos0", "qvel0", "qacc_warmstart0", "act0", "hfield0"],
            "ReacherHard-v1": ["qpos0", "target"], "StackerStack2-v1": ["qpos0", "qvel0", "qacc_warmstart0", "target0"],
            "SwimmerSwimmer6-v1": ["qpos0", "target0"], "DogStand-v1": ["qpos0", "qvel0", "qacc_warmstart0", "act0"],
        }
        for task_id, names in fields.items():
            env = envpool.make_dm(task_id, num_envs=1)
            ts = env.reset()
            plain = envpool_lite.make_dm(task_id, num_envs=1).reset().observation._fields
            own = [f for f in ts.observation._fields if f not in plain]
            assert own == names, (task_id, own)
        def restore(ref, ts, domain, task):
            p = ref.physics
            with p.reset_context():
                p.data.qpos = ts.observation.qpos0[0]
                if domain == "cheetah":
                    for _ in range(200):
                        p.step()
                    p.data.time = 0
                elif domain == "reacher":
                    p.named.model.geom_pos["target", ["x", "y"]] = ts.observation.target[0]
                elif domain == "fish":
                    p.named.model.geom_pos["target"] = ts.observation.target0[0]
                elif domain == "point_mass":
                    p.model.wrap_prm = ts.observation.wrap_prm[0]
                elif domain == "manipulator":
                    tx, tz, ta, kind, ox, oz, oa, vx = ts.observation.random_info[0]
                    p.named.model.body_pos["target_ball", ["x", "z"]] = tx, tz
                    p.named.model.body_quat["target_ball", ["qw", "qy"]] = np.cos(ta / 2), np.sin(ta / 2)
                    if kind == 3:
                        p.data.qvel[p.model.name2id("ball_x", "joint")] = vx
                    return kind
        kinds = []
        for task_id, domain, task in [("CheetahRun-v1", "cheetah", "run"), ("ReacherHard-v1", "reacher", "hard"), ("FishSwim-v1", "fish", "swim"), ("PointMassHard-v1", "point_mass", "hard"), ("ManipulatorBringBall-v1", "manipulator", "bring_ball")]:
            env = envpool.make_dm(task_id, num_envs=1)
            ref = suite.load(domain, task)
            rng = np.random.default_rng(0)
            spec = ref.action_spec()
            for episode in range(3):
                ref.reset()
                ts = env.reset(np.array([0]))
                kinds.append((task_id, restore(ref, ts, domain, task)))
                qpos0 = ts.observation.qpos0.copy()
                for t in range(30):
                    a = rng.uniform(spec.minimum, spec.maximum, spec.shape)
                    want = ref.step(a)
                    ts = env.step(a[None], np.array([0]))
                    for k in ref.observation_spec():
                        assert np.array_equal(want.observation[k], getattr(ts.observation, k)[0]), (task_id, episode, t, k)
                    assert want.reward == ts.reward[0], (task_id, episode, t)
                    assert np.array_equal(ts.observation.qpos0, qpos0)  # until the next reset
        assert ("ManipulatorBringBall-v1", 3.0) in kinds
        assert envpool_lite.make_dm("CheetahRun-v1").reset().observation._fields == ("position", "velocity", "env_id", "elapsed_step", "players")
        try:
            envpool_lite.make_dm("CheetahRun-v1", report_reset_state=True)
        except TypeError as e:
            assert "report_reset_state" in str(e)
        else:
            raise AssertionError("make() took an internal option")
        print("ok")
        """,
    )
    assert out.strip() == "ok"


def test_acrobot_state_in_info():
    """EnvPool's Acrobot reports its two angles as info["state"] (float32):
    the envpool module's does, equal to gymnasium's state step by step;
    envpool_lite's info is gymnasium's (none)."""
    out = run_with(
        (),
        """
        import numpy as np, gymnasium, envpool, envpool_lite
        env = envpool.make_gymnasium("Acrobot-v1", num_envs=2, seed=5)
        ref = gymnasium.make("Acrobot-v1").unwrapped
        _, info = env.reset()
        ref.reset(seed=6)
        assert info["state"].dtype == np.float32 and info["state"].shape == (2, 2)
        for t in range(50):
            assert np.array_equal(info["state"][1], ref.state[:2].astype(np.float32)), t
            a = np.array([t % 3, (t * 7) % 3], np.int32)
            _, _, _, _, info = env.step(a)
            ref.step(int(a[1]))
        assert "state" not in envpool_lite.make_gymnasium("Acrobot-v1").reset()[1]
        print("ok")
        """,
    )
    assert out.strip() == "ok"


def test_box2d_state_in_info():
    """EnvPool's Box2D state in info (its alignment tests rebuild gymnasium's
    env from it), in the envpool module only and with ENVPOOL_TEST=1 (as
    EnvPool's test build): equal, step by step, to the
    state of gymnasium's env seeded as env i (bodies as (x, y, angle, vx, vy,
    omega, awake), BipedalWalker's terrain in pixels in self.terrain's order,
    CarRacing's track, road and car), ragged fields as object arrays;
    BipedalWalker's render() draws no lidar there (the same picture twice);
    envpool_lite's own info has none of it."""
    out = run_with(
        (),
        """
        import os
        os.environ["ENVPOOL_TEST"] = "1"  # EnvPool's test build's fields
        import numpy as np, gymnasium, envpool, envpool_lite
        f32 = np.float32
        def body(b):
            return [b.position[0], b.position[1], b.angle, b.linearVelocity[0], b.linearVelocity[1], b.angularVelocity, float(b.awake)]
        def pixels(b, v):  # Box2D's world point (float32) times SCALE (float32)
            w = b.transform * v
            return [float(f32(w[0]) * f32(30)), float(f32(w[1]) * f32(30))]
        rng = np.random.default_rng(0)
        # LunarLander
        env = envpool.make_gymnasium("LunarLander-v3", num_envs=2, seed=3)
        ref = gymnasium.make("LunarLander-v3").unwrapped
        _, info = env.reset()
        ref.reset(seed=4)  # env 1
        assert np.array_equal(info["sky_polys"][1], np.array(ref.sky_polys))
        for t in range(60):
            a = rng.integers(0, 4, 2).astype(np.int32)
            _, _, term, trunc, info = env.step(a)
            ref.step(int(a[1]))
            assert np.array_equal(info["lander_state"][1], body(ref.lander)), t
            assert np.array_equal(info["leg_states"][1], [body(leg) for leg in ref.legs]), t
            assert np.array_equal(info["ground_contact"][1], [float(leg.ground_contact) for leg in ref.legs]), t
            assert info["prev_shaping"][1] == ref.prev_shaping and info["game_over"][1] == float(ref.game_over), t
            assert info["last_dispersion"].shape == (2, 2) and np.all(np.abs(info["last_dispersion"]) <= 1)
            if term[1] or trunc[1]:
                break
        # BipedalWalkerHardcore: terrain polygons (a ragged path4 over envs)
        env = envpool.make_gymnasium("BipedalWalkerHardcore-v3", num_envs=3, seed=0, render_mode="rgb_array")
        _, info = env.reset()
        assert info["path4"].dtype == object or info["path4"].ndim == 4
        ref = gymnasium.make("BipedalWalkerHardcore-v3").unwrapped
        ref.reset(seed=2)  # env 2
        edges = [b for b in ref.terrain if b.fixtures[0].shape.type == 1]
        polys = [b for b in ref.terrain if b.fixtures[0].shape.type != 1]
        assert np.array_equal(info["path2"][2], [[pixels(b, v) for v in b.fixtures[0].shape.vertices] for b in edges])
        want4 = [[pixels(b, v) for v in b.fixtures[0].shape.vertices] for b in polys + ref.legs]
        assert np.array_equal(np.asarray(info["path4"][2], np.float64), want4)
        assert np.array_equal(info["cloud_poly"][2], [c[0] for c in ref.cloud_poly])
        assert info["scroll"][2] == ref.scroll and info["prev_shaping"][2] == ref.prev_shaping
        for t in range(30):
            a = rng.uniform(-1, 1, (3, 4)).astype(np.float32)
            _, _, term, trunc, info = env.step(a)
            ref.step(a[2])
            assert np.array_equal(info["hull_state"][2], body(ref.hull)), t
            assert np.array_equal(info["leg_states"][2], [body(leg) for leg in ref.legs]), t
            assert np.array_equal(info["joint_states"][2], [[j.angle, j.speed, j.motorSpeed, j.GetMaxMotorTorque()] for j in ref.joints]), t
        frame = env.render(np.array([0]))
        assert np.array_equal(frame, env.render(np.array([0])))  # no lidar ray: the same picture
        own = envpool_lite.make_gymnasium("BipedalWalker-v3", num_envs=1)
        assert "path4" not in own.reset()[1]
        os.environ["ENVPOOL_TEST"] = "0"
        assert "path4" not in envpool.make_gymnasium("BipedalWalker-v3", num_envs=1).reset()[1]
        os.environ["ENVPOOL_TEST"] = "1"
        # CarRacing
        env = envpool.make_gymnasium("CarRacing-v3", num_envs=1, seed=7)
        ref = gymnasium.make("CarRacing-v3").unwrapped
        _, info = env.reset()
        ref.reset(seed=7)
        assert np.array_equal(info["track"][0], np.array(ref.track))
        assert np.array_equal(info["road_poly"][0], np.array([p for p, _ in ref.road_poly]))
        for t in range(40):
            a = np.array([[0.3 * np.sin(t), 0.6, 0.1 * (t % 5 == 0)]], np.float32)
            _, _, term, trunc, info = env.step(a)
            ref.step(a[0])
            car = ref.car
            assert np.array_equal(info["car_body_states"][0], [body(b) for b in [car.hull, *car.wheels]]), t
            assert np.array_equal(info["car_wheel_states"][0], [[w.gas, w.brake, w.steer, w.phase, w.omega] for w in car.wheels]), t
            assert info["car_fuel_spent"][0] == car.fuel_spent and info["car_reward"][0] == ref.reward, t
            assert info["car_time"][0] == ref.t and info["tile_visited_count"][0] == ref.tile_visited_count, t
            assert np.array_equal(info["road_color"][0], np.array([c for _, c in ref.road_poly], np.float64)), t
        print("ok")
        """,
    )
    assert out.strip() == "ok"


def test_minigrid_debug_states():
    """EnvPool's _debug_states() (its MiniGrid and BabyAI tests rebuild their
    reference from it): minigrid's env rebuilt from it renders the same
    picture and steps to the same observation; fields by task; env ids that
    are being stepped are refused."""
    out = run_with(
        ("minigrid_oracle",),
        """
        import numpy as np, gymnasium, minigrid, envpool
        from minigrid.core.grid import Grid
        from minigrid.core.world_object import WorldObj
        env = envpool.make_gymnasium("MiniGrid-DoorKey-6x6-v0", num_envs=2, seed=0)
        obs, info = env.reset()
        (state,) = env._debug_states([1])
        assert state.env_name == "minigrid" and (state.width, state.height) == (6, 6)
        assert state.max_steps == env.spec.config.max_episode_steps == 360
        assert len(state.grid) == len(state.grid_contains) == 6 * 6 * 3
        assert tuple(state.agent_pos) == tuple(info["agent_pos"][1]) and state.agent_dir == obs["direction"][1]
        ref = gymnasium.make("MiniGrid-DoorKey-6x6-v0").unwrapped
        ref.reset(seed=0)
        grid = Grid(6, 6)
        cells = np.asarray(state.grid).reshape(6, 6, 3)
        for x in range(6):
            for y in range(6):
                grid.set(x, y, WorldObj.decode(*map(int, cells[x, y])))
        ref.grid, ref.agent_pos, ref.agent_dir, ref.carrying = grid, tuple(state.agent_pos), int(state.agent_dir), None
        assert np.array_equal(ref.gen_obs()["image"], obs["image"][1])
        fetch = envpool.make_gymnasium("MiniGrid-Fetch-5x5-N2-v0", num_envs=1)
        fetch.reset()
        (s,) = fetch._debug_states([0])
        assert s.env_name == "fetch" and isinstance(s.target_type, int) and isinstance(s.target_color, int)
        dyn = envpool.make_gymnasium("MiniGrid-Dynamic-Obstacles-5x5-v0", num_envs=1)
        dyn.reset()
        (d,) = dyn._debug_states([0])
        assert d.env_name == "dynamic_obstacles" and len(d.obstacle_positions) == 2 * 2
        env.send(np.zeros(1, np.int32), np.array([0]))
        try:
            env._debug_states([0])
        except RuntimeError as e:
            assert "being stepped" in str(e)
        else:
            raise AssertionError("an env being stepped was read")
        print("ok")
        """,
    )
    assert out.strip() == "ok"


def test_multi_player_envpool_format():
    """EnvPool's multi-player format for pgx's games: one observation and
    reward row per (env, player), info["players"] saying whose, one action
    per env (the acting player's) or EnvPool's player-shaped dict action,
    which must name the acting player."""
    out = run_with(
        (),
        """
        import envpool, numpy as np
        env = envpool.make_gymnasium("TicTacToe-v1", num_envs=3, seed=0)
        assert env.observation_space.shape == (3, 3, 2) and env.action_space.n == 9
        obs, info = env.reset()
        assert obs.shape == (6, 3, 3, 2)
        assert info["players"]["env_id"].tolist() == [0, 0, 1, 1, 2, 2]
        assert info["players"]["id"].tolist() == [0, 1, 0, 1, 0, 1]
        obs, rew, term, trunc, info = env.step(np.array([0, 1, 2], np.int32))
        assert obs.shape == (6, 3, 3, 2) and rew.shape == (6,) and term.shape == (3,)
        cp = info["current_player"].copy()
        env.step({"action": np.array([4, 4]), "players.env_id": np.array([2, 0]), "players.id": cp[[2, 0]]})
        cp = env.step(np.array([5, 5, 5], np.int32))[4]["current_player"].copy()
        for bad in ({"action": np.array([3]), "players.env_id": np.array([0]), "players.id": 1 - cp[:1]},
                    {"action": np.array([3, 6]), "players.env_id": np.array([0, 0]), "players.id": cp[[0, 0]]},
                    {"action": np.array([3]), "players.env_id": np.array([0]), "players.id": cp[:2]}):
            try:
                env.step(bad)
            except ValueError as e:
                assert str(e)
            else:
                raise AssertionError("no error")
        env.step(np.array([7, 7, 7], np.int32))  # the pool goes on
        print("ok")
        """,
    )
    assert out.strip() == "ok", out


def test_envpool_module_saves_and_restores_envs():
    # get_state / set_state are envpool_lite's (EnvPool has none): the
    # envpool module's pools have them on every env type.
    out = run_with(
        (),
        """
        import envpool, numpy as np
        for t in ("gymnasium", "gym", "dm"):
            env = envpool.make("CartPole-v1", env_type=t, num_envs=2, seed=1)
            env.reset()
            env.step(np.array([0, 1]))
            states = env.get_state()
            first = env.step(np.array([1, 1]))  # its arrays keep their block
            env.set_state(None, states)
            env.recv()
            again = env.step(np.array([1, 1]))
            if t == "dm":
                first, again = first.observation, again.observation
            else:  # the observation and the reward
                first, again = first[:2], again[:2]
            for x, y in zip(again, first):
                assert (np.asarray(x) == np.asarray(y)).all(), t
        print("ok")
        """,
    )
    assert out.strip() == "ok", out
