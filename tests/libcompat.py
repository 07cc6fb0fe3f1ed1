"""Running code of the libraries that import EnvPool by name (TorchRL,
Tianshou, rl_games, ...) against envpool_lite, as their users run it.

Each library and the dependencies the venv lacks are installed by
scripts/setup_compat.sh (make test runs it) into build/compat/<group>, and
`envpool` (compat/envpool, pip-installed into build/compat/envpool) is
envpool_lite. A test runs its code in a subprocess with those on PYTHONPATH:
the venv also has the real EnvPool (the reference of other tests) and one
group's pins (gym 0.23.1 or 0.26.2) must not meet another's.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# scripts/setup_compat.sh's folder for this Python (some groups hold compiled
# modules): build/compat for the main one, 3.11, build/compat-X.Y for others.
PYTHON = f"{sys.version_info[0]}.{sys.version_info[1]}"
COMPAT = ROOT / "build" / ("compat" if PYTHON == "3.11" else f"compat-{PYTHON}")

# PyTorch's CPU build is on this machine for Python 3.11 only; on another
# Python pip would fetch a CUDA build of several GB, so make test
# PYTHON=3.12 (or 3.13) installs none, and the tests that need it (trainers/,
# and the libraries that train with it) are skipped with this reason.
NO_TORCH = f"needs PyTorch, not installed on Python {PYTHON}: its CPU build is on this machine for Python 3.11 only (other Pythons would download a CUDA build of several GB)"
HAS_TORCH = importlib.util.find_spec("torch") is not None
# The groups whose library imports torch.
TORCH_GROUPS = frozenset({"torchrl", "tianshou", "sample_factory", "di_engine", "rl_games", "jax_scripts"})

# Every snippet starts by checking that `envpool` is ours.
_PRELUDE = f"""
import envpool
assert envpool.__file__.startswith({str(COMPAT / "envpool")!r}), envpool.__file__
"""


def _same(a: Path, b: Path) -> bool:
    return b.is_file() and a.read_bytes() == b.read_bytes()


def run_with(groups: tuple[str, ...], code: str, timeout: int = 900) -> str:
    """Run `code` in a fresh interpreter with build/compat/<group> for each
    group (first wins) and the `envpool` module on the path; return its
    stdout, or fail with its stderr. Skipped (failed under CI) when
    scripts/setup_compat.sh has not run."""
    if not HAS_TORCH and TORCH_GROUPS.intersection(groups):
        pytest.skip(NO_TORCH)
    paths = [COMPAT / g for g in groups] + [COMPAT / "envpool"]
    missing = [str(p) for p in paths if not p.is_dir()]
    if not missing:
        # The installed module must be compat/envpool as it is now.
        source = ROOT / "compat" / "envpool" / "envpool"
        stale = [str(f.relative_to(source)) for f in source.rglob("*.py") if not _same(f, COMPAT / "envpool" / "envpool" / f.relative_to(source))]
        if stale:
            pytest.fail(f"build/compat/envpool is older than compat/envpool ({', '.join(stale)}): run bash scripts/setup_compat.sh")
    if missing:
        message = f"not installed: {', '.join(missing)} (run: bash scripts/setup_compat.sh)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(p) for p in paths), "PYTHONWARNINGS": "ignore"}
    source = _PRELUDE + textwrap.dedent(code)
    result = subprocess.run([sys.executable, "-c", source], env=env, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    assert result.returncode == 0, f"exit {result.returncode}\n--- stdout\n{result.stdout[-3000:]}\n--- stderr\n{result.stderr[-6000:]}"
    return result.stdout
