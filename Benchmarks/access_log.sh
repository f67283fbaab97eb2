#!/usr/bin/env bash
# Benchmarks/access_log.sh — what the access log costs: GET snapshot req/s with log.access off and on, stderr to
# /dev/null and to a file. Release build, --store memory, one server at a time, rounds interleaved.
#
#   Benchmarks/access_log.sh [SECONDS] [ROUNDS]      # defaults 10 and 2; prints a Markdown table
#
# Needs wrk, curl and python3; builds the release binary into .build-bench first unless VIEWHOST_BINARY names one.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
DURATION="${1:-10}"
ROUNDS="${2:-2}"
BIN="${VIEWHOST_BINARY:-}"
if [ -z "$BIN" ]; then
  swift build -c release --product viewhost --scratch-path .build-bench >&2
  BIN="$PWD/.build-bench/release/viewhost"
fi
RUN="$(mktemp -d -t viewhost-accesslog.XXXXXX)"
PID=""
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null; rm -rf "$RUN"; }
trap cleanup EXIT

start() {   # access(true|false) stderr-target -> PID, PORT
  (cd "$RUN" && exec env VIEWHOST_LOG_ACCESS="$1" "$BIN" serve --port 0 --store memory --weather-provider offline) \
    > "$RUN/out" 2> "$2" &
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

echo "| round | log.access | stderr | req/s | p50 | p99 | log bytes written |"
echo "|---:|---|---|---:|---:|---:|---:|"
for round in $(seq "$ROUNDS"); do
  for config in "false /dev/null" "true /dev/null" "true file"; do
    read -r access target <<< "$config"
    err="/dev/null"; [ "$target" = file ] && err="$RUN/server.log"
    rm -f "$RUN/server.log"
    start "$access" "$err"
    body="$(curl -s -X POST -H 'Content-Type: application/json' --data '{"features":["chat"]}' "http://127.0.0.1:$PORT/v1/sessions")"
    id="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["id"])' "$body")"
    token="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["token"])' "$body")"
    url="http://127.0.0.1:$PORT/v1/sessions/$id/chat"
    wrk -t2 -c64 -d2s -H "Authorization: Bearer $token" "$url" > /dev/null   # warm-up
    result="$(wrk -t2 -c64 -d"${DURATION}s" --latency -H "Authorization: Bearer $token" "$url")"
    stop
    rps="$(awk '/^Requests\/sec:/ {print $2}' <<< "$result")"
    p50="$(awk '$1 == "50%" {print $2}' <<< "$result")"
    p99="$(awk '$1 == "99%" {print $2}' <<< "$result")"
    bytes="-"; [ "$target" = file ] && bytes="$(stat -c %s "$RUN/server.log")"
    echo "| $round | $access | $target | $rps | $p50 | $p99 | $bytes |"
  done
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
