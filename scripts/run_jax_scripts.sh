#!/usr/bin/env bash
# Runs, unmodified, the scripts that call EnvPool by name and that the
# package index does not serve (CleanRL's PyPI release predates its EnvPool
# scripts; PureJaxQL is not on it): CleanRL's six EnvPool scripts and
# PureJaxQL's pqn_atari.py, a few thousand Pong-v5 steps each, with
# `import envpool` resolving to envpool_lite (build/compat/envpool) and the
# pinned libraries of tests/compat/jax_scripts.txt (scripts/setup_compat.sh
# installs both). Pass source checkouts of both projects:
#   bash scripts/run_jax_scripts.sh CLEANRL_CHECKOUT PUREJAXQL_CHECKOUT
# scripts/jax_compat restores two JAX-library APIs the XLA scripts call and
# today's jax/flax removed (see its docstring); it touches no envpool code.
# Prints one line per script: ok (with its last output line) or FAILED.
set -uo pipefail
cleanrl=${1:?usage: run_jax_scripts.sh CLEANRL_CHECKOUT PUREJAXQL_CHECKOUT}
purejaxql=${2:?usage: run_jax_scripts.sh CLEANRL_CHECKOUT PUREJAXQL_CHECKOUT}
here=$(cd "$(dirname "$0")/.." && pwd)
py=${PYTHON:-$here/.venv/bin/python}
bash "$here/scripts/setup_compat.sh"
export PYTHONPATH="$here/scripts/jax_compat:$here/build/compat/jax_scripts:$here/build/compat/envpool"
logs=${LOGS:-$(mktemp -d)}
small=(--env-id Pong-v5 --num-envs 8 --num-steps 64 --total-timesteps 2048 --update-epochs 1)
run() {  # name, directory, command...
  local name=$1 dir=$2
  shift 2
  local start=$SECONDS
  if (cd "$dir" && timeout 1800 "$@") > "$logs/$name.log" 2>&1; then
    echo "$name: ok in $((SECONDS - start)) s: $(grep -v -i warn "$logs/$name.log" | tail -n 1)"
  else
    echo "$name: FAILED (log: $logs/$name.log)"
    tail -n 5 "$logs/$name.log" | sed 's/^/    /'
  fi
}
for s in ppo_atari_envpool_xla_jax ppo_atari_envpool_xla_jax_scan ppo_atari_envpool pqn_atari_envpool pqn_atari_envpool_lstm; do
  run "$s" "$cleanrl" "$py" "cleanrl/$s.py" "${small[@]}"
done
run ppo_rnd_envpool "$cleanrl" "$py" cleanrl/ppo_rnd_envpool.py "${small[@]}" --num-iterations-obs-norm-init 2
PYTHONPATH="$purejaxql:$PYTHONPATH" run pqn_atari "$purejaxql" "$py" purejaxql/pqn_atari.py +alg=pqn_atari \
  alg.NUM_ENVS=8 alg.TEST_ENVS=2 alg.NUM_STEPS=32 alg.TOTAL_TIMESTEPS=2048 alg.TOTAL_TIMESTEPS_DECAY=2048 \
  alg.NUM_MINIBATCHES=4 alg.NUM_EPOCHS=1 SAVE_PATH=null
