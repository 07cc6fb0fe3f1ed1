"""The project's APPO (trainers/appo.py, its control preset) learns
myoElbowPose1D6MRandom-v0: myosuite's `solved` (the elbow within 0.175 rad
of its random target at the episode's last step) in 90% of the last 50
episodes. Measured (trainers/README.md): 90% after about 23k steps, 100%
after 40k. make test-full only (a minute of training)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import scope

import envpool_lite

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "trainers"))
torch = pytest.importorskip("torch")
import appo  # noqa: E402

from envpool_lite.families import NetworkKind  # noqa: E402


@pytest.mark.skipif(not scope.FULL, reason="make test-full: a minute of training")
def test_appo_solves_the_elbow(tmp_path):
    assert appo.network_kind("myoElbowPose1D6MRandom-v0") is NetworkKind.CONTROL
    preset = {k: v for k, v in appo.PRESETS[NetworkKind.CONTROL].items() if k != "total_steps"}
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        cfg = appo.Config(
            **preset,
            env_id="myoElbowPose1D6MRandom-v0",
            success_key="solved",
            return_window=50,
            total_steps=80_000,
            seed=1,
            device="cpu",
            progress=False,
            tensorboard=False,
            plot=False,
            checkpoint_every=0,
            run_dir=str(tmp_path),
        )
        result = appo.train(cfg)
    finally:
        torch.set_num_threads(threads)
    assert result["recent_success"] >= 0.9, f"solved in {result['recent_success']:.0%} of the last 50 episodes after {result['global_step']} steps"
    assert envpool_lite.make_spec("myoElbowPose1D6MRandom-v0").max_episode_steps == 100
