"""Smoke test of benchmarks/fps.py: a tiny --quick run writes a well-formed
JSON with positive figures. No speed is asserted."""

import importlib.util
import json
import math
import re
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))  # fps.py's modules: fps_tasks, fps_report, peers/


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


def test_mujoco_task_box_actions_on_every_system(fps, tmp_path):
    """A MuJoCo task (Box actions): every system that runs it gets float32
    actions within the bounds, and the single-thread limit is measured."""
    envpool_lite = pytest.importorskip("envpool_lite")
    if "Ant-v5" not in envpool_lite.list_all_envs() or not envpool_lite._core.MUJOCO_VERSION:
        pytest.skip("built without MuJoCo")
    task = fps.TASKS["HalfCheetah-v5"]
    from peers.common import action_space, random_actions

    actions = random_actions(task, 3, np.random.default_rng(0), count=2)
    space = action_space(task)
    assert [a.shape for a in actions] == [(3, 6)] * 2 and all(a.dtype == np.float32 and space.contains(a[0]) for a in actions)
    out = tmp_path / "fps.json"
    systems = "envpool_lite,envpool,gymnasium_loop,gymnasium_sync,gymnasium_async"
    fps.main(["--tasks", "HalfCheetah-v5", "--configs", "1:1:1,2:2:1", "--steps", "40", "--repeats", "1", "--systems", systems, "--out", str(out), "--no-plot"])
    report = json.loads(out.read_text())
    assert report["single_thread_limit_steps_per_s"]["HalfCheetah-v5"] > 0
    ran = {(r["system"], r["num_envs"]) for r in report["results"]}
    assert ran >= {("envpool_lite", 1), ("envpool_lite", 2), ("gymnasium_loop", 1), ("gymnasium_sync", 2), ("gymnasium_async", 2)}
    for r in report["results"]:
        assert r["steps_per_s"] > 0 and r["frames_per_s"] == r["steps_per_s"] * 5  # frame_skip 5


def test_a_missing_peer_is_skipped_not_an_error(fps, tmp_path, monkeypatch):
    def missing(task, cfg, steps):
        raise fps.Skip("not installed")

    monkeypatch.setitem(fps.SYSTEMS, "envpool", missing)
    out = tmp_path / "fps.json"
    fps.main(["--tasks", "CartPole-v1", "--configs", "2:2:1", "--steps", "200", "--repeats", "1", "--systems", "envpool_lite,envpool", "--out", str(out), "--no-plot"])
    report = json.loads(out.read_text())
    assert [r["system"] for r in report["results"]] == ["envpool_lite"]
    assert any("envpool" in n for n in report["notes"])


def test_out_may_be_a_directory_and_progress_shows_without_a_terminal(fps, tmp_path, capsys):
    out_dir = tmp_path / "results"  # no suffix: a directory, created
    fps.main(["--tasks", "CartPole-v1", "--configs", "2:2:1", "--steps", "200", "--repeats", "2", "--systems", "envpool_lite,gymnasium_sync", "--out", str(out_dir)])
    assert (out_dir / "fps.json").is_file() and (out_dir / "fps.png").is_file()
    printed = capsys.readouterr().out
    # Not a terminal: a plain line per measurement (2 repeats x 2 systems).
    progress = [line for line in printed.splitlines() if re.match(r"\[\d+/4 \d+:\d\d\] CartPole-v1 envs=2 .*: [\d,]+ steps/s$", line)]
    assert len(progress) == 4, printed
    assert "single-thread limit" in printed


@pytest.mark.parametrize(
    "args,message",
    [
        (["--configs", "16:8"], "--configs"),
        (["--configs", "a:b:c"], "--configs"),
        (["--configs", "4:8:1"], "--configs"),
        (["--repeats", "0"], "--repeats"),
        (["--steps", "-5"], "--steps"),
        (["--tasks", "Nope-v0"], "--tasks"),
        (["--systems", "nope"], "--systems"),
        (["--quick", "--full"], "not allowed with"),
        (["--out", "/proc/fps.json"], "--out"),
    ],
)
def test_bad_arguments_get_one_line(fps, capsys, args, message):
    with pytest.raises(SystemExit) as e:
        fps.main(args)
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0] and "Traceback" not in err[0], err


def _row(task, system, envs, batch, threads, sweep="point", rate=100.0):
    return {"task": task, "system": system, "num_envs": envs, "batch_size": batch, "num_threads": threads, "sweep": sweep, "steps_per_s": rate, "min": rate * 0.9, "max": rate * 1.1}


