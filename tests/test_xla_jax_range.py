"""xla() on the oldest jax with jax.ffi (0.5.0), beside the newest one the
rest of the suite runs (the test extra's pin).

XLA accepts FFI handlers compiled against its own headers or older ones,
never newer ones: handlers built against jax 0.10.2's headers are refused by
jax 0.5.0 ("API version 0.3 is incompatible with the framework's 0.1"). So
this test fetches jax and jaxlib 0.5.0 from the package index (once, into
build/), compiles cpp/xla/xla_ffi.cc against that jaxlib's headers, and runs
tests/test_xla.py in a process that imports jax 0.5.0 and loads that library
(ENVPOOL_LITE_XLA_LIBRARY). The same library is then run under the newest
jax too: built against the oldest headers, it serves the whole range.
"""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("jax.ffi")
from envpool_lite.xla import built_with_jax  # noqa: E402

OLDEST = "0.5.0"  # the first jax with jax.ffi (0.4.x had jax.extend.ffi)
ROOT = pathlib.Path(__file__).resolve().parents[1]
# jaxlib is compiled per Python: one folder per Python (3.11 keeps the old one).
_PYTHON = f"{sys.version_info[0]}.{sys.version_info[1]}"
CACHE = ROOT / "build" / (f"jax-{OLDEST}" if _PYTHON == "3.11" else f"jax-{OLDEST}-py{_PYTHON}")


def _oldest_jax() -> pathlib.Path:
    """jax and jaxlib OLDEST installed (no dependencies: the venv's numpy,
    ml_dtypes, opt_einsum and scipy serve) into build/, once."""
    site = CACHE / "site"
    if not (site / "jaxlib" / "include" / "xla" / "ffi" / "api" / "ffi.h").exists():
        shutil.rmtree(site, ignore_errors=True)
        cmd = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), f"jax=={OLDEST}", f"jaxlib=={OLDEST}"]
        result = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        if result.returncode != 0:
            pytest.fail(f"could not fetch jax {OLDEST}: {result.stderr[-2000:]}")
    return site


def _handlers(site: pathlib.Path) -> pathlib.Path:
    """cpp/xla/xla_ffi.cc compiled against jaxlib OLDEST's headers."""
    library = CACHE / "libenvpool_lite_xla.so"
    source = ROOT / "cpp" / "xla" / "xla_ffi.cc"
    if not library.exists() or library.stat().st_mtime < source.stat().st_mtime:
        compiler = os.environ.get("CXX", "g++")
        cmd = [
            compiler, "-std=c++17", "-O2", "-shared", "-fPIC",
            "-I", str(ROOT / "cpp"), "-isystem", str(site / "jaxlib" / "include"),
            f'-DENVPOOL_LITE_XLA_JAX_VERSION="{OLDEST}"', str(source), "-o", str(library),
        ]  # fmt: skip
        result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr[-3000:]
    return library


@pytest.mark.skipif(built_with_jax() is None, reason="envpool_lite was built without JAX (no xla())")
@pytest.mark.parametrize("runtime", ["oldest", "newest"])
def test_xla_suite_on_the_oldest_headers(runtime):
    site = _oldest_jax()
    library = _handlers(site)
    env = dict(os.environ, ENVPOOL_LITE_XLA_LIBRARY=str(library))
    if runtime == "oldest":
        env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    check = "import jax; print(jax.__version__)"
    version = subprocess.run([sys.executable, "-c", check], env=env, capture_output=True, text=True, timeout=300).stdout.strip()
    if runtime == "oldest":
        assert version == OLDEST, version
    else:
        assert version != OLDEST, version
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(ROOT / "tests" / "test_xla.py")]
    result = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert " passed" in result.stdout and "skipped" not in result.stdout.splitlines()[-1], result.stdout[-500:]


def test_newer_headers_than_the_running_jax_are_refused_clearly():
    """The package's own library (built against the test extra's jax) under
    jax 0.5.0: xla() says to rebuild, instead of XLA's backend error."""
    if built_with_jax() in (None, OLDEST):
        pytest.skip("needs the package built against a jax newer than the oldest")
    site = _oldest_jax()
    env = dict(os.environ, PYTHONPATH=str(site))
    env.pop("ENVPOOL_LITE_XLA_LIBRARY", None)
    code = "import envpool_lite\nenv = envpool_lite.make('CartPole-v1', env_type='gym', num_envs=1)\nenv.xla()\n"
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode != 0
    assert f"and this jax {OLDEST} is older" in result.stderr, result.stderr[-2000:]
