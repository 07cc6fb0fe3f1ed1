#!/usr/bin/env bash
# A Ray cluster of three "hosts" on this one machine, joined by a real
# network: the head on a bridge in the machine's own network namespace, and
# two worker hosts, each a network namespace of its own with one veth pair
# to the bridge and its own address. What the pool's workers send the
# driver crosses TCP over the veth pairs, not shared memory.
#
#   scripts/netns_cluster.sh up          # make the hosts, start Ray on each
#   scripts/netns_cluster.sh down        # stop everything, remove the hosts
#   scripts/netns_cluster.sh kill w1     # SIGKILL every process of host w1
#   scripts/netns_cluster.sh cut w1      # take w1's link down ...
#   scripts/netns_cluster.sh restore w1  # ... and up again
#   scripts/netns_cluster.sh rejoin w1   # start Ray on w1 again (after kill, or
#                                        # after a cut that outlasted Ray's
#                                        # health check)
#   scripts/netns_cluster.sh env         # RAY_ADDRESS and the cluster's token
#
# Then, in the machine's own namespace (the head's host):
#   env $(scripts/netns_cluster.sh env) python -c \
#     "import envpool_lite; env = envpool_lite.make('Pong-v5', num_envs=8, num_workers=2); print(env.workers)"
#
# Ray authenticates every node and driver with a token (docs/scaling-out.md):
# `up` makes a new one (or takes NETNS_RAY_TOKEN), and `env` prints it with
# the head's address. A driver needs them in its environment before it
# imports Ray (Ray reads them once, at import).
#
# Needs root and iproute2 (scripts/setup.sh installs it), and Ray in $PY
# (default: this checkout's .venv/bin/python). Only the
# addresses of the subnet below are used; the names and the subnet can be
# changed with NETNS_PREFIX and NETNS_SUBNET (the first three octets).
# The head reserves no CPU for workers, so the pool's workers go to w1 and
# w2 (2 CPUs each, so a worker of a lost host can move to the other).
set -euo pipefail
P=${NETNS_PREFIX:-epl}
NET=${NETNS_SUBNET:-10.77.0}
PORT=${NETNS_RAY_PORT:-6390}
# The Python with Ray and envpool_lite: the checkout's .venv (make setup's), else python3.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ -x $ROOT/.venv/bin/python ]]; then PY=${PY:-$ROOT/.venv/bin/python}; else PY=${PY:-python3}; fi
RAY="$PY -m ray.scripts.scripts"
BRIDGE=${P}br
HEAD_IP=$NET.1
HOSTS=(w1 w2)
declare -A IP=([w1]=$NET.2 [w2]=$NET.3)
# The cluster's own directory: Ray's files (every process of the head has
# it on its command line, which is how `down` finds them) and the token.
STATE=/tmp/envpool_lite_netns_$P
# Ray's max_direct_call_object_size and worker_niceness as make()'s local cluster has them (docs/scaling-out.md).
SYSTEM_CONFIG='{"max_direct_call_object_size": 4194304, "worker_niceness": 0}'

ns() { echo "$P$1"; }
link() { echo "$P$1-h"; }  # the host's end of its veth pair, on the bridge

ray_env() {  # the environment every node and driver of this cluster runs with
    echo RAY_USAGE_STATS_ENABLED=0 RAY_AUTH_MODE=token RAY_AUTH_TOKEN="$(cat "$STATE/token")"
}

start_node() {  # start_node HOST: the host's raylet joins the head
    local h=$1
    ip netns exec "$(ns "$h")" env $(ray_env) $RAY start --address="$HEAD_IP:$PORT" \
        --node-ip-address="${IP[$h]}" --num-cpus=2 --object-store-memory=$((80 << 20)) \
        --resources="{\"host_$h\": 2}" --disable-usage-stats >/dev/null
}

stop_host() {  # SIGKILL every process in the host's namespace
    local pids
    pids=$(ip netns pids "$(ns "$1")" 2>/dev/null || true)
    if [ -n "$pids" ]; then
        kill -9 $pids 2>/dev/null || true
    fi
}

case "${1:-}" in
up)
    "$0" down
    ip link add "$BRIDGE" type bridge
    ip addr add "$HEAD_IP/24" dev "$BRIDGE"
    ip link set "$BRIDGE" up
    for h in "${HOSTS[@]}"; do
        ip netns add "$(ns "$h")"
        ip link add "$(link "$h")" type veth peer name eth0 netns "$(ns "$h")"
        ip link set "$(link "$h")" master "$BRIDGE" up
        ip netns exec "$(ns "$h")" ip addr add "${IP[$h]}/24" dev eth0
        ip netns exec "$(ns "$h")" ip link set eth0 up
        ip netns exec "$(ns "$h")" ip link set lo up
    done
    mkdir -p "$STATE/ray"
    if [ -n "${NETNS_RAY_TOKEN:-}" ]; then
        echo "$NETNS_RAY_TOKEN" >"$STATE/token"
    else
        $PY -c "import secrets; print(secrets.token_hex(32))" >"$STATE/token"
    fi
    env $(ray_env) $RAY start --head --node-ip-address="$HEAD_IP" --port="$PORT" --num-cpus=0 \
        --temp-dir="$STATE/ray" --object-store-memory=$((80 << 20)) --include-dashboard=false \
        --disable-usage-stats --system-config="$SYSTEM_CONFIG" >/dev/null
    for h in "${HOSTS[@]}"; do
        start_node "$h"
    done
    echo "$HEAD_IP:$PORT"
    ;;
down)
    for h in "${HOSTS[@]}"; do
        stop_host "$h"
        ip link del "$(link "$h")" 2>/dev/null || true  # at once (a namespace goes away in the background)
        ip netns del "$(ns "$h")" 2>/dev/null || true
    done
    # The head's processes: those with this cluster's directory on their
    # command line, and its Ray client server, which names only the head's
    # address (another Ray on this machine is left alone).
    pkill -9 -f -- "$STATE/ray" 2>/dev/null || true
    pkill -9 -f -- "--address=$HEAD_IP:$PORT " 2>/dev/null || true
    rm -rf "$STATE"
    ip link del "$BRIDGE" 2>/dev/null || true
    ;;
kill) stop_host "$2" ;;
cut) ip link set "$(link "$2")" down ;;
restore) ip link set "$(link "$2")" up ;;
rejoin)
    stop_host "$2"
    start_node "$2"
    ;;
address) echo "$HEAD_IP:$PORT" ;;
env) echo RAY_ADDRESS="$HEAD_IP:$PORT" "$(ray_env)" ;;
*)
    sed -n '2,30p' "$0"
    exit 2
    ;;
esac
