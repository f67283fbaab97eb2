#!/usr/bin/env bash
# A ViewHost cluster on loopback: PostgreSQL, three viewhost nodes sharing it, and nginx in front (docs/SCALING.md).
#
#   scripts/cluster.sh                  # start everything, print the URL, run until Ctrl-C, then stop everything
#   scripts/cluster.sh test             # the failover test (Tests/Cluster/failover_test.py), then stop everything
#   CLUSTER_SESSIONS=1000 CLUSTER_SECONDS=40 scripts/cluster.sh test    # the full-size failover test
#   CLUSTER_BALANCER=round-robin scripts/cluster.sh test                # the same behind round-robin nginx
#   CLUSTER_STREAM_SESSIONS=0 CLUSTER_CHAT_SESSIONS=0 scripts/cluster.sh test   # without the cross-node stream and
#                                                                                # dead owner's timers checks
#   scripts/cluster.sh deploy           # a rolling restart under load (Tests/Cluster/deploy_test.py): each node in turn
#                                       # gets SIGTERM, a new process of it starts on the same ports, is ready, next
#   CLUSTER_BALANCER=round-robin scripts/cluster.sh deploy              # the same behind round-robin nginx
#   CLUSTER_DEPLOY_CLIENTS=100 CLUSTER_DEPLOY_STREAMS=100 scripts/cluster.sh deploy    # the full-size check
#   scripts/cluster.sh bench COMMAND…   # both balancers in front of one cluster, COMMAND run with the cluster's
#                                       # addresses in its environment (Benchmarks/cluster.sh), then stop everything
#
# CLUSTER_BALANCER picks nginx's config: hash (default, Config/nginx.conf: consistent hash on the session) or
# round-robin (Config/nginx-round-robin.conf: no stickiness, every node forwards to the session's owner). Each node
# also listens on an internal address (--internal-address, loopback, a free port) for the hops between nodes,
# authenticated by VIEWHOST_CLUSTER_SECRET, random per run.
#
# PostgreSQL runs from a temporary directory (initdb; as the postgres user when run as root, since PostgreSQL refuses
# root), no system service. Every process started here is stopped by its pid on exit. Ports are free ones picked at
# start (CLUSTER_PORT sets nginx's). CLUSTER_KEEP_WORK=1 keeps the work directory (the nodes' logs) at the end.
# Needs: postgresql, nginx, python3 (installed when missing) and Swift.
set -euo pipefail

REQUIRED_PACKAGES=(libpq-dev postgresql nginx python3 curl)

cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo="$PWD"
script_name=cluster.sh
# shellcheck source=scripts/setup.sh
source scripts/setup.sh

mode="${1:-run}"
case "$mode" in
    run | test | deploy) ;;
    bench) [ $# -ge 2 ] || { echo "usage: scripts/cluster.sh bench COMMAND…" >&2; exit 64; } ;;
    *) echo "usage: scripts/cluster.sh [test | deploy | bench COMMAND…]" >&2; exit 64 ;;
esac
balancer="${CLUSTER_BALANCER:-hash}"
case "$balancer" in
    hash) nginx_config=Config/nginx.conf ;;
    round-robin) nginx_config=Config/nginx-round-robin.conf ;;
    *) echo "cluster.sh: CLUSTER_BALANCER is hash or round-robin, not '$balancer'" >&2; exit 64 ;;
esac

install_missing_packages "${REQUIRED_PACKAGES[@]}"

binary="${VIEWHOST_BINARY:-}"
if [ -z "$binary" ]; then
    require_swift
    scratch=()
    [ -n "${SWIFT_SCRATCH:-}" ] && scratch=(--scratch-path "$SWIFT_SCRATCH")
    swift build --product viewhost "${scratch[@]}" >&2
    binary="$(swift build --show-bin-path "${scratch[@]}")/viewhost"
fi

pg_bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
work="$(mktemp -d /tmp/viewhost-cluster.XXXXXX)"
as_postgres=()
if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$work"
    as_postgres=(setpriv --reuid=postgres --regid=postgres --init-groups)
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

pids=()
postgres_pid=""
stop_all() {
    local status=$?
    trap - EXIT INT TERM
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    # Read again: a restart (the failover test's) gives the postmaster a new pid.
    [ -f "$work/pg/postmaster.pid" ] && postgres_pid="$(head -1 "$work/pg/postmaster.pid")"
    if [ -n "$postgres_pid" ]; then
        kill -INT "$postgres_pid" 2>/dev/null || true
        for _ in $(seq 100); do kill -0 "$postgres_pid" 2>/dev/null || break; sleep 0.1; done
    fi
    if [ -n "${CLUSTER_KEEP_WORK:-}" ]; then echo "cluster.sh: logs kept in $work" >&2; else rm -rf "$work"; fi
    exit "$status"
}
trap stop_all EXIT
trap 'exit 130' INT TERM

