"""MuJoCo tasks: step-by-step alignment with gymnasium's own MuJoCo envs
(same seeds, same random actions, every field compared with ==), options
and errors."""

from __future__ import annotations

import contextlib
import importlib.metadata
import os
import re
import types

import gymnasium
import numpy as np
import pytest
import scope

import envpool_lite
from envpool_lite.families import mujoco as mj

pytestmark = [
    pytest.mark.skipif(not envpool_lite._core.MUJOCO_VERSION, reason="built without MuJoCo"),
    pytest.mark.usefixtures("quiet_gymnasium"),
]

# Every info field gymnasium's step() returns, per task (the pool's info also
# has env_id, elapsed_step and players).
ENV_INFO = {"env_id", "elapsed_step", "players"}


# EnvPool's -v3/-v2 ids, as its registration (envpool/mujoco/gym/
# registration.py) defines them: the v4 env with post_constraint=False (no
# mj_rnePostConstraint after the step, so cfrc_ext stays zero), and Ant-v3
# and Humanoid-v3 with use_contact_force=True (Ant: the 84 contact forces in
# the observation; Humanoid: a contact cost in the reward, which is zero with
# cfrc_ext zero, so v4's reward).
LEGACY_IDS = ["Ant-v3", "HalfCheetah-v3", "Hopper-v3", "Humanoid-v3", "HumanoidStandup-v2", "InvertedDoublePendulum-v2", "InvertedPendulum-v2", "Pusher-v2", "Reacher-v2", "Swimmer-v3", "Walker2d-v3"]
LEGACY_OPTIONS = {"Ant": {"use_contact_forces": True}}


def _step_without_post_constraint(self, ctrl, n_frames):
    """gymnasium's MujocoEnv._step_mujoco_simulation less its last line."""
    import mujoco

    self.data.ctrl[:] = ctrl
    mujoco.mj_step(self.model, self.data, nstep=n_frames)


def reference_env(task_id: str, **kwargs):
    name, version = task_id.rsplit("-", 1)
    if version in ("v2", "v3"):
        env = reference_env(f"{name}-v4", **{**LEGACY_OPTIONS.get(name, {}), **kwargs})
        env._step_mujoco_simulation = types.MethodType(_step_without_post_constraint, env)
        return env
    ctx = mj._pusher_v4_allowed() if task_id == "Pusher-v4" else contextlib.nullcontext()
    with ctx:
        return gymnasium.make(task_id, **kwargs).unwrapped


def assert_info_equal(info: dict, ref: dict, i: int, where: str) -> None:
    for key, value in ref.items():
        got = info[key][i]
        assert np.array_equal(got, value), f"{where}: info[{key!r}] {got!r} != {value!r}"
        assert np.asarray(got).dtype == np.asarray(value).dtype or isinstance(value, (int, float)), f"{where}: info[{key!r}] dtype {np.asarray(got).dtype} != {np.asarray(value).dtype}"


