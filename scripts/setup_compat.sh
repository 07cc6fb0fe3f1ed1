#!/usr/bin/env bash
# The libraries that import EnvPool by name, for tests/test_lib_*.py: each
# group of tests/compat/<group>.txt (pinned, with the dependencies the venv
# lacks) is installed into build/compat/<group> with --no-deps, so that one
# group's pins (gym 0.23.1 for CleanRL, gym 0.26.2 for TorchRL) neither
# change the venv nor meet another group's. A test runs its library in a
# subprocess with PYTHONPATH=build/compat/<group>:build/compat/envpool.
# build/compat/envpool is compat/envpool installed by pip, as a user installs
# it. Idempotent: a group is reinstalled only when its list changed.
#
# PY (default .venv/bin/python) is the venv the tests run in: on Python 3.11
# the groups go to build/compat, on another Python X.Y to build/compat-X.Y
# (some groups hold compiled modules), and there without the groups whose
# library needs PyTorch when the venv has none (tests/libcompat.py's
# TORCH_GROUPS: their tests are skipped, saying why).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
version=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
compat=build/compat
[ "$version" = 3.11 ] || compat=build/compat-$version
skip_groups=""
if ! "$PY" -c "import torch" >/dev/null 2>&1; then
  skip_groups=$("$PY" -c "import sys; sys.path.insert(0, 'tests'); from libcompat import TORCH_GROUPS; print(' '.join(sorted(TORCH_GROUPS)))")
fi
# pip, without this machine's notes on index locations it skips.
pip_install() {
  "$PY" -m pip install -q --no-deps --disable-pip-version-check "$@" 2>&1 | { grep -v "is ignored: it is neither" || true; }
  return "${PIPESTATUS[0]}"
}
mkdir -p $compat

install_group() {  # name, then what pip installs
  local name=$1 dir=$compat/$1 stamp
  shift
  stamp=$(cat "$@" 2>/dev/null | sha256sum | cut -c1-16)
  if [ -f "$dir/.stamp" ] && [ "$(cat "$dir/.stamp")" = "$stamp" ]; then return; fi
  rm -rf "$dir"
  echo "setup_compat: installing $name into $dir"
  if ! pip_install --target "$dir" "${@/#/-r}"; then
    rm -rf "$dir"
    echo "setup_compat: could not install $name" >&2
    exit 1
  fi
  echo "$stamp" > "$dir/.stamp"
}

for req in tests/compat/*.txt; do
  group=$(basename "$req" .txt)
  if [[ " $skip_groups " == *" $group "* ]]; then
    echo "setup_compat: $group left out (it needs PyTorch, which this venv has not)"
    continue
  fi
  install_group "$group" "$req"
done

# procgen 0.10.7 (tests/compat/procgen_oracle.txt says why): its CPython 3.10
# wheel, by name, into the procgen_oracle group; again whenever that group
# was reinstalled.
if [ ! -f $compat/procgen_oracle/procgen/version.txt ]; then
  echo "setup_compat: installing procgen==0.10.7 into $compat/procgen_oracle"
  pip_install --target $compat/procgen_oracle --only-binary=:all: \
    --python-version 3.10 --implementation cp --abi cp310 \
    --platform manylinux2014_x86_64 procgen==0.10.7
fi

# The `envpool` module itself, installed from its directory as a user would
# (reinstalled every time: it is ours and small).
rm -rf $compat/envpool
pip_install --target $compat/envpool ./compat/envpool