# PostgreSQL: loopback TCP only, its socket in the work directory.
pg_port="$(free_port)"
"${as_postgres[@]}" "$pg_bin/initdb" -D "$work/pg" -A trust -U postgres -E UTF8 >"$work/initdb.log"
"${as_postgres[@]}" "$pg_bin/pg_ctl" start -w -t 30 -D "$work/pg" -l "$work/postgres.log" \
    -o "-k $work -p $pg_port -c listen_addresses=127.0.0.1 -c max_connections=200" >/dev/null
postgres_pid="$(head -1 "$work/pg/postmaster.pid")"
"${as_postgres[@]}" "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres viewhost
database_url="postgres://postgres@127.0.0.1:$pg_port/viewhost"

# The nodes' shared secret for their hops to each other: random, this run's only.
VIEWHOST_CLUSTER_SECRET="$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')"
export VIEWHOST_CLUSTER_SECRET

# The test kills node2 while it holds chat sessions whose bot replies are due after the kill. At the cluster's speed
# (100) a bot's whole exchange is over within 0.3 s of the user's message, so a reply still pending at the kill
# would need the message posted within a few milliseconds of the SIGKILL: node2 runs at a slower speed in the test
# (4: the first reply 2 to 5 s after the message), so sessions made on it keep that speed wherever they move.
victim_speed="${CLUSTER_VICTIM_SIMULATION_SPEED:-4}"

# Three nodes, each named, each on a free port, with an internal address for hops from the other nodes.
node_ports=()
internal_ports=()
node_pids=()
start_node() {
    local index=$1 port=$2 internal_port=$3 speed="${CLUSTER_SIMULATION_SPEED:-100}"
    [ "$mode" = test ] && [ "$index" = 2 ] && speed="$victim_speed"
    # nginx, on loopback, is the proxy whose X-Forwarded-For and Forwarded name the client (Config/nginx.conf).
    VIEWHOST_PROXY_TRUSTED=127.0.0.1 "$binary" serve --port "$port" --store postgres --database-url "$database_url" --node-id "node$index" \
        --internal-address "127.0.0.1:$internal_port" --simulation-speed "$speed" --log-level "${CLUSTER_LOG_LEVEL:-warning}" \
        >"$work/node$index.out" 2>"$work/node$index.log" &
    pids+=($!)
    node_pids+=($!)
}
for index in 1 2 3; do
    port="$(free_port)"
    internal_port="$(free_port)"
    node_ports+=("$port")
    internal_ports+=("$internal_port")
    start_node "$index" "$port" "$internal_port"
done
# wait_node INDEX: until node INDEX prints its readiness line (20 s at most); it takes forwarded requests and has
# announced its internal address before that line.
wait_node() {
    local index=$1
    for _ in $(seq 400); do
        grep -q "viewhost listening" "$work/node$index.out" && break
        sleep 0.05
    done
    grep -q "viewhost listening" "$work/node$index.out" || { echo "cluster.sh: node$index did not start:" >&2; cat "$work/node$index.log" >&2; exit 70; }
}
for index in 1 2 3; do wait_node "$index"; done

# start_nginx NAME CONFIG PORT: the repository's config with this run's ports, paths under the work directory.
start_nginx() {
    local name=$1 config=$2 port=$3 dir="$work/$1"
    mkdir -p "$dir/logs" "$dir/temp"
    sed -e "s/listen 127.0.0.1:8080;/listen 127.0.0.1:$port;/" \
        -e "s/server 127.0.0.1:8081 /server 127.0.0.1:${node_ports[0]} /" \
        -e "s/server 127.0.0.1:8082 /server 127.0.0.1:${node_ports[1]} /" \
        -e "s/server 127.0.0.1:8083 /server 127.0.0.1:${node_ports[2]} /" \
        "$config" >"$dir/nginx.conf"
    nginx -p "$dir" -c "$dir/nginx.conf" -e "$dir/logs/error.log" -g "daemon off;" &
    pids+=($!)
    for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.05; done
}
lb_port="${CLUSTER_PORT:-$(free_port)}"
start_nginx nginx "$nginx_config" "$lb_port"
url="http://127.0.0.1:$lb_port"
node_urls="http://127.0.0.1:${node_ports[0]},http://127.0.0.1:${node_ports[1]},http://127.0.0.1:${node_ports[2]}"
echo "viewhost cluster on $url ($balancer; nodes ${node_ports[*]}, internal ${internal_ports[*]}, PostgreSQL 127.0.0.1:$pg_port; pids ${pids[*]}; logs in $work)"

