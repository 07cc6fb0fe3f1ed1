"""The wheel against the editable build: the same fps.py measurement (envpool_lite
and EnvPool side by side) run alternately in the developer's .venv (the
editable build) and in a venv of the same Python with the wheel of
`make wheels` installed, ROUNDS times each; the wheel is built with the same
CMake and flags, so each install's ratio to EnvPool should agree within
noise. Prints each install's median steps/s and ratio per task.

    .venv/bin/python benchmarks/wheel_vs_editable.py            # Pong-v5, HalfCheetah-v5, CartPole-v1 at 16:8:2, 3 rounds
    .venv/bin/python benchmarks/wheel_vs_editable.py --rounds 5 --configs 16:8:2,1:1:1
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def wheel_venv(python: str) -> Path:
    """build/wheels/bench-X.Y: a venv of the editable build's Python with
    dist/'s wheel for it and the benchmark's peers (made once; the wheel
    reinstalled every time)."""
    version = subprocess.run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True, text=True, check=True).stdout.strip()
    tag = "cp" + version.replace(".", "")
    wheels = sorted(ROOT.glob(f"dist/envpool_lite-*-{tag}-{tag}-manylinux*.whl"))
    if not wheels:
        sys.exit(f"no {tag} wheel in dist/: make wheels WHEEL_PYTHONS={version}")
    venv = ROOT / "build" / "wheels" / f"bench-{version}"
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
    if not (venv / "bin" / "python").exists():
        subprocess.run([python, "-m", "venv", str(venv)], check=True)
        subprocess.run([*pip, f"{wheels[-1]}[all,bench,test]"], check=True)
    subprocess.run([*pip, "--force-reinstall", "--no-deps", str(wheels[-1])], check=True)
    return venv / "bin" / "python"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", default="Pong-v5,HalfCheetah-v5,CartPole-v1")
    parser.add_argument("--configs", default="16:8:2")
    parser.add_argument("--rounds", type=int, default=3, help="fps.py runs per install, alternating")
    parser.add_argument("--repeats", type=int, default=3, help="fps.py's --repeats")
    args = parser.parse_args()
    installs = {"editable": Path(sys.executable), "wheel": wheel_venv(sys.executable)}
    results: dict[str, dict[str, list[tuple[float, float]]]] = {name: {} for name in installs}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            for name, python in installs.items():
                out = Path(tmp) / f"{name}-{r}.json"
                cmd = [str(python), str(ROOT / "benchmarks" / "fps.py"), "--systems", "envpool_lite,envpool", "--tasks", args.tasks, "--configs", args.configs]
                cmd += ["--repeats", str(args.repeats), "--no-plot", "--out", str(out)]
                print(f"round {r + 1}/{args.rounds}: {name} ({python})", flush=True)
                subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
                rows = json.loads(out.read_text())["results"]
                by_system = {(row["system"], f"{row['task']} {row['num_envs']}:{row['batch_size']}:{row['num_threads']}"): row["steps_per_s"] for row in rows}
                for (system, key), steps in by_system.items():
                    if system == "envpool_lite":
                        results[name].setdefault(key, []).append((steps, steps / by_system["envpool", key]))
    print(f"\nmedians of {args.rounds} runs (each run: fps.py's median of {args.repeats}), steps/s and the ratio to EnvPool measured in the same run")
    print(f"{'task':<24}{'editable':>12}{'ratio':>8}{'wheel':>12}{'ratio':>8}{'wheel/editable':>16}")
    for key in results["editable"]:
        e = results["editable"][key]
        w = results["wheel"][key]
        es, er = statistics.median(x[0] for x in e), statistics.median(x[1] for x in e)
        ws, wr = statistics.median(x[0] for x in w), statistics.median(x[1] for x in w)
        print(f"{key:<24}{es:>12,.0f}{er:>7.2f}x{ws:>12,.0f}{wr:>7.2f}x{ws / es:>15.2f}x")
        print(f"{'':<24}ratios per run: editable {', '.join(f'{x[1]:.2f}' for x in e)}; wheel {', '.join(f'{x[1]:.2f}' for x in w)}")


if __name__ == "__main__":
    main()
