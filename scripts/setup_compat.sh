#!/usr/bin/env bash
# The libraries that import EnvPool by name, for tests/test_lib_*.py: each
# group of tests/compat/<group>.txt (pinned, with the dependencies the venv
# lacks) is installed into build/compat/<group> with --no-deps, so that one
# group's pins (gym 0.23.1 for CleanRL, gym 0.26.2 for TorchRL) neither
# change the venv nor meet another group's. A test runs its library in a
# subprocess with PYTHONPATH=build/compat/<group>:build/compat/envpool.
# build/compat/envpool is compat/envpool installed by pip, as a user installs
# it. Idempotent: a group is reinstalled only when its list changed.
set -euo pipefail
cd "$(dirname "$0")/.."
# pip, without this machine's notes on index locations it skips.
pip_install() {
  .venv/bin/python -m pip install -q --no-deps --disable-pip-version-check "$@" 2>&1 | { grep -v "is ignored: it is neither" || true; }
  return "${PIPESTATUS[0]}"
}
mkdir -p build/compat

install_group() {  # name, then what pip installs
  local name=$1 dir=build/compat/$1 stamp
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
  install_group "$(basename "$req" .txt)" "$req"
done

# procgen 0.10.7 (tests/compat/procgen_oracle.txt says why): its CPython 3.10
# wheel, by name, into the procgen_oracle group; again whenever that group
# was reinstalled.
if [ ! -f build/compat/procgen_oracle/procgen/version.txt ]; then
  echo "setup_compat: installing procgen==0.10.7 into build/compat/procgen_oracle"
  pip_install --target build/compat/procgen_oracle --only-binary=:all: \
    --python-version 3.10 --implementation cp --abi cp310 \
    --platform manylinux2014_x86_64 procgen==0.10.7
fi

# The `envpool` module itself, installed from its directory as a user would
# (reinstalled every time: it is ours and small).
rm -rf build/compat/envpool
pip_install --target build/compat/envpool ./compat/envpool