def run_aligned(task_id: str, steps: int, num_envs: int = 2, seed: int = 7, max_episode_steps: int | None = None, **options) -> dict:
    """Steps a pool of num_envs envs and num_envs gymnasium envs (env i reset
    with seed + i, later resets continuing its generator) with the same
    random actions, comparing every field exactly. Returns counts."""
    pool_kwargs = dict(options)
    if max_episode_steps is not None:
        pool_kwargs["max_episode_steps"] = max_episode_steps
    pool = envpool_lite.make(task_id, num_envs=num_envs, seed=seed, **pool_kwargs)
    limit = pool.spec.max_episode_steps
    refs = [reference_env(task_id, **options) for _ in range(num_envs)]
    obs, info = pool.reset()
    assert obs.dtype == np.float64 and obs.shape[1:] == refs[0].observation_space.shape
    for i, ref in enumerate(refs):
        ref_obs, ref_info = ref.reset(seed=seed + i)
        assert np.array_equal(obs[i], ref_obs), f"{task_id} reset obs env {i}"
        assert_info_equal(info, ref_info, i, f"{task_id} reset env {i}")
    space = pool.single_action_space
    assert np.array_equal(space.low, refs[0].action_space.low) and np.array_equal(space.high, refs[0].action_space.high)
    assert space.dtype == np.float32
    rng = np.random.default_rng(seed)
    elapsed = [0] * num_envs
    needs_reset = [False] * num_envs
    counts = {"terminated": 0, "truncated": 0}
    for t in range(steps):
        # Some actions beyond the control range (MuJoCo clamps them).
        actions = (rng.uniform(-1.2, 1.2, (num_envs,) + space.shape) * space.high).astype(np.float32)
        obs, reward, terminated, truncated, info = pool.step(actions)
        assert reward.dtype == np.float64
        for i, ref in enumerate(refs):
            where = f"{task_id} step {t} env {i}"
            if needs_reset[i]:  # NEXT_STEP autoreset: this step reset env i
                ref_obs, ref_info = ref.reset()
                elapsed[i] = 0
                needs_reset[i] = False
                assert np.array_equal(obs[i], ref_obs), f"{where}: reset obs"
                assert_info_equal(info, ref_info, i, where + " (reset)")
                continue
            ref_obs, ref_reward, ref_term, ref_trunc, ref_info = ref.step(actions[i])
            elapsed[i] += 1
            ref_trunc = ref_trunc or elapsed[i] >= limit
            assert np.array_equal(obs[i], ref_obs), f"{where}: obs differs by {np.abs(obs[i] - ref_obs).max()}"
            assert reward[i] == ref_reward, f"{where}: reward {reward[i]!r} != {ref_reward!r}"
            assert terminated[i] == ref_term and truncated[i] == ref_trunc, where
            assert set(info) - ENV_INFO == set(ref_info), f"{where}: info keys {sorted(set(info) - ENV_INFO)} != {sorted(ref_info)}"
            assert_info_equal(info, ref_info, i, where)
            if ref_term or ref_trunc:
                needs_reset[i] = True
                counts["terminated" if ref_term else "truncated"] += 1
    pool.close()
    return counts


# Tasks that terminate early with random actions; the others get a short
# time limit so that the run has truncations and resets too.
EARLY_END = {"Hopper", "Walker2d", "Humanoid", "InvertedPendulum", "InvertedDoublePendulum"}


@pytest.mark.parametrize("task_id", envpool_lite.families.task_ids("mujoco"))
def test_aligned_with_gymnasium(task_id):
    name = task_id.split("-")[0]
    # 2 envs x 520 steps: over 1,000 env steps per task.
    limit = None if name in EARLY_END or name in ("Reacher", "Pusher") else 200
    counts = run_aligned(task_id, steps=scope.steps(520, full=2100), max_episode_steps=limit)
    assert counts["terminated"] + counts["truncated"] >= 2, counts


@pytest.mark.parametrize(
    "task_id, options",
    [
        ("Hopper-v5", {"exclude_current_positions_from_observation": False, "reset_noise_scale": 0.05, "frame_skip": 2}),
        ("Hopper-v5", {"terminate_when_unhealthy": False, "healthy_z_range": (0.9, 5.0)}),
        ("Hopper-v4", {"terminate_when_unhealthy": False, "exclude_current_positions_from_observation": False}),
        ("Walker2d-v5", {"frame_skip": 6, "healthy_angle_range": (-0.5, 0.5), "healthy_reward": -0.5}),
        ("Ant-v5", {"exclude_current_positions_from_observation": False, "include_cfrc_ext_in_observation": False, "reset_noise_scale": 0.2, "main_body": 2}),
        ("Ant-v5", {"terminate_when_unhealthy": False, "contact_force_range": (-0.5, 2.0), "frame_skip": 3}),
        ("Ant-v4", {"use_contact_forces": True, "terminate_when_unhealthy": False}),
        ("HalfCheetah-v5", {"forward_reward_weight": 2.0, "ctrl_cost_weight": 0.3, "exclude_current_positions_from_observation": False}),
        ("Humanoid-v5", {"include_cinert_in_observation": False, "include_cvel_in_observation": False, "contact_cost_range": (-1.0, 0.5), "terminate_when_unhealthy": False}),
        ("HumanoidStandup-v5", {"include_qfrc_actuator_in_observation": False, "include_cfrc_ext_in_observation": False, "exclude_current_positions_from_observation": False}),
        ("Swimmer-v5", {"exclude_current_positions_from_observation": False, "reset_noise_scale": 0.3, "frame_skip": 2}),
        ("InvertedDoublePendulum-v5", {"healthy_reward": 5.0, "reset_noise_scale": 0.3}),
        ("InvertedPendulum-v5", {"reset_noise_scale": 0.1, "frame_skip": 3}),
        ("Reacher-v5", {"reward_dist_weight": 0.5, "reward_control_weight": 3.0, "frame_skip": 3}),
        ("Pusher-v5", {"reward_near_weight": 1.0, "reward_control_weight": 0.7}),
    ],
)
def test_options_aligned(task_id, options):
    run_aligned(task_id, steps=150, num_envs=1, seed=3, max_episode_steps=100, **options)


