"""trainers/compare_curves.py: an appo.py run (progress.json) beside a CleanRL
run (TensorBoard events) and the curves of an earlier OUT.json, cut at the
same wall-clock, in one PNG and one JSON."""

import json
import sys
from pathlib import Path

import pytest
from libcompat import NO_TORCH

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "trainers"))

import compare_curves  # noqa: E402


def appo_run(path: Path) -> Path:
    path.mkdir()
    updates = [dict(time=60.0 * k, step=1024 * k, frames=4096 * k, games=k, recent_return=-21.0 + k, sps=1000.0, learner_wait_fraction=0.1, policy_lag=3.0) for k in range(1, 6)]
    updates[0]["recent_return"] = None  # NaN before the first whole game: null in strict JSON
    updates[0]["games"] = 0
    (path / "progress.json").write_text(json.dumps(dict(config={"env_id": "Pong-v5"}, frame_skip=4, updates=updates, games=[])))
    return path


def cleanrl_run(path: Path) -> Path:
    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter(str(path))
    for step, score in enumerate([-21.0, -20.0, -19.0]):
        writer.add_scalar("charts/episodic_return", score, 1000 * (step + 1))
        writer.add_scalar("charts/SPS", 400, 1000 * (step + 1))
    writer.close()
    return path


def test_curves_from_runs_and_an_earlier_json(tmp_path):
    pytest.importorskip("torch", reason=NO_TORCH)
    appo, cleanrl = appo_run(tmp_path / "appo"), cleanrl_run(tmp_path / "cleanrl")
    first = tmp_path / "first"
    compare_curves.main(["--appo", str(appo), "--cleanrl", str(cleanrl), "--minutes", "4", "--window", "2", "--out", str(first)])
    earlier = json.loads(first.with_suffix(".json").read_text())
    curves = earlier["curves"]
    assert set(curves) == {"appo.py", "CleanRL ppo_atari_envpool"}
    assert curves["appo.py"]["time_s"] == [120.0, 180.0, 240.0]  # before a game and past --minutes: left out
    assert curves["appo.py"]["mean_return"] == [-19.0, -18.0, -17.0]
    assert curves["CleanRL ppo_atari_envpool"]["mean_return"] == [-21.0, -20.5, -19.5]  # the mean of the last 2 games
    assert curves["CleanRL ppo_atari_envpool"]["frames"] == [4000, 8000, 12000]
    assert first.with_suffix(".png").stat().st_size > 10_000

    # A new appo.py run beside the earlier two, the earlier appo.py renamed.
    second = tmp_path / "second"
    compare_curves.main(
        [
            "--appo",
            str(appo),
            "--previous",
            str(first.with_suffix(".json")),
            "--rename",
            "appo.py",
            "appo.py (earlier)",
            "--rename",
            "CleanRL ppo_atari_envpool",
            "CleanRL",
            "--minutes",
            "4",
            "--out",
            str(second),
        ]
    )
    both = json.loads(second.with_suffix(".json").read_text())
    assert list(both["curves"]) == ["appo.py (earlier)", "CleanRL", "appo.py"]
    assert both["curves"]["CleanRL"] == curves["CleanRL ppo_atari_envpool"]
    assert both["runs"] == earlier["runs"] + [str(appo)]
