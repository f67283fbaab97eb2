#!/usr/bin/env bash
# Benchmarks/access_log.sh — what the access log costs: req/s with log.access off and on, stderr to /dev/null and to
# a file. Release builds, --store memory, one server at a time, rounds interleaved (every build and setting once per
# round). Measurement harness, not product code; every load targets 127.0.0.1 and is bounded in time.
#
#   Benchmarks/access_log.sh [SECONDS] [ROUNDS]      # defaults 10 and 2; prints a Markdown table
#
# Environment:
#   ROUTE=snapshot (default)  GET /v1/sessions/{id}/chat with John's chat open, one session
#   ROUTE=event               POST /v1/sessions/{id}/login/events {"type":"setUsername",…} over 64 sessions
#                             (Benchmarks/product_events.lua)
#   VIEWHOST_BINARIES="label=path …"   builds to compare in the same rounds (e.g. before=… after=…); default: the
#                             working tree, built into .build-bench
# Needs wrk, curl and python3.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
DURATION="${1:-10}"
ROUNDS="${2:-2}"
ROUTE="${ROUTE:-snapshot}"
RUN="$(mktemp -d -t viewhost-accesslog.XXXXXX)"
say() { echo "access_log.sh: $*" >&2; }
logged() { "$@"; }
# shellcheck source=Benchmarks/lib.sh
source Benchmarks/lib.sh
install_missing_commands wrk:wrk curl:curl python3:python3
BINARIES=()
if [ -n "${VIEWHOST_BINARIES:-}" ]; then
  read -r -a BINARIES <<< "$VIEWHOST_BINARIES"
else
  swift build -c release --product viewhost --scratch-path .build-bench >&2
  BINARIES=("working-tree=$PWD/.build-bench/release/viewhost")
fi
PID=""
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null; rm -rf "$RUN"; }
trap cleanup EXIT

start() {   # binary access(true|false) stderr-target -> PID, PORT
  (cd "$RUN" && exec env VIEWHOST_LOG_ACCESS="$2" VIEWHOST_LIMITS_SESSIONS_PER_MINUTE_PER_CLIENT=0 \
    VIEWHOST_LIMITS_EVENTS_PER_SECOND_PER_SESSION=0 "$1" serve --port 0 --store memory --weather-provider offline) \
    > "$RUN/out" 2> "$3" &
  PID=$!
  PORT=""
  for _ in $(seq 200); do
    PORT="$(sed -n 's|^viewhost listening on http://127\.0\.0\.1:\([0-9]*\)$|\1|p' "$RUN/out" | head -1)"
    [ -n "$PORT" ] && break
    sleep 0.05
  done
  [ -n "$PORT" ] || { echo "server did not start" >&2; exit 1; }
}

stop() { kill -TERM "$PID"; wait "$PID" 2>/dev/null || true; PID=""; }

load() {   # seconds -> wrk's output, against the server on PORT
  if [ "$ROUTE" = event ]; then
    python3 Benchmarks/product_client.py create --port "$PORT" --pid "$PID" --count 64 --conns 8 \
      --body '{"features":["login"]}' --sessions-out "$RUN/sessions.txt" > /dev/null
    VH_SESSIONS="$RUN/sessions.txt" VH_FEATURE=login VH_BODY='{"type":"setUsername","value":"bench-user"}' \
      wrk -t2 -c64 -d"$1s" --latency -s Benchmarks/product_events.lua "http://127.0.0.1:$PORT"
  else
    local body id token
    body="$(curl -s -X POST -H 'Content-Type: application/json' --data '{"features":["chat"]}' "http://127.0.0.1:$PORT/v1/sessions")"
    id="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["id"])' "$body")"
    token="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["token"])' "$body")"
    wrk -t2 -c64 -d"$1s" --latency -H "Authorization: Bearer $token" "http://127.0.0.1:$PORT/v1/sessions/$id/chat"
  fi
}

echo "route: $ROUTE; ${DURATION}s per run after a 2 s warm-up on the same server"
echo
echo "| round | build | log.access | stderr | req/s | p50 | p99 | log bytes written |"
echo "|---:|---|---|---|---:|---:|---:|---:|"
for round in $(seq "$ROUNDS"); do
  for binary in "${BINARIES[@]}"; do
    label="${binary%%=*}"
    path="${binary#*=}"
    for config in "false /dev/null" "true /dev/null" "true file"; do
      read -r access target <<< "$config"
      err="/dev/null"; [ "$target" = file ] && err="$RUN/server.log"
      rm -f "$RUN/server.log"
      start "$path" "$access" "$err"
      load 2 > /dev/null   # warm-up (for events: its own 64 sessions)
      result="$(load "$DURATION")"
      stop
      rps="$(awk '/^Requests\/sec:/ {print $2}' <<< "$result")"
      p50="$(awk '$1 == "50%" {print $2}' <<< "$result")"
      p99="$(awk '$1 == "99%" {print $2}' <<< "$result")"
      bytes="-"; [ "$target" = file ] && bytes="$(stat -c %s "$RUN/server.log")"
      echo "| $round | $label | $access | $target | $rps | $p50 | $p99 | $bytes |"
    done
  done
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