@pytest.mark.parametrize("with_sweep", [False, True])
def test_plot_has_no_empty_panel(fps, with_sweep):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [_row(t, s, *c) for t in ("CartPole-v1", "Pong-v5") for s in ("envpool_lite", "envpool") for c in ((1, 1, 1), (16, 8, 2))]
    if with_sweep:  # only CartPole has a thread sweep
        rows += [_row("CartPole-v1", s, 256, 128, t, "threads") for s in ("envpool_lite", "envpool") for t in (1, 2)]
    report = {"results": rows, "machine": {"cores": 2, "cpu": "test"}, "repeats": 3, "single_thread_limit_steps_per_s": {"CartPole-v1": 1e6, "Pong-v5": 4e3}}
    import fps_report

    fig = fps_report.figure(report, plt)
    axes = fig.get_axes()
    assert len(axes) == (3 if with_sweep else 2)  # a bar panel per task, plus CartPole's sweep
    for ax in axes:
        assert ax.patches or ax.lines, ax.get_title()  # every panel has data
    ratios = [t.get_text() for ax in axes for t in ax.texts]
    assert ratios.count("1.00x") == 4  # our bar, per task and setting, carries its ratio to EnvPool
    plt.close(fig)


def test_a_peer_whose_import_fails_is_skipped_with_a_note(fps, tmp_path, monkeypatch):
    """A peer missing an optional part (gymnasium's MuJoCo envs without
    imageio) is skipped with a one-line note; the run goes on and writes its
    results."""

    def broken(task, cfg, steps):
        raise ModuleNotFoundError("No module named 'imageio'", name="imageio")

    monkeypatch.setitem(fps.SYSTEMS, "gymnasium_loop", broken)
    out = tmp_path / "fps.json"
    fps.main(["--tasks", "CartPole-v1", "--configs", "1:1:1", "--steps", "200", "--repeats", "1", "--systems", "envpool_lite,gymnasium_loop", "--out", str(out), "--no-plot"])
    report = json.loads(out.read_text())
    assert "gymnasium_loop: skipped (imageio is not installed (ModuleNotFoundError))" in report["notes"]
    assert {r["system"] for r in report["results"]} == {"envpool_lite"}


def test_envpool_lite_errors_are_not_skipped(fps, tmp_path, monkeypatch):
    def broken(task, cfg, steps, num_workers=0):
        raise ModuleNotFoundError("No module named 'envpool_lite._core'", name="envpool_lite._core")

    monkeypatch.setitem(fps.SYSTEMS, "envpool_lite", broken)
    with pytest.raises(ModuleNotFoundError):
        fps.main(["--tasks", "CartPole-v1", "--configs", "1:1:1", "--steps", "200", "--repeats", "1", "--systems", "envpool_lite", "--out", str(tmp_path / "f.json"), "--no-plot"])


def test_peers_left_out_are_one_line_per_task(fps, tmp_path, capsys):
    """The log has a line for each measurement that ran, and one line per
    task naming the peers left out and why (no line per skipped
    measurement); the JSON's notes are as before."""
    out = tmp_path / "fps.json"
    systems = "envpool_lite,gymnasium_loop,gymnasium_sync,vizdoom_gym"
    fps.main(["--tasks", "CartPole-v1", "--configs", "1:1:1,2:2:1", "--steps", "200", "--repeats", "2", "--systems", systems, "--out", str(out), "--no-plot"])
    printed = capsys.readouterr().out.splitlines()
    assert not [line for line in printed if "skipped" in line], printed
    measured = [line for line in printed if re.match(r"\[\d+/16 \d+:\d\d\] CartPole-v1 envs=.*: [\d,]+ steps/s$", line)]
    assert len(measured) == 8, printed  # envpool_lite twice a setting, gymnasium_loop at 1:1:1, gymnasium_sync at 2:2:1
    left_out = [line for line in printed if "left out" in line]
    assert len(left_out) == 1, printed
    assert left_out[0].endswith("CartPole-v1: left out: gymnasium_sync (one env: see gymnasium_loop, at 1:1:1); vizdoom_gym (not a ViZDoom task); gymnasium_loop (a single env loop, at 2:2:1)"), (
        left_out[0]
    )


def test_describe_left_out(fps):
    assert fps.describe_left_out({"a": {"x": ["1:1:1", "2:2:1"]}, "b": {"y": ["1:1:1"], "z": ["2:2:1"]}}, 2) == "a (x); b (y, at 1:1:1; z, at 2:2:1)"


def test_tasks_come_from_their_families(fps):
    """fps.py's tasks are the families' (Family.benchmark_tasks, collected by
    benchmarks/fps_tasks.py): each declared by the plug-in of the family its
    task id is registered in, and no name twice."""
    import fps_tasks

    from envpool_lite import _core, families

    registered = set(_core.list_tasks())
    declared = []
    for name in fps_tasks.FAMILIES:
        for task in families.plugin(name).benchmark_tasks:
            declared.append(task.name)
            if task.make_id in registered:  # a build without MuJoCo has no MuJoCo task
                assert families.family_of(task.make_id) == name, task
    assert sorted(declared) == sorted(fps.TASKS)
