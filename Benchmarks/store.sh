#!/usr/bin/env bash
# Benchmarks/store.sh — one node on PostgreSQL against the same node on SQLite, in one run (docs/SCALING.md).
# Measurement harness, not product code. Loopback only, bounded in time; every process started here is stopped by
# its pid on exit.
#
#   Benchmarks/store.sh                       # builds the release binary unless VIEWHOST_BINARY names one
#   DURATION=10s ROUNDS=2 SESSIONS=64 Benchmarks/store.sh
#
# For each store (sqlite with --sync full, postgres with synchronous_commit on): a fresh server, SESSIONS login
# sessions, then ROUNDS interleaved rounds of
#   wrk -t2 -c64 POST /v1/sessions/{id}/login/events {"type":"setUsername","value":"x"} (product_events.lua), and
#   wrk -t2 -c64 GET  /v1/sessions/{id}/login (snapshot_get.lua: the newest snapshot, read from memory).
# PostgreSQL's transactions committed during each event run (pg_stat_database.xact_commit) give commits per second.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
DURATION="${DURATION:-10s}"
ROUNDS="${ROUNDS:-2}"
SESSIONS="${SESSIONS:-64}"

binary="${VIEWHOST_BINARY:-}"
if [ -z "$binary" ]; then
    swift build -c release --product viewhost >&2
    binary="$(swift build -c release --show-bin-path)/viewhost"
fi

work="$(mktemp -d /tmp/viewhost-store-bench.XXXXXX)"
as_postgres=()
if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$work"
    as_postgres=(setpriv --reuid=postgres --regid=postgres --init-groups)
fi
pids=()
cleanup() {
    [ -f "$work/pids" ] && while read -r pid; do pids+=("$pid"); done <"$work/pids"
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    done
    if [ -f "$work/pg/postmaster.pid" ]; then
        pg_pid="$(head -1 "$work/pg/postmaster.pid")"
        kill -INT "$pg_pid" 2>/dev/null || true
        for _ in $(seq 100); do kill -0 "$pg_pid" 2>/dev/null || break; sleep 0.1; done
    fi
    if [ -n "${KEEP_WORK:-}" ]; then echo "store.sh: outputs kept in $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

pg_bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
pg_port="$(free_port)"
"${as_postgres[@]}" "$pg_bin/initdb" -D "$work/pg" -A trust -U postgres -E UTF8 >/dev/null
"${as_postgres[@]}" "$pg_bin/pg_ctl" start -w -D "$work/pg" -l "$work/postgres.log" \
    -o "-k $work -p $pg_port -c listen_addresses=127.0.0.1" >/dev/null
"${as_postgres[@]}" "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres viewhost
database_url="postgres://postgres@127.0.0.1:$pg_port/viewhost"


start_server() {
    local store=$1 port
    port="$(free_port)"
    local flags=(--store sqlite --data-dir "$work/sqlite" --sync full)
    [ "$store" = postgres ] && flags=(--store postgres --database-url "$database_url" --node-id bench)
    (cd "$work" && exec "$binary" serve --port "$port" --log-level error "${flags[@]}") >"$work/$store.out" 2>"$work/$store.err" &
    # Called in $(…), a subshell: the pid goes to a file the EXIT trap reads, so the server is stopped.
    echo $! >>"$work/pids"
    for _ in $(seq 200); do grep -q "viewhost listening" "$work/$store.out" && break; sleep 0.05; done
    rm -f "$work/$store.sessions"
    for _ in $(seq "$SESSIONS"); do
        curl -fs -X POST "http://127.0.0.1:$port/v1/sessions" -H 'Content-Type: application/json' \
            -d '{"features":["login"]}' | python3 -c 'import json,sys; a=json.load(sys.stdin); print(a["id"], a["token"])' \
            >>"$work/$store.sessions"
    done
    echo "$port"
}

commits() {
    psql "$database_url" -At -c "SELECT xact_commit FROM pg_stat_database WHERE datname = 'viewhost'"
}

rps() { awk '/Requests\/sec/ {print $2}' "$1"; }
p99() { awk '/ 99%/ {print $2}' "$1"; }

declare -A port
for store in sqlite postgres; do port[$store]="$(start_server "$store")"; done

echo "store benchmark: $(date -u +%FT%TZ), $(nproc) cores, $DURATION per run, $ROUNDS rounds, $SESSIONS sessions, wrk -t2 -c64"
for round in $(seq "$ROUNDS"); do
    for store in sqlite postgres; do
        url="http://127.0.0.1:${port[$store]}"
        before=$(commits)
        VH_SESSIONS="$work/$store.sessions" VH_FEATURE=login VH_BODY='{"type":"setUsername","value":"x"}' \
            wrk -t2 -c64 -d"$DURATION" --latency -s Benchmarks/product_events.lua "$url" >"$work/post-$store-$round.txt"
        after=$(commits)
        VH_SESSIONS="$work/$store.sessions" wrk -t2 -c64 -d"$DURATION" --latency -s Benchmarks/snapshot_get.lua "$url" \
            >"$work/get-$store-$round.txt"
        seconds=${DURATION%s}
        extra=""
        [ "$store" = postgres ] && extra=", PostgreSQL commits/s $(( (after - before) / seconds ))"
        echo "round $round $store: POST events $(rps "$work/post-$store-$round.txt")/s (p99 $(p99 "$work/post-$store-$round.txt")), GET snapshot $(rps "$work/get-$store-$round.txt")/s (p99 $(p99 "$work/get-$store-$round.txt"))$extra"
        if grep -qE "Non-2xx|Socket errors" "$work/post-$store-$round.txt" "$work/get-$store-$round.txt"; then
            grep -HE "Non-2xx|Socket errors" "$work/post-$store-$round.txt" "$work/get-$store-$round.txt"
        fi
    done
done