def test_legacy_ids_are_envpools():
    """EnvPool's 33 gym MuJoCo ids: each of the 11 tasks as -v4 and -v5,
    and as -v3 or -v2; the legacy ones differ from v4 only where cfrc_ext
    shows (Ant-v3's observation, Humanoid's and HumanoidStandup's)."""
    ids = set(envpool_lite.families.task_ids("mujoco"))
    assert set(LEGACY_IDS) <= ids and len(ids) == 33
    for task_id, size, zero in [("Ant-v3", 111, slice(27, None)), ("Humanoid-v3", 376, slice(-84, None)), ("HumanoidStandup-v2", 376, slice(-84, None))]:
        env = envpool_lite.make(task_id, num_envs=2, seed=1)
        v4 = envpool_lite.make(task_id.rsplit("-", 1)[0] + "-v4", num_envs=2, seed=1, **LEGACY_OPTIONS.get(task_id.split("-")[0], {}))
        assert env.single_observation_space.shape == (size,)
        obs, _ = env.reset()
        v4.reset()
        nonzero = 0
        for _ in range(30):
            action = np.full((2, *env.single_action_space.shape), 0.4, np.float32)
            obs, *_ = env.step(action)
            obs4, *_ = v4.step(action)
            assert not obs[:, zero].any(), task_id
            nonzero += int(obs4[:, zero].any())
        assert nonzero > 0, f"{task_id}: v4's contact forces should show"
        env.close()
        v4.close()


def test_spec_and_dtypes():
    spec = envpool_lite.make_spec("Ant-v5")
    assert spec.reward_dtype == np.float64
    assert spec.observation_space.shape == (105,) and spec.observation_space.dtype == np.float64
    assert spec.config["healthy_z_range"] == (0.2, 1.0)
    assert "mujoco_lib" not in spec.config and "mujoco_model" not in spec.config
    assert envpool_lite.make_spec("Hopper-v4").config["healthy_z_range"] == (0.7, float("inf"))
    # Other families keep EnvPool's float32 rewards.
    assert envpool_lite.make_spec("CartPole-v1").reward_dtype == np.float32
    env = envpool_lite.make_dm("HalfCheetah-v5")
    assert env.reward_spec().dtype == np.float64
    ts = env.step(np.zeros((1, 6), np.float32))
    assert ts.reward.dtype == np.float64
    env.close()


