"""trainers/appo.py: the sampler's edges, the V-trace targets' edges, a short
learning run, checkpoints, determinism and smoke runs (all on the CPU)."""

import dataclasses
import json
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from libcompat import NO_TORCH

torch = pytest.importorskip("torch", reason=NO_TORCH)  # installed by scripts/setup.sh on Python 3.11
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "trainers"))

import appo  # noqa: E402

import envpool_lite  # noqa: E402
from envpool_lite.families import NetworkKind  # noqa: E402


@pytest.fixture(autouse=True)
def one_torch_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def quiet(**kw):
    """A Config for tests: CPU, no progress bar, no TensorBoard, no plot."""
    base = dict(device="cpu", progress=False, tensorboard=False, plot=False, checkpoint_every=0)
    return appo.Config(**{**base, **kw})


# --- the sampler's trajectories ---------------------------------------------
def collect(cfg, options, num_trajectories):
    """Run the sampler alone (nobody learns) until it has emitted
    num_trajectories trajectories; returns them and its finished games."""
    env = envpool_lite.make(cfg.env_id, **options)
    model = appo.ActorCritic(env.single_observation_space, env.single_action_space, 8)
    store = appo.PolicyStore(model, torch.device("cpu"), version=0)
    sampler = appo.Sampler(cfg, env, model, store, torch.device("cpu"))
    return drain(sampler, env, lambda items: len(items) >= num_trajectories), sampler.finished


def drain(sampler, env, enough):
    """Run the sampler until enough(trajectories so far); then stop it and close env."""
    items = []
    sampler.start()
    try:
        while not enough(items):
            items.append(sampler.queue.get(timeout=60))
    finally:
        sampler.stop_event.set()
        while not sampler.queue.empty():  # let a blocked put() finish
            sampler.queue.get()
        sampler.join()
        env.close()
    return items


