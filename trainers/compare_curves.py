"""One plot of full-game return against wall-clock and against frames, for
an appo.py run (its progress.json) beside CleanRL runs (their TensorBoard
events), and the curves as JSON.

    python trainers/compare_curves.py --appo runs/<run> --cleanrl cleanrl/runs/<run> \
        --minutes 60 --out trainers/results/pong_60min

Each curve is the mean of the last `--window` whole games, the way appo.py
reports it (CleanRL logs each game's unclipped score as
charts/episodic_return). Wall-clock: appo.py's from its first sample,
CleanRL's from its SummaryWriter (made before its envs). Both are cut at
`--minutes`.

`--previous` carries curves over from an earlier OUT.json (for example the
CleanRL run of an earlier session, beside a new appo.py run), and `--rename`
renames its curves (an earlier appo.py run beside a new one).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np


def appo_curve(run: Path, limit_s: float) -> dict:
    """progress.json's per-update rows: time, frames, the recent mean return."""
    progress = json.loads((run / "progress.json").read_text())  # strict JSON: inf and NaN are null
    rows = [r for r in progress["updates"] if r["time"] <= limit_s and r["games"] > 0]
    last = progress["updates"][-1] if progress["updates"] else {}
    return dict(
        time_s=[r["time"] for r in rows], frames=[r["frames"] for r in rows], mean_return=[r["recent_return"] for r in rows],
        steps_per_s=last.get("sps"), learner_wait_fraction=last.get("learner_wait_fraction"),
        policy_lag=float(np.mean([r["policy_lag"] for r in progress["updates"]])) if progress["updates"] else None,
        config=progress["config"],
    )  # fmt: skip


def cleanrl_curve(run: Path, limit_s: float, window: int, frame_skip: int) -> dict:
    """charts/episodic_return (one point per game, at its global step) with each event's wall time."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(str(run), size_guidance={"scalars": 0})
    events.Reload()
    start = events.FirstEventTimestamp()
    games = [e for e in events.Scalars("charts/episodic_return") if e.wall_time - start <= limit_s]
    returns = np.array([e.value for e in games])
    mean = [float(returns[max(0, i - window + 1) : i + 1].mean()) for i in range(len(returns))]
    sps = [e for e in events.Scalars("charts/SPS") if e.wall_time - start <= limit_s]
    return dict(
        time_s=[e.wall_time - start for e in games], frames=[e.step * frame_skip for e in games], mean_return=mean,
        steps_per_s=sps[-1].value if sps else None,
    )  # fmt: skip


def plot(curves: dict, path: Path, title: str, minutes: float, target: float | None) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (by_time, by_frames) = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for name, c in curves.items():
        by_time.plot(np.array(c["time_s"]) / 60, c["mean_return"], label=name)
        by_frames.plot(np.array(c["frames"]) / 1e6, c["mean_return"], label=name)
    by_time.set_xlabel("wall-clock (minutes)")
    by_time.set_xlim(0, minutes)
    by_frames.set_xlabel("frames (millions)")
    by_time.set_ylabel("mean full-game return (last games)")
    for ax in (by_time, by_frames):
        if target is not None:
            ax.axhline(target, color="gray", linestyle="--", linewidth=1, label=f"target {target:+g}")
        ax.grid(alpha=0.3)
        ax.legend(loc="upper left", fontsize="small")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--appo", type=Path, nargs="*", default=[], help="appo.py run directories")
    parser.add_argument("--cleanrl", type=Path, nargs="*", default=[], help="CleanRL run directories (TensorBoard events)")
    parser.add_argument("--previous", type=Path, nargs="*", default=[], help="earlier OUT.json files whose curves are plotted too")
    parser.add_argument("--rename", nargs=2, action="append", default=[], metavar=("OLD", "NEW"), help="a new name for a curve of --previous")
    parser.add_argument("--minutes", type=float, default=60.0, help="cut every curve at this wall-clock")
    parser.add_argument("--window", type=int, default=20, help="games in each mean")
    parser.add_argument("--frame-skip", type=int, default=4, help="frames per agent step (CleanRL's curves)")
    parser.add_argument("--title", default="Pong-v5 on 2 CPU cores")
    parser.add_argument("--target", type=float, default=None, help="a dashed line at this return")
    parser.add_argument("--out", type=Path, required=True, help="writes OUT.png and OUT.json")
    args = parser.parse_args(argv)
    limit = args.minutes * 60
    curves, runs = {}, []
    renames = dict(args.rename)
    for previous in args.previous:
        earlier = json.loads(previous.read_text())
        curves.update({renames.get(name, name): c for name, c in earlier["curves"].items()})
        runs += earlier["runs"]
    for i, run in enumerate(args.appo):
        curves["appo.py" + (f" #{i + 1}" if len(args.appo) > 1 else "")] = appo_curve(run, limit)
    for i, run in enumerate(args.cleanrl):
        curves["CleanRL ppo_atari_envpool" + (f" #{i + 1}" if len(args.cleanrl) > 1 else "")] = cleanrl_curve(run, limit, args.window, args.frame_skip)
    runs += [str(r) for r in args.appo + args.cleanrl]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    plot(curves, args.out.with_suffix(".png"), args.title, args.minutes, args.target)
    args.out.with_suffix(".json").write_text(json.dumps(dict(minutes=args.minutes, window=args.window, runs=runs, curves=curves)))
    for name, c in curves.items():
        final = c["mean_return"][-1] if c["mean_return"] else float("nan")
        best = max(c["mean_return"]) if c["mean_return"] else float("nan")
        print(f"{name}: at {args.minutes:g} min {final:.1f} (best {best:.1f}), {c['frames'][-1] if c['frames'] else 0:,} frames")


if __name__ == "__main__":
    main()
