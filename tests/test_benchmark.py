"""Smoke test of benchmarks/fps.py: a tiny --quick run writes a well-formed
JSON with positive figures. No speed is asserted."""

import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def fps():
    spec = importlib.util.spec_from_file_location("fps", ROOT / "benchmarks" / "fps.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["fps"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_quick_run_writes_complete_json(fps, tmp_path):
    out = tmp_path / "fps.json"
    systems = "envpool_lite,envpool,gymnasium_loop,gymnasium_sync,gymnasium_async"
    fps.main(["--quick", "--tasks", "CartPole-v1", "--configs", "1:1:1,4:4:1,8:4:2", "--steps", "400", "--repeats", "2", "--systems", systems, "--out", str(out)])
    report = json.loads(out.read_text())
    assert set(report) >= {"command", "machine", "versions", "repeats", "single_thread_limit_steps_per_s", "notes", "results"}
    assert report["machine"]["cores"] >= 1 and report["machine"]["cpu"]
    assert "envpool_lite" in report["versions"] and "gymnasium" in report["versions"]
    assert "--quick" in report["command"]
    assert report["single_thread_limit_steps_per_s"]["CartPole-v1"] > 0
    rows = report["results"]
    ours = [r for r in rows if r["system"] == "envpool_lite"]
    assert len(ours) == 3  # every configuration
    assert {r["system"] for r in rows} >= {"envpool_lite", "gymnasium_loop", "gymnasium_sync"}
    for r in rows:
        assert set(r) >= {"task", "system", "num_envs", "batch_size", "num_threads", "mode", "steps_per_s", "frames_per_s", "min", "max", "runs", "efficiency"}
        assert len(r["runs"]) == 2
        for key in ("steps_per_s", "frames_per_s", "min", "max", "efficiency"):
            assert r[key] > 0 and math.isfinite(r[key])
        assert r["min"] <= r["steps_per_s"] <= r["max"]
        assert r["mode"] == ("sync" if r["num_envs"] == r["batch_size"] else "async")


def test_a_missing_peer_is_skipped_not_an_error(fps, tmp_path, monkeypatch):
    def missing(task, cfg, steps):
        raise fps.Skip("not installed")

    monkeypatch.setitem(fps.SYSTEMS, "envpool", missing)
    out = tmp_path / "fps.json"
    fps.main(["--tasks", "CartPole-v1", "--configs", "2:2:1", "--steps", "200", "--repeats", "1", "--systems", "envpool_lite,envpool", "--out", str(out), "--no-plot"])
    report = json.loads(out.read_text())
    assert [r["system"] for r in report["results"]] == ["envpool_lite"]
    assert any("envpool" in n for n in report["notes"])
