#!/usr/bin/env bash
# make cleanroom: each wheel of `make wheels` installed, as a user installs
# it, into a fresh Debian 12 root that has Debian's python3 and python3-venv
# and nothing to build with (no compiler, no Boost, no headers), then a smoke
# test of every family and one alignment test of each against its reference
# (docs/install.md says what this proves).
#
# The arguments are the Pythons (default 3.11 3.12 3.13). 3.11 is Debian's
# own python3. Debian 12 has no 3.12 or 3.13: for those, this machine's
# CPython X.Y (scripts/find_python.sh: pyenv's, built from source against
# Debian's runtime libraries, which python3 already brought into the root)
# is copied into the root at the same path, and used like a system Python.
#
# The root is made once with debootstrap (minbase, from the mirror this
# machine's apt uses) and kept, outside the clone, in CLEANROOM_ROOT
# (default /var/cache/envpool_lite/cleanroom-bookworm), so that every clone
# on this machine (CI's are fresh) shares it, as the compiler cache is
# shared; its stamp names the packages it was made with, and a root made
# with others, or CLEAN=1, is made anew. What a run puts into it (the
# tests, each Python's venv) is made anew each run; pip's download cache
# in it is kept. Everything else happens inside it, with chroot: a venv per
# Python, the wheel from pip, the extras and the test requirements from the
# package index. Needs root (debootstrap, mount, chroot).
#
# Every Python gets the installs without and with the extras and the smoke
# test of every family; the first (ALIGN_PYTHON, default 3.11, Debian's
# own, whose wheel no other run installs) also gets the tests' references
# and one alignment test of each family. The 3.12 and 3.13 wheels ran
# those on this machine in make test-wheel: here they prove that the wheel
# needs nothing the root has not.
set -euo pipefail
cd "$(dirname "$0")/.."
base=build/cleanroom
root=${CLEANROOM_ROOT:-/var/cache/envpool_lite/cleanroom-bookworm}
root=$(realpath -m "$root")
pythons=("$@")
((${#pythons[@]})) || pythons=(3.11 3.12 3.13)
align_python=${ALIGN_PYTHON:-${pythons[0]}}
mkdir -p $base "$(dirname "$root")"
# One run at a time in the shared root.
exec 9>"$root.lock"
flock 9

# A run killed before its exit trap leaves this machine's /proc, /sys and
# /dev mounted in the root: unmount them first, so that nothing below ever
# deletes through them (and rm stays on the root's own file system).
unmount_stale() {
  local mnt
  for mnt in $(awk -v r="$root/" 'index($2, r) == 1 {print $2}' /proc/mounts | sort -r); do
    umount -l "$mnt" 2>/dev/null || true
  done
  if awk -v r="$root/" 'index($2, r) == 1 {found = 1} END {exit !found}' /proc/mounts; then
    echo "cleanroom: something is still mounted under $root; unmount it first" >&2
    exit 1
  fi
}
unmount_stale

# Debian's packages in the root beyond minbase: the interpreter and venv,
# the CA certificates pip checks the index with, and the two system
# libraries the wheel expects to find (the manylinux policy leaves them to
# the system): OpenGL for MuJoCo's and dm_control's render() (OSMesa, or
# EGL where a GPU driver has it), and GLib, which procgen's libenv.so links.
packages=python3,python3-venv,ca-certificates,libosmesa6,libglib2.0-0

if [ -n "${CLEAN:-}" ] || [ "$(cat "$root.stamp" 2>/dev/null)" != "bookworm $packages" ]; then
  command -v debootstrap >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap; }
  # The mirror this machine's apt is set up with (deb822 or one-line form).
  mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  [ -n "$mirror" ] || mirror=$(awk '$1 == "deb" {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
  rm -f "$root.stamp"
  rm -rf --one-file-system "$root"
  echo "cleanroom: debootstrap --variant=minbase bookworm ($packages) into $root"
  start=$SECONDS
  debootstrap --variant=minbase --include=$packages bookworm $root ${mirror:+"$mirror"} > $base/debootstrap.log 2>&1 \
    || { tail -20 $base/debootstrap.log; exit 1; }
  echo "cleanroom: root made in $((SECONDS - start)) s ($(du -sh $root | cut -f1))"
  echo "bookworm $packages" > "$root.stamp"
else
  echo "cleanroom: the root of an earlier run ($root, made $(date -r "$root.stamp" +%F))"
fi

# What the root lacks: anything to build with.
for tool in gcc g++ cc c++ clang make cmake; do
  if chroot $root /bin/sh -c "command -v $tool" >/dev/null 2>&1; then
    echo "cleanroom: the root has $tool" >&2; exit 1
  fi
done
for header in usr/include/python3.11/Python.h usr/include/boost usr/include/zlib.h usr/include/stdio.h; do
  [ ! -e "$root/$header" ] || { echo "cleanroom: the root has /$header" >&2; exit 1; }
done
echo "cleanroom: the root has no compiler, no make or cmake, no C or Python headers, no Boost, no zlib headers"

# The root shares this machine's network: its DNS settings and the CA
# bundle this machine trusts (its egress goes through a proxy with its own
# certificate authority), given to pip as PIP_CERT.
cp /etc/resolv.conf $root/etc/resolv.conf
cp /etc/ssl/certs/ca-certificates.crt $root/etc/ssl/host-ca-certificates.crt
mounted=()
cleanup() { for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done; }
trap cleanup EXIT
for fs in proc sys dev dev/shm; do
  mkdir -p $root/$fs
  case $fs in
    proc) mount -t proc proc $root/proc ;;
    *) mount --bind /$fs $root/$fs ;;
  esac
  mounted+=("$root/$fs")
done

# The tests (not the sources: the package can come only from the wheel),
# and the script that installs the tests' references.
rm -rf --one-file-system $root/work && mkdir -p $root/work/dist $root/work/scripts
cp -r tests compat $root/work/
cp scripts/setup_compat.sh $root/work/scripts/

run() {  # a command in the root, as a user's shell would run it
  chroot $root /usr/bin/env -i HOME=/root PATH=/usr/bin:/bin LANG=C.UTF-8 \
    PIP_CERT=/etc/ssl/host-ca-certificates.crt PIP_DISABLE_PIP_VERSION_CHECK=1 CI=${CI:-} /bin/bash -c "cd /work && $1"
}

# Each Python's install: a venv, the wheel alone (then what runs without
# extras, and what says which extra it needs), the extras and the tests'
# references. The three run side by side (they wait on the network), each
# into a log of its own, printed whole when all are done.
install() {  # the Python X.Y
  local v=$1 tag wheel whl python prefix venv start dm_control metaworld
  tag=cp${v/./}
  wheel=$(ls dist/envpool_lite-*-$tag-$tag-manylinux*.whl | head -1)
  cp "$wheel" $root/work/dist/
  whl=/work/dist/$(basename "$wheel")
  if [ "$v" = 3.11 ]; then
    python=/usr/bin/python3
  else
    python=$(scripts/find_python.sh "$v")
    prefix=$(dirname "$(dirname "$python")")
    if [ ! -x "$root$python" ]; then
      mkdir -p "$root$prefix" && cp -a "$prefix/." "$root$prefix/"
    fi
  fi
  venv=/opt/venv-$v
  echo "cleanroom: $(run "$python --version") ($python), a venv, pip install $(basename "$wheel")"
  rm -rf --one-file-system "$root$venv"
  run "$python -m venv $venv"
  start=$SECONDS
  run "$venv/bin/pip install -q $whl"
  echo "cleanroom: installed in $((SECONDS - start)) s: $(run "$venv/bin/pip list 2>/dev/null" | grep -iE '^(envpool|numpy|gymnasium|dm-env) ' | tr -s ' ' | paste -sd, -)"

  # Without the extras: the families that need nothing run; the others say
  # which extra to install.
  run "$venv/bin/python - <<'EOF'
import envpool_lite
for task in ('CartPole-v1', 'FrozenLake-v1', 'LunarLander-v3', 'MiniGrid-DoorKey-8x8-v0', 'BigfishEasy-v0', 'highway-v0'):
    env = envpool_lite.make(task, num_envs=2)
    env.reset()
    env.step(env.action_space.sample())
    print(f'cleanroom: {task} runs with no extra')
for task in ('Pong-v5', 'Basic-v1', 'HalfCheetah-v5', 'CheetahRun-v1', 'FetchPush-v4', 'CarRacing-v3'):
    try:
        envpool_lite.make(task, num_envs=2)
    except ImportError as e:
        print(f'cleanroom: {task} without its extra: ImportError: {e}')
    else:
        raise SystemExit(f'{task} was made without its extra')
EOF"

  echo "cleanroom: pip install '$(basename "$wheel")[all,test]' and the tests' references"
  start=$SECONDS
  run "$venv/bin/pip install -q '$whl[all,test]'"
  # Python 3.13: dm_control itself, as make() of a dm_control task says
  # (its labmaze has no wheel there; pyproject.toml's dm_control extra).
  if ! run "$venv/bin/python -c 'import dm_control'" >/dev/null 2>&1; then
    dm_control=$(grep -o '"dm_control==[0-9.]*' pyproject.toml | head -1 | tr -d '"')
    echo "cleanroom: $(run "$venv/bin/python -c \"import envpool_lite; envpool_lite.make('CheetahRun-v1')\"" 2>&1 | tail -1)"
    run "$venv/bin/pip install -q --no-deps $dm_control"
  fi
  # Meta-World's models, as make() of a Meta-World task says: metaworld
  # without its dependencies (its mujoco pin; the wheel carries its MuJoCo).
  metaworld=$(grep -o 'metaworld==[0-9.]*' pyproject.toml | head -1)
  echo "cleanroom: $(run "$venv/bin/python -c \"import envpool_lite; envpool_lite.make('reach-v3')\"" 2>&1 | tail -1)"
  run "$venv/bin/pip install -q --no-deps $metaworld"
  # MyoSuite's models, the same way (its mujoco and gymnasium pins).
  myosuite=$(grep -o 'myosuite==[0-9.]*' pyproject.toml | head -1)
  echo "cleanroom: $(run "$venv/bin/python -c \"import envpool_lite; envpool_lite.make('myoElbowPose1D6MRandom-v0')\"" 2>&1 | tail -1)"
  run "$venv/bin/pip install -q --no-deps $myosuite"
  if [ "$v" = "$align_python" ]; then
    run "PY=$venv/bin/python bash scripts/setup_compat.sh"
  fi
  echo "cleanroom: installed in $((SECONDS - start)) s"
}