def test_sampler_masks_the_reset_step_and_reports_full_games():
    """Dummy-v0 (obs = [seed, episode, step in life, last action], reward =
    action) with 3 lives per game and envs finishing out of order. A row is
    masked exactly when its observation ends an episode (the next one starts
    at step 0); every valid action reached its own env; rewards, terminations
    and the whole-game returns (3 lives) follow."""
    cfg = quiet(env_id="Dummy-v0", num_envs=6, env_batch_size=3, rollout=7, batch_rollouts=3)
    options = dict(num_envs=6, batch_size=3, num_threads=2, seed=0, lives=3, episode_length=4, step_sleep_us=50)
    items, finished = collect(cfg, options, 36)
    chunks = {}
    by_env: dict[int, list] = {}
    for item in items:
        obs, valid = item["obs"], item["valid"]
        assert obs.shape == (8, 4) and valid.shape == (7,)
        env_seed = int(obs[0, 0])
        assert (obs[:, 0] == env_seed).all()  # one env's trajectory
        by_env.setdefault(env_seed, []).append(item)
        life = 4 + env_seed % 3
        for n in range(7):
            ends = obs[n + 1, 2] == 0  # the next observation starts a new life
            assert valid[n] == (not ends)
            if valid[n]:
                assert obs[n + 1, 3] == item["actions"][n]
                assert item["rewards"][n] == item["actions"][n]
                assert item["terms"][n] == (obs[n + 1, 2] == life)
                assert not item["truncs"][n]
            else:
                assert item["rewards"][n] == 0 and not item["terms"][n]
    assert len(by_env) > 1
    # Consecutive trajectories of an env join up: the bootstrap observation
    # is the next one's first.
    for seq in by_env.values():
        for a, b in zip(seq, seq[1:]):
            np.testing.assert_array_equal(a["obs"][-1], b["obs"][0])
    # Whole games: 3 lives of `life` steps each, the return the sum of the
    # rewards over all 3 lives.
    for env_seed, seq in by_env.items():
        life = 4 + env_seed % 3
        rewards = np.concatenate([it["rewards"][it["valid"]] for it in seq])
        for g in range(len(rewards) // (3 * life)):
            chunks.setdefault(3 * life, []).append(float(rewards[g * 3 * life : (g + 1) * 3 * life].sum()))
    games = [(ret, length) for _, ret, length in finished]
    assert chunks and all(length in chunks for _, length in games)
    for length, returns in chunks.items():
        reported = sorted(r for r, n in games if n == length)
        for r in returns:
            assert r in reported
            reported.remove(r)


def test_sampler_flags_truncation_and_masks_the_step_after_it():
    cfg = quiet(env_id="Dummy-v0", num_envs=2, env_batch_size=2, rollout=12, batch_rollouts=2)
    options = dict(num_envs=2, batch_size=2, seed=0, lives=100, episode_length=30, max_episode_steps=5)
    items, finished = collect(cfg, options, 4)
    for item in items:
        truncs, valid = item["truncs"], item["valid"]
        assert truncs.sum() >= 1 and not item["terms"].any()
        for n in np.flatnonzero(truncs):
            assert item["obs"][n + 1, 2] == 5  # the final observation, held by the masked row
            if n + 1 < 12:
                assert not valid[n + 1]
    assert [length for _, _, length in finished] == [5] * len(finished) and finished


# --- V-trace targets with the edges ----------------------------------------
def test_vtrace_targets_bootstrap_truncation_not_termination_and_skip_masked_rows():
    """Rows: 0 valid, 1 truncated (row 2 holds its final observation and is
    masked), 3 terminated. On-policy, lambda = 1."""
    cfg = quiet(gamma=0.9, lambda_=1.0)
    r = torch.tensor([[1.0], [2.0], [0.0], [4.0]])
    terms = torch.tensor([[False], [False], [False], [True]])
    mask = torch.tensor([[True], [True], [False], [True]])
    V = torch.tensor([[10.0], [20.0], [30.0], [40.0], [50.0]])
    vs, adv = appo.vtrace_targets(cfg, torch.zeros(4, 1), r, terms, mask, V)
    g = 0.9
    want = [1 + g * (2 + g * 30), 2 + g * 30, 30, 4]  # truncation: V(final obs) = 30; termination: no V(x_4)
    np.testing.assert_allclose(vs[:, 0].numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(adv[:, 0].numpy(), np.array(want) - V[:4, 0].numpy(), rtol=1e-6)
    assert adv[2, 0] == 0
    # A stale row masked in the middle cuts the trace there: row 0 bootstraps on V(x_1).
    mask[1, 0] = False
    vs, adv = appo.vtrace_targets(cfg, torch.zeros(4, 1), r, terms, mask, V)
    assert vs[0, 0].item() == pytest.approx(1 + g * 20) and adv[1, 0] == 0


# --- learning ---------------------------------------------------------------
CARTPOLE = dict(env_id="CartPole-v1", target_return=195.0, total_steps=200_000)


def test_cartpole_reaches_195(tmp_path):
    result = appo.train(quiet(**CARTPOLE, seed=3, run_dir=str(tmp_path)))
    print(f"CartPole-v1 to 195: {result['steps_to_target']} steps, {result['time_to_target']:.1f}s, lag {np.mean(result['lag_mean']):.2f}")
    assert result["reached_target"], f"recent return {result['recent_return']:.1f} after {result['global_step']} steps"
    assert result["recent_return"] >= 195
    # Asynchronous: some lag, well under the bound past which steps are masked.
    assert 0 < np.mean(result["lag_mean"]) < appo.Config.max_policy_lag


def test_inverted_pendulum_reaches_900(tmp_path):
    """Continuous control on a MuJoCo task with the control preset: seeds 1-3
    reach a mean return of 900 (last 20 episodes) in 34k-36k steps."""
    if "InvertedPendulum-v5" not in envpool_lite.list_all_envs() or not envpool_lite._core.MUJOCO_VERSION:
        pytest.skip("built without MuJoCo")
    assert appo.network_kind("InvertedPendulum-v5") is NetworkKind.CONTROL
    preset = {k: v for k, v in appo.PRESETS[NetworkKind.CONTROL].items() if k != "total_steps"}
    result = appo.train(quiet(**preset, env_id="InvertedPendulum-v5", target_return=900.0, total_steps=80_000, seed=3, run_dir=str(tmp_path)))
    print(f"InvertedPendulum-v5 to 900: {result['steps_to_target']} steps, {result['time_to_target']:.1f}s")
    assert result["reached_target"], f"recent return {result['recent_return']:.1f} after {result['global_step']} steps"


def test_minatar_preset_trains_on_pgx_planes(tmp_path):
    """pgx's MinAtar games (bool (10, 10, C) planes) take pgx's example
    network, and a few updates of the planes preset run (learning to pgx's
    return takes some 20M steps: trainers/README.md)."""
    assert appo.network_kind("minatar-breakout") is NetworkKind.PLANES
    spec = envpool_lite.make_spec("minatar-breakout")
    model = appo.ActorCritic(spec.observation_space, spec.action_space, cnn="minatar")
    logits, value = model(torch.zeros(5, 10, 10, 4, dtype=torch.bool))
    assert logits.shape == (5, 3) and value.shape == (5,)
    preset = {k: v for k, v in appo.PRESETS[NetworkKind.PLANES].items() if k != "total_steps"}
    result = appo.train(quiet(**{**preset, "num_envs": 16, "env_batch_size": 8, "batch_rollouts": 8}, env_id="minatar-breakout", total_steps=16 * 32 * 4, run_dir=str(tmp_path)))
    assert result["global_step"] >= 16 * 32 * 4


def params(model):
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


def test_deterministic_mode_is_bit_identical_with_a_one_update_lag(tmp_path):
    cfg = quiet(env_id="CartPole-v1", deterministic=True, num_envs=8, rollout=16, total_steps=8 * 16 * 6, run_dir=str(tmp_path))
    a = appo.train(dataclasses.replace(cfg, run_name="a"))
    b = appo.train(dataclasses.replace(cfg, run_name="b"))
    assert a["updates"] == b["updates"] == 6
    pa, pb = params(a["model"]), params(b["model"])
    assert all(torch.equal(pa[k], pb[k]) for k in pa)
    # The same games too (up to what the learner consumed: the sampler may be
    # part-way through the next round when training stops).
    assert [g for g in a["finished"] if g[0] <= a["global_step"]] == [g for g in b["finished"] if g[0] <= b["global_step"]]
    # HTS-RL: rollout k is acted by version k-1, so every update but the first sees a lag of exactly one.
    assert a["lag_mean"] == [0.0] + [1.0] * 5 and a["lag_max"] == 1.0
    c = appo.train(dataclasses.replace(cfg, run_name="c", seed=2))
    pc = params(c["model"])
    assert not all(torch.equal(pa[k], pc[k]) for k in pa)
    # --on-policy: acting waits for each update (PPO's lag of zero), with the clipped value loss.
    d = appo.train(dataclasses.replace(cfg, run_name="d", on_policy=True, clip_vloss=True))
    e = appo.train(dataclasses.replace(cfg, run_name="e", on_policy=True, clip_vloss=True))
    assert d["updates"] == 6 and d["lag_mean"] == [0.0] * 6 and d["lag_max"] == 0.0
    pd, pe = params(d["model"]), params(e["model"])
    assert all(torch.equal(pd[k], pe[k]) for k in pd) and not all(torch.equal(pa[k], pd[k]) for k in pa)
    with pytest.raises(ValueError, match="on_policy needs deterministic"):
        appo.train(dataclasses.replace(cfg, deterministic=False, on_policy=True))


def test_checkpoint_save_and_resume(tmp_path):
    cfg = quiet(env_id="CartPole-v1", num_envs=8, env_batch_size=4, rollout=16, batch_rollouts=4, run_dir=str(tmp_path), run_name="r")
    first = appo.train(dataclasses.replace(cfg, total_steps=64 * 3, checkpoint_every=1))
    ckpt = torch.load(first["checkpoint"], weights_only=False)
    assert ckpt["update"] == 3 and ckpt["global_step"] == 192
    saved = params(first["model"])
    assert all(torch.equal(ckpt["model"][k], saved[k]) for k in saved)
    # Resuming with no steps left changes nothing; with more, it carries on.
    same = appo.train(dataclasses.replace(cfg, total_steps=192, resume=str(first["checkpoint"]), run_name=""))
    assert same["updates"] == 3 and all(torch.equal(params(same["model"])[k], saved[k]) for k in saved)
    more = appo.train(dataclasses.replace(cfg, total_steps=64 * 5, resume=str(first["checkpoint"]), run_name=""))
    assert more["updates"] == 5 and more["global_step"] == 320 and more["run_dir"] == first["run_dir"]
    assert not all(torch.equal(params(more["model"])[k], saved[k]) for k in saved)
    ckpt = torch.load(more["checkpoint"], weights_only=False)
    assert ckpt["update"] == 5 and len(ckpt["finished"]) >= len(first["finished"])


def test_cli_train_then_eval_with_gif(tmp_path, capsys):
    run_dir = tmp_path / "runs"
    appo.main(["--env-id", "CartPole-v1", "--total-steps", "2048", "--run-dir", str(run_dir), "--run-name", "cli",
               "--device", "cpu", "--no-progress", "--checkpoint-every", "2"])  # fmt: skip
    out = capsys.readouterr().out
    assert "2,048 steps" in out and "policy lag" in out
    run = run_dir / "cli"
    assert (run / "checkpoint.pt").exists() and (run / "learning_curve.png").exists()
    try:
        import tensorboard  # noqa: F401  (the `trainers` extra)

        assert any(run.glob("events.out.tfevents.*"))
    except ImportError:
        pass
    # --resume takes the checkpoint's config; flags given win.
    cfg = appo.parse_args(["--resume", str(run / "checkpoint.pt"), "--total-steps", "4096"])
    assert cfg.env_id == "CartPole-v1" and cfg.total_steps == 4096 and cfg.run_dir == str(run_dir) and cfg.torch_threads == 1
    appo.main(["--resume", str(run / "checkpoint.pt"), "--total-steps", "4096", "--no-progress"])
    assert "4,096 steps" in capsys.readouterr().out
    assert torch.load(run / "checkpoint.pt", weights_only=False)["global_step"] == 4096
    gif = tmp_path / "play.gif"
    appo.main(["--eval", str(run / "checkpoint.pt"), "--eval-episodes", "3", "--gif", str(gif), "--device", "cpu"])
    out = capsys.readouterr().out
    assert "mean return over 3 games" in out
    pytest.importorskip("pygame")  # gymnasium's CartPole renders with it
    assert gif.exists() and gif.stat().st_size > 0


def test_continuous_actions_smoke(tmp_path):
    result = appo.train(quiet(env_id="Pendulum-v1", num_envs=4, env_batch_size=2, rollout=16, batch_rollouts=2, total_steps=32 * 4, run_dir=str(tmp_path)))
    assert result["updates"] == 4 and all(torch.isfinite(v).all() for v in params(result["model"]).values())


ATARI = pytest.mark.skipif("Pong-v5" not in envpool_lite.list_all_envs(), reason="Atari is not built yet")


class Recorder:
    """The pool, with every recv() result written down: the test's own
    bookkeeping, to check the sampler's against."""

    def __init__(self, env):
        self.env, self.log = env, []

    def recv(self):
        batch = self.env.recv()
        _, reward, term, trunc, info = batch
        self.log.append([a.copy() for a in (info["env_id"], info["reward"], reward, term, trunc, info["terminated"])])
        return batch

    def __getattr__(self, name):
        return getattr(self.env, name)


@ATARI
def test_atari_games_are_whole_games_of_unclipped_score():
    """SpaceInvaders (3 lives, 5 to 200 points an alien) as the trainer runs
    Atari: episodic_life and reward_clip. The learner's rewards are the
    clipped ones, an episode ends at each lost life, and the games the
    sampler reports (for the curves and the logs) are whole games of
    unclipped score: checked against sums over every recv() result."""
    cfg = quiet(env_id="SpaceInvaders-v5", num_envs=4, env_batch_size=2, rollout=32, batch_rollouts=4)
    env = Recorder(envpool_lite.make(cfg.env_id, **appo.env_options(cfg)))
    model = appo.ActorCritic(env.single_observation_space, env.single_action_space, cnn="small")
    sampler = appo.Sampler(cfg, env, model, appo.PolicyStore(model, torch.device("cpu"), version=0), torch.device("cpu"))
    items = drain(sampler, env, lambda _: len(sampler.finished) >= 4)
    games, score, length, fresh = [], np.zeros(4), np.zeros(4, np.int64), np.ones(4, bool)
    for ids, points, reward, term, trunc, game_over in env.log:
        np.testing.assert_array_equal(reward, np.sign(points))  # the pool clips
        for k, e in enumerate(ids):
            score[e] += points[k]
            length[e] += not fresh[e]  # the first result of an episode is its reset
            fresh[e] = term[k] or trunc[k]
            if trunc[k] or (term[k] and game_over[k]):
                games.append((float(score[e]), int(length[e])))
                score[e], length[e] = 0, 0
    assert [(ret, n) for _, ret, n in sampler.finished] == games
    assert max(p.max() for _, p, *_ in env.log) >= 5  # so clipping mattered
    lives_lost = sum(int(term.sum()) for *_, term, _, _ in env.log)
    assert lives_lost >= 3 * len(games)  # an episode per life
    rewards = np.concatenate([it["rewards"][it["valid"]] for it in items])
    assert set(np.unique(rewards)) <= {0.0, 1.0} and rewards.sum() > 0  # the learner's: clipped


@ATARI
def test_pong_loop(tmp_path, capsys):
    """The Atari preset's whole loop on Pong, a few thousand steps from the
    command line: whole games in the logs and in progress.json (the curves
    against steps, frames and wall-clock), the checkpoint, the curve, then
    --eval with a GIF of the best game, replayed in a pool of its own."""
    run = tmp_path / "pong"
    appo.main(["--env-id", "Pong-v5", "--num-envs", "4", "--env-batch-size", "2", "--batch-rollouts", "4", "--total-steps", "6144",
               "--run-dir", str(tmp_path), "--run-name", "pong", "--device", "cpu", "--no-progress", "--torch-threads", "1"])  # fmt: skip
    assert "6,144 steps" in capsys.readouterr().out
    ckpt = torch.load(run / "checkpoint.pt", weights_only=False)
    assert ckpt["config"]["cnn"] == appo.PRESETS[NetworkKind.PIXELS]["cnn"] and ckpt["global_step"] == 6144
    progress = json.loads((run / "progress.json").read_text())
    rows = progress["updates"]
    assert progress["frame_skip"] == 4 and len(rows) == 6144 // (32 * 4) and rows[-1]["step"] == 6144
    assert all(r["frames"] == 4 * r["step"] and r["time"] > 0 and r["sps"] > 0 and 0 <= r["learner_wait_fraction"] <= 1 for r in rows)
    assert [r["games"] for r in rows] == sorted(r["games"] for r in rows) and rows[-1]["games"] == len(ckpt["finished"])
    # Whole games: 800 to 1,000 steps of an untrained policy, one side at 21 points.
    assert len(ckpt["finished"]) >= 3
    assert all(-21 <= ret <= 21 and ret == int(ret) and 500 < n < 27_000 for _, ret, n in ckpt["finished"])
    assert (run / "learning_curve.png").exists()
    gif = tmp_path / "pong.gif"
    mean = appo.evaluate(str(run / "checkpoint.pt"), episodes=2, device="cpu", gif=str(gif))
    assert -21 <= mean <= 21
    from PIL import Image

    with Image.open(gif) as im:
        assert im.size == (160, 210) and im.n_frames > 500  # the pool's colour screen, the whole game


def test_minigrid_smoke(tmp_path, capsys):
    """The grid preset on DoorKey-5x5 (the agent's 7x7 view, its ids one-hot
    encoded): a short run from the command line, then --eval with a GIF the
    pool draws."""
    env_id = "MiniGrid-DoorKey-5x5-v0"
    assert appo.network_kind(env_id) is NetworkKind.GRID and appo.env_options(appo.Config(env_id=env_id))["image_only"]
    cfg = appo.parse_args(["--env-id", env_id])
    assert cfg.torch_threads == 1 and cfg.num_envs == appo.PRESETS[NetworkKind.GRID]["num_envs"]
    obs = torch.tensor([[[[2, 5, 0], [4, 4, 2], [10, 0, 3]]]], dtype=torch.uint8)  # wall, locked yellow door, agent facing up
    x = appo.one_hot_grid(obs).view(1, 3, sum(appo.GRID_IDS))
    assert x.sum(-1).eq(3).all() and x[0, 1, 4] == 1 and x[0, 1, 11 + 4] == 1 and x[0, 1, 11 + 6 + 2] == 1
    appo.main(["--env-id", env_id, "--total-steps", "8192", "--run-dir", str(tmp_path), "--run-name", "dk", "--device", "cpu", "--no-progress"])
    out = capsys.readouterr().out
    assert "8,192 steps" in out and "policy lag" in out
    run = tmp_path / "dk"
    assert (run / "learning_curve.png").exists()
    ckpt = torch.load(run / "checkpoint.pt", weights_only=False)
    assert ckpt["global_step"] == 8192 and ckpt["finished"]  # whole games, for the curve and the logs
    assert all(0 <= ret <= 1 and 0 < length <= 250 for _, ret, length in ckpt["finished"])
    gif = tmp_path / "doorkey.gif"
    mean = appo.evaluate(str(run / "checkpoint.pt"), episodes=2, device="cpu", gif=str(gif))
    assert 0 <= mean <= 1 and gif.stat().st_size > 0


def test_no_thread_left_behind():
    assert not [t for t in threading.enumerate() if t.name == "sampler"]


def test_cleanrl_dm_example_runs(capsys):
    import cleanrl_ppo_dm

    returns = cleanrl_ppo_dm.train(cleanrl_ppo_dm.Args(total_timesteps=3 * 8 * 64, num_envs=8, num_steps=64))
    assert "iteration 3/3" in capsys.readouterr().out
    assert len(returns) > 10 and np.isfinite(returns).all()


def test_cleanrl_continuous_example_runs(capsys):
    if "Hopper-v5" not in envpool_lite.list_all_envs() or not envpool_lite._core.MUJOCO_VERSION:
        pytest.skip("built without MuJoCo")
    import cleanrl_ppo_continuous_gym as ppo_continuous

    args = ppo_continuous.Args(env_id="Hopper-v5", total_timesteps=2 * 4 * 64, num_envs=4, num_steps=64, num_minibatches=4, update_epochs=2)
    finished = ppo_continuous.train(args)
    assert "iteration 2/2" in capsys.readouterr().out
    assert len(finished) > 4 and all(np.isfinite(r) and 0 < step <= 512 for step, r in finished)
    # The normalisers' running statistics: gym's parallel update.
    rms = ppo_continuous.RunningMeanStd((2,))
    data = np.random.default_rng(0).normal(3.0, 2.0, size=(300, 2))
    for chunk in np.split(data, 3):
        rms.update(chunk)
    np.testing.assert_allclose(rms.mean, data.mean(0), rtol=1e-5)
    np.testing.assert_allclose(rms.var, data.var(0), rtol=1e-4)


def test_cleanrl_continuous_trains_on_a_dm_control_task(capsys):
    """A dict observation (dm_control's) is flattened in key order."""
    import cleanrl_ppo_continuous_gym as ppo_continuous

    obs = {"orientations": np.arange(6.0).reshape(2, 3), "height": np.array([7.0, 8.0])}
    np.testing.assert_array_equal(ppo_continuous.flatten(obs), [[0, 1, 2, 7], [3, 4, 5, 8]])
    args = ppo_continuous.Args(env_id="CartpoleSwingup-v1", total_timesteps=2 * 4 * 64, num_envs=4, num_steps=64, num_minibatches=4, update_epochs=2)
    ppo_continuous.train(args)
    assert "iteration 2/2" in capsys.readouterr().out


def test_log_prob_and_entropy_match_torch_distributions():
    import gymnasium

    obs_space = gymnasium.spaces.Box(-1, 1, (3,))
    model = appo.ActorCritic(obs_space, gymnasium.spaces.Discrete(5))
    params, action = torch.randn(7, 5), torch.randint(0, 5, (7,))
    logp, ent = model.log_prob_entropy(params, action)
    dist = torch.distributions.Categorical(logits=params)
    assert torch.allclose(logp, dist.log_prob(action)) and torch.allclose(ent, dist.entropy())
    model = appo.ActorCritic(obs_space, gymnasium.spaces.Box(-2, 2, (2,)))
    with torch.no_grad():
        model.log_std.copy_(torch.tensor([0.3, -0.5]))
    params, action = torch.randn(7, 2), torch.randn(7, 2)
    logp, ent = model.log_prob_entropy(params, action)
    dist = torch.distributions.Independent(torch.distributions.Normal(params, model.log_std.exp()), 1)
    assert torch.allclose(logp, dist.log_prob(action)) and torch.allclose(ent, dist.entropy())


def test_success_key_logs_each_games_outcome(tmp_path):
    """--success-key: each finished game's info field at its end, beside its
    return (myosuite's "solved" here; a few updates only)."""
    if "myoElbowPose1D6MRandom-v0" not in envpool_lite.list_all_envs():
        pytest.skip("built without the myosuite family")
    try:
        envpool_lite.make_spec("myoElbowPose1D6MRandom-v0")
    except ImportError as e:
        pytest.skip(str(e))
    preset = {k: v for k, v in appo.PRESETS[NetworkKind.CONTROL].items() if k != "total_steps"}
    cfg = quiet(**preset, env_id="myoElbowPose1D6MRandom-v0", success_key="solved", total_steps=8 * 64 * 4, run_dir=str(tmp_path))
    result = appo.train(cfg)
    assert len(result["successes"]) == len(result["finished"]) > 0
    assert 0.0 <= result["recent_success"] <= 1.0