if [ "$mode" = test ]; then
    python3 "$repo/Tests/Cluster/failover_test.py" --url "$url" --database-url "$database_url" --balancer "$balancer" \
        --node-urls "$node_urls" --node-names node1,node2,node3 \
        --victim-pid "${node_pids[1]}" --victim-node node2 --victim-simulation-speed "$victim_speed" \
        --postgres-restart "${as_postgres[*]} $pg_bin/pg_ctl restart -w -t 30 -m fast -D $work/pg -l $work/postgres.log" \
        --sessions "${CLUSTER_SESSIONS:-300}" --seconds "${CLUSTER_SECONDS:-20}" \
        --stream-sessions "${CLUSTER_STREAM_SESSIONS:-20}" --chat-sessions "${CLUSTER_CHAT_SESSIONS:-8}"
    exit $?
fi
if [ "$mode" = deploy ]; then
    # The load runs through nginx; once it writes the ready file each node in turn gets SIGTERM, exits (its sessions
    # handed over, its streams ended), and a new process of it starts on the same ports; the next one stops once
    # the new one is ready. Each node's earlier logs are kept as nodeN.log.K.
    python3 "$repo/Tests/Cluster/deploy_test.py" --url "$url" --label " ($balancer)" \
        --clients "${CLUSTER_DEPLOY_CLIENTS:-30}" --streams "${CLUSTER_DEPLOY_STREAMS:-30}" \
        --ready-file "$work/deploy.ready" --done-file "$work/deploy.done" &
    load_pid=$!
    pids+=("$load_pid")
    settle="$(grep -o 'fail_timeout=[0-9]*s' "$nginx_config" | head -1 | tr -dc 0-9)"
    settle="${settle:-10}"
    for _ in $(seq 1200); do [ -f "$work/deploy.ready" ] || ! kill -0 "$load_pid" 2>/dev/null && break; sleep 0.05; done
    for index in 1 2 3; do
        kill -0 "$load_pid" 2>/dev/null || break
        pid="${node_pids[$((index - 1))]}"
        stopped_at=$(date +%s.%N)
        kill -TERM "$pid"
        status=0
        wait "$pid" || status=$?
        [ "$status" = 0 ] || echo "cluster.sh: node$index exited $status after SIGTERM" >&2
        mv "$work/node$index.log" "$work/node$index.log.$index"
        start_node "$index" "${node_ports[$((index - 1))]}" "${internal_ports[$((index - 1))]}"
        node_pids[$((index - 1))]=$!
        wait_node "$index"
        echo "cluster.sh: node$index restarted (SIGTERM to ready: $(python3 -c "import time; print('%.2f' % (time.time() - $stopped_at))") s)" >&2
        # nginx marked the node down when it refused a connection (max_fails=1) and tries it again only after
        # fail_timeout: stopping the next node sooner would leave nginx no node at all (502 "no live upstreams").
        [ "$index" = 3 ] || sleep "$settle"
    done
    touch "$work/deploy.done"
    status=0
    wait "$load_pid" || status=$?
    exit "$status"
fi
if [ "$mode" = bench ]; then
    # The other balancer too, on a port of its own: COMMAND can alternate between them on the same nodes.
    other_port="$(free_port)"
    if [ "$balancer" = hash ]; then
        start_nginx nginx-round-robin Config/nginx-round-robin.conf "$other_port"
        hash_url="$url" round_robin_url="http://127.0.0.1:$other_port"
    else
        start_nginx nginx-hash Config/nginx.conf "$other_port"
        hash_url="http://127.0.0.1:$other_port" round_robin_url="$url"
    fi
    shift
    CLUSTER_URL_HASH="$hash_url" CLUSTER_URL_ROUND_ROBIN="$round_robin_url" CLUSTER_NODE_URLS="$node_urls" \
        CLUSTER_NODE_NAMES=node1,node2,node3 CLUSTER_NODE_PIDS="${node_pids[*]}" CLUSTER_DATABASE_URL="$database_url" \
        CLUSTER_WORK="$work" "$@"
    exit $?
fi
echo "Ctrl-C stops everything."
# `wait` (not a foreground sleep), so SIGINT/SIGTERM run the trap at once.
while true; do sleep 3600 & wait $!; done