@pytest.mark.parametrize(
    "options, error, needle",
    [
        ({"frame_skip": 0}, ValueError, "frame_skip"),
        ({"reset_noise_scale": -0.1}, ValueError, "reset_noise_scale"),
        ({"reset_noise_scale": float("nan")}, ValueError, "reset_noise_scale"),
        ({"healthy_z_range": (1.0, 0.5)}, ValueError, "healthy_z_range"),
        ({"healthy_z_range": (0.5, float("nan"))}, ValueError, "healthy_z_range"),
        ({"healthy_z_range": 0.5}, TypeError, "healthy_z_range"),
        ({"healthy_z_range": (0.1, 0.2, 0.3)}, TypeError, "healthy_z_range"),
        ({"ctrl_cost_weight": float("inf")}, ValueError, "ctrl_cost_weight"),
        ({"main_body": 99}, ValueError, "main_body"),
        ({"terminate_when_unhealthy": 1.5}, TypeError, "terminate_when_unhealthy"),
        ({"xml_file": "no_such_model.xml"}, FileNotFoundError, "no_such_model.xml"),
        ({"use_contact_forces": True}, TypeError, "use_contact_forces"),  # a v4 option
    ],
)
def test_bad_options(options, error, needle):
    with pytest.raises(error, match=needle):
        envpool_lite.make("Ant-v5", **options)


def test_v4_takes_v4_options():
    with pytest.raises(TypeError, match="frame_skip"):
        envpool_lite.make("Hopper-v4", frame_skip=2)
    with pytest.raises(TypeError, match="xml_file"):
        envpool_lite.make("Hopper-v4", xml_file="hopper.xml")


def test_mismatched_mujoco_is_a_clear_error(monkeypatch):
    real = importlib.metadata.version

    def fake(name):
        return "2.3.7" if name == "mujoco" else real(name)

    monkeypatch.setattr(importlib.metadata, "version", fake)
    with pytest.raises(ImportError, match=f"mujoco=={envpool_lite._core.MUJOCO_VERSION}"):
        envpool_lite.make("Hopper-v5")
    # The other families are unaffected.
    envpool_lite.make("CartPole-v1").close()


def test_missing_mujoco_is_a_clear_error(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "mujoco" else real(name, *a))
    with pytest.raises(ImportError, match=re.escape("Ant-v4 needs mujoco, which is not installed: pip install 'envpool_lite[mujoco]'")):
        envpool_lite.make("Ant-v4")


def test_async_pool_matches_gymnasium_per_env():
    """An async pool (batch < num_envs) runs each env exactly as gymnasium's,
    whatever order the envs come back in."""
    task_id, n, seed = "Hopper-v5", 4, 11
    pool = envpool_lite.make(task_id, num_envs=n, batch_size=2, seed=seed)
    refs = [reference_env(task_id) for _ in range(n)]
    started = [False] * n
    pending_reset = [True] * n
    last = {}
    rng = np.random.default_rng(1)
    pool.async_reset()
    for _ in range(300):
        obs, reward, terminated, truncated, info = pool.recv()
        ids = info["env_id"]
        for k, i in enumerate(map(int, ids)):
            if pending_reset[i]:
                ref_obs, _ = refs[i].reset() if started[i] else refs[i].reset(seed=seed + i)
                started[i], pending_reset[i] = True, False
            else:
                ref_obs, ref_reward, ref_term, _, _ = refs[i].step(last[i])
                assert reward[k] == ref_reward and terminated[k] == ref_term
                pending_reset[i] = bool(ref_term)
            assert np.array_equal(obs[k], ref_obs)
        actions = rng.uniform(-1, 1, (len(ids), 3)).astype(np.float32)
        for k, i in enumerate(map(int, ids)):
            last[i] = actions[k]
        pool.send(actions, ids)
    assert all(started)
    pool.close()


def test_norms_use_numpy_blas():
    """np.linalg.norm is numpy's BLAS ddot, whose OpenBLAS kernel (chosen
    for the CPU at run time) may sum with fused multiply-adds: the envs call
    that same ddot, so the library must be found (else the alignment tests
    above fail in the last bit on such CPUs)."""
    path = envpool_lite.make_spec("Ant-v5").env_options["numpy_blas"]
    assert path and os.path.isfile(path), path
    # numpy's own (its wheel bundles it in numpy.libs), not another
    # package's BLAS loaded in the same process.
    assert os.path.basename(os.path.dirname(path)).startswith("numpy"), path
