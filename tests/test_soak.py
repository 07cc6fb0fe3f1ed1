"""The short soak (scripts/soak.py --short): flat memory over a long run and
no leaked threads, fds, children or /dev/shm entries over create/close
cycles, for every env family that is built."""

import importlib.util
import sys
from pathlib import Path

import pytest


@pytest.mark.alone
def test_short_soak(capsys):
    path = Path(__file__).resolve().parents[1] / "scripts" / "soak.py"
    spec = importlib.util.spec_from_file_location("soak", path)
    soak = importlib.util.module_from_spec(spec)
    sys.modules["soak"] = soak
    spec.loader.exec_module(soak)
    code = soak.main(["--short"])
    out = capsys.readouterr().out
    print(out)
    assert "long run" in out and "cycles" in out
    assert code == 0, out
