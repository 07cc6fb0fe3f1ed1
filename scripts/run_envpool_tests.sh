#!/usr/bin/env bash
# Runs EnvPool's own test files for the families envpool_lite has, through
# compat/envpool (the module named `envpool` that is envpool_lite),
# and prints passed/failed per file. EnvPool's tests are not part of this
# repository: pass the path of an EnvPool source checkout.
#   bash scripts/run_envpool_tests.sh /path/to/envpool [pytest args]
# ENVPOOL_TEST=1 turns on the state EnvPool fills in its test build and the
# envpool module only then (Box2D's bodies and terrain in info).
# Needs absl-py (EnvPool's tests use absltest); atari_envpool_test.py also
# imports jax and opencv; the MiniGrid tests import minigrid, which
# scripts/setup_compat.sh installs into build/compat/minigrid_oracle. See README.md, "Differences from EnvPool", for the
# tests that check a deliberate difference.
set -uo pipefail
src=${1:?usage: run_envpool_tests.sh ENVPOOL_CHECKOUT [pytest args]}
shift
here=$(cd "$(dirname "$0")/.." && pwd)
py=${PYTHON:-$here/.venv/bin/python}
files=(
  envpool/classic_control/classic_control_test.py
  envpool/classic_control/classic_control_render_test.py
  envpool/atari/api_test.py
  envpool/atari/atari_envpool_test.py
  envpool/atari/atari_render_test.py
  envpool/vizdoom/vizdoom_test.py
  envpool/vizdoom/vizdoom_render_test.py
  envpool/procgen/procgen_test.py
  envpool/procgen/procgen_render_test.py
  envpool/toy_text/toy_text_test.py
  envpool/box2d/box2d_align_test.py
  envpool/box2d/box2d_correctness_test.py
  envpool/box2d/box2d_deterministic_test.py
  envpool/box2d/box2d_render_test.py
  envpool/mujoco/gym/mujoco_gym_align_test.py
  envpool/mujoco/gym/mujoco_gym_deterministic_test.py
  envpool/mujoco/gym/mujoco_render_test.py
  envpool/mujoco/dmc/mujoco_dmc_suite_align_test.py
  envpool/mujoco/dmc/mujoco_dmc_suite_deterministic_test.py
  envpool/mujoco/dmc/mujoco_dmc_render_test.py
  envpool/minigrid/minigrid_align_test.py
  envpool/minigrid/minigrid_deterministic_test.py
  envpool/minigrid/minigrid_render_test.py
  envpool/minigrid/babyai_align_test.py
  envpool/minigrid/babyai_deterministic_test.py
  envpool/minigrid/babyai_render_test.py
  envpool/make_test.py
)
# FILES="envpool/procgen/procgen_test.py ...": only those.
if [ -n "${FILES:-}" ]; then read -r -a files <<< "$FILES"; fi
# minigrid 3.2.0's wheel lacks its WFC presets' pattern images (they are in
# its repository); EnvPool's MiniGrid tests make the WFC envs through it:
# write them into the reference's folder, from tests/minigrid/test_minigrid.py's copy.
patterns="$here/build/compat/minigrid_oracle/minigrid/envs/wfc/patterns"
if [ -d "$(dirname "$patterns")" ] && [ ! -d "$patterns" ]; then
  mkdir -p "$patterns"
  (cd "$here/tests" && PYTHONPATH="$here/build/compat/minigrid_oracle" "$py" -c "
import sys
from pathlib import Path
import numpy as np
from imageio.v2 import imwrite
from test_minigrid import WFC_PATTERNS
value = {'#': 0, '.': 255, ',': 254}
for name, rows in WFC_PATTERNS.items():
    imwrite(Path(sys.argv[1]) / name, np.array([[[value[c]] * 3 for c in row] for row in rows], dtype=np.uint8))
" "$patterns") || echo "could not write minigrid's WFC patterns into $patterns"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The module named `envpool`, plus the test helpers EnvPool keeps inside its
# package (not its API), copied from the checkout for this run only.
shim="$work/shim"
cp -r "$here/compat/envpool" "$shim"
for helper in envpool/minigrid/babyai_test_utils.py envpool/mujoco/pixel_observation_test_utils.py; do
  if [ -f "$src/$helper" ]; then cp "$src/$helper" "$shim/$helper"; fi
done
for f in "${files[@]}"; do
  [ -f "$src/$f" ] || { echo "$f: not in $src"; continue; }
  name=$(echo "$f" | tr / _)
  cp "$src/$f" "$work/$name"
  out=$(cd "$work" && ENVPOOL_TEST=1 PYTHONPATH="$shim:$here/build/compat/minigrid_oracle" timeout 1800 "$py" -m pytest -q -p no:cacheprovider "$name" "$@" 2>&1)
  echo "$out" > "$work/$name.log"
  # pytest's summary line (not what a library prints at exit after it)
  summary=$(echo "$out" | grep -E "[0-9]+ (passed|failed|error)" | tail -n 1)
  echo "$f: $summary"
  if [ -n "${VERBOSE:-}" ]; then echo "$out" | grep -E "^(SUB)?(FAILED|ERROR)" | sed 's/^/    /'; fi
done
