#!/usr/bin/env bash
# Benchmarks/event_cpu.sh — server CPU per event POST, memory store against SQLite (--sync full), for one or more
# builds, interleaved; optionally a perf profile of each SQLite run grouped into the parts of an event's path.
# Measurement harness, not product code. Loopback only, bounded in time; every server is stopped by its pid.
#
#   Benchmarks/event_cpu.sh BIN [BIN…]            # ROUNDS=2 DURATION=8s FEATURE=login BODY='{"type":"setUsername","value":"bench-user"}'
#   PROFILE=1 Benchmarks/event_cpu.sh BIN [BIN…]  # also perf record -g of each sqlite run, summarised by event_profile.py
#   STORES=memory Benchmarks/event_cpu.sh BIN [BIN…]   # one store only (a build without --store runs on memory)
#
# For each round, each build and each store: a fresh server (access log and rate limits off), 64 sessions of
# FEATURE, then wrk -t2 -c64 -dDURATION of POST FEATURE/events BODY (product_events.lua). The server's CPU is
# read from /proc/PID/stat before and after (user + system, every thread): µs per request = CPU ÷ requests.
# wrk shares the 2 cores with the server, so req/s is what this machine gives; CPU per request is the server's.
set -euo pipefail
BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROUNDS="${ROUNDS:-2}" DURATION="${DURATION:-8s}" FEATURE="${FEATURE:-login}" PROFILE="${PROFILE:-0}"
STORES="${STORES:-memory sqlite}"
BODY="${BODY:-{\"type\":\"setUsername\",\"value\":\"bench-user\"\}}"
[[ $# -ge 1 ]] || { echo "usage: $0 BIN [BIN…]" >&2; exit 64; }
WORK="$(mktemp -d /tmp/viewhost-event-cpu.XXXXXX)"
PIDS=()
cleanup() { local p; for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
for round in $(seq "$ROUNDS"); do
  for bin in "$@"; do
    # A build from before durable sessions (7956c5b) knows no --store: it runs once, on memory, its only store.
    stores="$STORES" store_args=(--store STORE --sync full)
    if ! "$bin" serve --help 2>/dev/null | grep -q -- '--store'; then stores=memory store_args=(); fi
    for store in $stores; do
      dir="$WORK/$round-$(echo "$bin" | md5sum | cut -c1-8)-$store"; mkdir -p "$dir"
      (cd "$dir" && exec env VIEWHOST_LOG_ACCESS=false VIEWHOST_LIMITS_SESSIONS_PER_MINUTE_PER_CLIENT=0 \
        VIEWHOST_LIMITS_EVENTS_PER_SECOND_PER_SESSION=0 "$bin" serve --port 0 --weather-provider offline \
        "${store_args[@]/STORE/$store}") > "$dir/out" 2> "$dir/err" &
      pid=$!; PIDS+=("$pid"); port=""
      for _ in $(seq 300); do
        port="$(sed -n 's|^viewhost listening on http://127\.0\.0\.1:\([0-9]*\)$|\1|p' "$dir/out" | head -1)"
        [[ -n "$port" ]] && break; sleep 0.1
      done
      [[ -n "$port" ]] || { echo "no readiness line from $bin ($store)" >&2; exit 2; }
      python3 "$BENCH/product_client.py" create --port "$port" --pid "$pid" --count 64 --conns 8 --settle 0 \
        --body "{\"features\":[\"$FEATURE\"]}" --sessions-out "$dir/sessions.txt" > /dev/null
      sleep 1
      before="$(ticks "$pid")"
      env VH_THREADS=2 VH_SESSIONS="$dir/sessions.txt" VH_FEATURE="$FEATURE" VH_BODY="$BODY" \
        wrk -t2 -c64 -d"$DURATION" --latency -s "$BENCH/product_events.lua" "http://127.0.0.1:$port" > "$dir/wrk.txt" 2>&1 &
      wrk_pid=$!
      if [[ "$PROFILE" == 1 && "$store" == sqlite ]]; then
        sleep 1; perf record -F 499 -g -p "$pid" -o "$dir/perf.data" -- sleep 5 > /dev/null 2>&1 || true
      fi
      wait "$wrk_pid"
      after="$(ticks "$pid")"
      kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
      requests="$(awk '/requests in/{print $1}' "$dir/wrk.txt")"
      rate="$(awk '/Requests\/sec/{print $2}' "$dir/wrk.txt")"
      ticks_per_s="$(getconf CLK_TCK)"
      python3 -c "import sys; r, req, c = float(sys.argv[2]), int(sys.argv[3]), (float(sys.argv[5]) - float(sys.argv[4])) / float(sys.argv[6]); print(f'round {sys.argv[7]} {sys.argv[1]} {sys.argv[8]}: {r:,.0f} req/s, server CPU {c * 1e6 / req:.0f} µs per request')" \
        "$bin" "$rate" "$requests" "$before" "$after" "$ticks_per_s" "$round" "$store"
      if [[ -f "$dir/perf.data" ]]; then python3 "$BENCH/event_profile.py" "$dir/perf.data"; fi
    done
  done
done
rm -rf "$WORK"