for v in "${pythons[@]}"; do
  tag=cp${v/./}
  ls dist/envpool_lite-*-$tag-$tag-manylinux*.whl >/dev/null 2>&1 || { echo "cleanroom: no $tag wheel in dist/ (make wheels WHEEL_PYTHONS=$v)" >&2; exit 1; }
done
pids=()
for v in "${pythons[@]}"; do
  install "$v" > $base/install-$v.log 2>&1 &
  pids+=($!)
done
status=0
for i in "${!pythons[@]}"; do
  wait "${pids[i]}" || { echo "cleanroom: the install on Python ${pythons[i]} failed" >&2; status=1; }
  grep -v "is ignored: it is neither" $base/install-${pythons[i]}.log || true
done
[ "$status" = 0 ] || exit 1

# Then the tests, one Python at a time.
for v in "${pythons[@]}"; do
  venv=/opt/venv-$v
  # The smoke test of every family (make, reset, 100 steps, render()), and
  # on ALIGN_PYTHON xla() and one alignment test of each family against its
  # reference, on every core (pytest-xdist, from the test extra).
  nodes=
  if [ "$v" = "$align_python" ]; then
    nodes=$(grep -v '^\s*#' tests/cleanroom_alignment.txt | grep -v '^\s*$' | sed "s/.*/'&'/" | tr '\n' ' ')
  fi
  run "$venv/bin/python -m pytest -q -rs -p no:cacheprovider -n \$(nproc) tests/test_smoke.py $nodes" 2>&1 | tee $base/pytest-$v.log
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
done
exit $status
