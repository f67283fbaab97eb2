#!/usr/bin/env bash
# A ViewHost cluster on loopback: PostgreSQL, three viewhost nodes sharing it, and nginx in front (docs/SCALING.md).
#
#   scripts/cluster.sh                  # start everything, print the URL, run until Ctrl-C, then stop everything
#   scripts/cluster.sh test             # the failover test (Tests/Cluster/failover_test.py), then stop everything
#   CLUSTER_SESSIONS=1000 CLUSTER_SECONDS=40 scripts/cluster.sh test    # the full-size failover test
#
# PostgreSQL runs from a temporary directory (initdb; as the postgres user when run as root, since PostgreSQL refuses
# root), no system service. Every process started here is stopped by its pid on exit. Ports are free ones picked at
# start (CLUSTER_PORT sets nginx's). Needs: postgresql, nginx, python3 (installed when missing) and Swift.
set -euo pipefail

REQUIRED_PACKAGES=(libpq-dev postgresql nginx python3 curl)

cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo="$PWD"
script_name=cluster.sh
# shellcheck source=scripts/setup.sh
source scripts/setup.sh

mode="${1:-run}"
case "$mode" in run | test) ;; *) echo "usage: scripts/cluster.sh [test]" >&2; exit 64 ;; esac

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
    rm -rf "$work"
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

# Three nodes, each named, each on a free port.
node_ports=()
start_node() {
    local index=$1 port=$2
    # nginx, on loopback, is the proxy whose X-Forwarded-For and Forwarded name the client (Config/nginx.conf).
    VIEWHOST_PROXY_TRUSTED=127.0.0.1 "$binary" serve --port "$port" --store postgres --database-url "$database_url" --node-id "node$index" \
        --simulation-speed "${CLUSTER_SIMULATION_SPEED:-100}" --log-level warning \
        >"$work/node$index.out" 2>"$work/node$index.log" &
    pids+=($!)
    eval "node${index}_pid=$!"
}
for index in 1 2 3; do
    port="$(free_port)"
    node_ports+=("$port")
    start_node "$index" "$port"
done
for index in 1 2 3; do
    for _ in $(seq 200); do grep -q "viewhost listening" "$work/node$index.out" && break; sleep 0.05; done
    grep -q "viewhost listening" "$work/node$index.out" || { echo "cluster.sh: node$index did not start:" >&2; cat "$work/node$index.log" >&2; exit 70; }
done

# nginx: the repository's config with this run's ports, paths under the work directory.
lb_port="${CLUSTER_PORT:-$(free_port)}"
mkdir -p "$work/nginx/logs" "$work/nginx/temp"
sed -e "s/listen 127.0.0.1:8080;/listen 127.0.0.1:$lb_port;/" \
    -e "s/server 127.0.0.1:8081 /server 127.0.0.1:${node_ports[0]} /" \
    -e "s/server 127.0.0.1:8082 /server 127.0.0.1:${node_ports[1]} /" \
    -e "s/server 127.0.0.1:8083 /server 127.0.0.1:${node_ports[2]} /" \
    Config/nginx.conf >"$work/nginx/nginx.conf"
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/logs/error.log" -g "daemon off;" &
pids+=($!)
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$lb_port/healthz" >/dev/null && break; sleep 0.05; done

url="http://127.0.0.1:$lb_port"
echo "viewhost cluster on $url (nodes ${node_ports[*]}, PostgreSQL 127.0.0.1:$pg_port; pids ${pids[*]}; logs in $work)"

if [ "$mode" = test ]; then
    python3 "$repo/Tests/Cluster/failover_test.py" --url "$url" --database-url "$database_url" \
        --victim-pid "$node2_pid" --victim-node node2 \
        --postgres-restart "${as_postgres[*]} $pg_bin/pg_ctl restart -w -t 30 -m fast -D $work/pg -l $work/postgres.log" \
        --sessions "${CLUSTER_SESSIONS:-300}" --seconds "${CLUSTER_SECONDS:-20}"
    exit $?
fi
echo "Ctrl-C stops everything."
# `wait` (not a foreground sleep), so SIGINT/SIGTERM run the trap at once.
while true; do sleep 3600 & wait $!; done
