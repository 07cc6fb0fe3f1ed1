#!/usr/bin/env bash
# Sets up a fresh Debian machine for envpool_lite: system packages, a
# virtual environment, and envpool_lite in it. Idempotent; `make test` and
# `make bench` call it.
#
# PYTHON (default 3.11) picks the CPython (scripts/find_python.sh finds it):
# - 3.11: the developer's environment, .venv, with the build as an editable
#   install (a re-run rebuilds only what changed) and every extra;
# - another X.Y (3.12, 3.13): .venv-X.Y with the wheel of `make wheels`
#   for that Python installed from dist/ (built first when it is missing or
#   older than the sources), as a user installs it, with every extra but
#   the trainers' (PyTorch: see tests/libcompat.py's NO_TORCH).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-3.11}
interpreter=$(scripts/find_python.sh "$PYTHON")
version=$("$interpreter" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
venv=.venv
[ "$version" = 3.11 ] || venv=.venv-$version

# System packages: a C++20 compiler and make. Installed only when missing.
missing=()
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v make >/dev/null 2>&1 || missing+=(make)
"$interpreter" -c "import venv, ensurepip" >/dev/null 2>&1 || missing+=(python3-venv)
# ALE (third_party/ale.cmake) needs zlib's header.
[ -f /usr/include/zlib.h ] || missing+=(zlib1g-dev)
# ViZDoom's client library (third_party/vizdoom.cmake) builds against Boost.
if command -v dpkg-query >/dev/null 2>&1; then
  for pkg in libboost-filesystem-dev libboost-thread-dev libboost-system-dev libboost-date-time-dev \
             libboost-chrono-dev libboost-regex-dev libboost-iostreams-dev; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
  done
fi
# MuJoCo's rendering (render_mode="rgb_array") needs a headless OpenGL
# backend: OSMesa (software) works on any machine; EGL is used where it works.
if command -v dpkg-query >/dev/null 2>&1; then
  dpkg-query -W -f='${Status}' libosmesa6 2>/dev/null | grep -q "ok installed" || missing+=(libosmesa6)
fi
# The benchmark's peer EnvPool 1.2.5 runs its Procgen envs on the system's Qt 5
# (envpool_lite's Procgen needs none: procgen's libenv.so has Qt built in).
if command -v dpkg-query >/dev/null 2>&1; then
  dpkg-query -W -f='${Status}' libqt5gui5 2>/dev/null | grep -q "ok installed" || missing+=(libqt5gui5)
fi
# tests/test_multihost.py's cluster of network namespaces (scripts/netns_cluster.sh).
command -v ip >/dev/null 2>&1 || missing+=(iproute2)
# The compiler cache the builds share (scripts/compiler_cache.sh).
command -v ccache >/dev/null 2>&1 || missing+=(ccache)
if ((${#missing[@]})); then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ ! -x $venv/bin/python ]; then
  "$interpreter" -m venv $venv
fi
$venv/bin/python -m pip install -q --upgrade pip

if [ "$version" != 3.11 ]; then
  tag=cp${version/./}
  wheel=$(ls dist/envpool_lite-*-$tag-$tag-manylinux*.whl 2>/dev/null | head -1 || true)
  if [ -z "$wheel" ] || [ -n "$(find cpp python third_party CMakeLists.txt pyproject.toml -newer "$wheel" -type f -print -quit)" ]; then
    bash scripts/build_wheels.sh "$version"
    wheel=$(ls dist/envpool_lite-*-$tag-$tag-manylinux*.whl | head -1)
  fi
  # cmake and ninja: make test-cpp's build of the C++ unit tests.
  $venv/bin/python -m pip install -q "cmake>=3.20" ninja wheel
  # The wheel (reinstalled: its version does not change with the sources),
  # then every extra the tests use.
  $venv/bin/python -m pip install -q --force-reinstall --no-deps "$wheel"
  $venv/bin/python -m pip install -q "$wheel[all,test,bench,ray]"
  # Python 3.13: the dm_control extra installs dm_control's requirements but
  # not dm_control, whose labmaze has no wheel there (pyproject.toml).
  if ! $venv/bin/python -c "import dm_control" >/dev/null 2>&1; then
    $venv/bin/python -m pip install -q --no-deps "$(grep -o '"dm_control==[0-9.]*' pyproject.toml | head -1 | tr -d '"')"
  fi
  # Meta-World's models: metaworld without its dependencies (it pins the
  # MuJoCo its family brings itself; python/envpool_lite/families/metaworld.py).
  $venv/bin/python -m pip install -q --no-deps "$(grep -o 'metaworld==[0-9.]*' pyproject.toml | head -1)"
  # MyoSuite's models, the same way (python/envpool_lite/families/myosuite.py).
  $venv/bin/python -m pip install -q --no-deps "$(grep -o 'myosuite==[0-9.]*' pyproject.toml | head -1)"
  exit 0
fi
. scripts/compiler_cache.sh
# Build requirements live in the venv so rebuilds are incremental
# (--no-build-isolation reuses build/ between runs).
$venv/bin/python -m pip install -q "scikit-build-core>=0.10" "pybind11>=2.12" "cmake>=3.20" ninja
# wheel: vizdoom's source distribution (third_party/vizdoom.cmake fetches it
# without build isolation) needs it to report its metadata.
$venv/bin/python -m pip install -q wheel
# PyTorch for trainers/ first: 2.13.0 is the CPU build this machine image
# carries (any other version pulls CUDA wheels), and it then satisfies the
# trainers extra's plain "torch".
$venv/bin/python -c "import torch" >/dev/null 2>&1 || $venv/bin/python -m pip install -q "torch==2.13.0"
# MuJoCo (third_party/mujoco.cmake) builds against the headers of the mujoco
# wheel that pyproject.toml pins and numpy's random C library: both must be
# in the venv before the build.
$venv/bin/python -m pip install -q numpy "$(grep -o '"mujoco==[^"]*"' pyproject.toml | head -1 | tr -d '"')"
# xla() (python/envpool_lite/xla.py): its XLA FFI handlers compile against
# the headers of the installed jaxlib, so the test extra's jax comes first.
$venv/bin/python -m pip install -q "$(grep -o '"jax==[^"]*"' pyproject.toml | head -1 | tr -d '"')"
# pygame and pygame-ce both install the module `pygame`: gymnasium draws
# with pygame-ce, and a venv that once had pygame gets pygame-ce's files back.
if $venv/bin/python -m pip show -q pygame >/dev/null 2>&1; then
  $venv/bin/python -m pip uninstall -q -y pygame
  $venv/bin/python -m pip install -q --force-reinstall --no-deps "$(grep -o '"pygame-ce==[^"]*"' pyproject.toml | head -1 | tr -d '"')"
fi
$venv/bin/python -m pip install -q --no-build-isolation -e ".[all,test,bench,trainers,ray,lint]"
# Meta-World's models: metaworld without its dependencies (it pins the
# MuJoCo its family brings itself; python/envpool_lite/families/metaworld.py).
$venv/bin/python -m pip install -q --no-deps "$(grep -o 'metaworld==[0-9.]*' pyproject.toml | head -1)"
# MyoSuite's models, the same way (python/envpool_lite/families/myosuite.py).
$venv/bin/python -m pip install -q --no-deps "$(grep -o 'myosuite==[0-9.]*' pyproject.toml | head -1)"
