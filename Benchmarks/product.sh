#!/usr/bin/env bash
# Benchmarks/product.sh — the real product (`viewhost serve`) measured in one run; writes the section
# "## Product benchmarks (viewhost serve)" of BENCHMARKS.md (replaces that section, keeps everything else).
# Measurement harness, not product code. Every load targets 127.0.0.1 only and is bounded in count and time.
#
# Usage: Benchmarks/product.sh         (from anywhere; about 5 min after the builds)
#
# 1. Installs what is missing (wrk curl iproute2 python3) with apt-get (sudo when not root).
# 2. Builds (unless SKIP_BUILD=1), each in its own scratch path so it never waits on <repo>/.build:
#      swift build -c release --product viewhost --scratch-path <repo>/.build-bench
#      hb-peer: the same copy and build as Benchmarks/run.sh (shared peers copied to Benchmarks/out/harness/peers,
#      swift build -c release --package-path <copy> --scratch-path <repo>/.build-peers); reused when present.
# 3. Measures, with servers started here (stdout/stderr in the run folder; stopped by PID on exit):
#    a. start time: STARTUP_RUNS x `viewhost serve --port 0` (offline weather, embedded gazetteer), monotonic time
#       from spawn to the readiness line and to the first 200 of /healthz; SIGTERM after each (product_client.py).
#    b. one server + hb-peer: curl checks, then ROUNDS interleaved rounds of wrk -t2 -c64 -dDURATION --latency:
#       hb-peer GET /bench/snapshot | ours GET /v1/sessions/{id}/chat (Bearer) | ours the same with If-None-Match
#       (304) | hb-peer POST /bench/event (shared post.lua) | ours POST /v1/sessions/{id}/chat/events
#       {"type":"send","contact":"John","text":"hi"} rotating over EVENT_SESSIONS sessions (product_events.lua).
#       Then, once, two reference points on the same server (no goal): GET /healthz and POST login/events
#       {"type":"setUsername"} (an event without timers) over EVENT_SESSIONS login sessions.
#       After each run of ours it waits (at most 20 s) until the server's CPU falls below 5 % of a core, so the
#       timers that the events scheduled do not run inside the next measurement; that tail is reported.
#    c. a fresh server per body: SESSIONS_N sessions created with POST /v1/sessions over CREATE_CONNS keep-alive
#       connections, {"features":["chat"]} and (ALL_FEATURES=1) all four features; rate, VmRSS before/after.
#    d. a fresh server: STREAM_SESSIONS sessions x STREAMS_PER streams (GET /v1/sessions/{id}/stream), RSS per idle
#       stream, then one change per session ({"type":"setUsername"} on the login feature) paced over PACE_SECONDS
#       and then as one burst: per-stream delivery latency; then LONGPOLL_N long polls (?wait=30 + If-None-Match)
#       woken by one change each.
# 4. Writes the section (date, machine, load, commands, tables, goals met / not met) into REPORT.
#
# Environment (defaults): DURATION=10s WARMUP=3s ROUNDS=2 THREADS=2 CONNS=64 STARTUP_RUNS=20 HB_PORT=auto (a free port)
#   EVENT_SESSIONS=64 SESSIONS_N=100000 CREATE_CONNS=128 ALL_FEATURES=1 STREAM_SESSIONS=2000 STREAMS_PER=5
#   LONGPOLL_N=200 PACE_SECONDS=2 SKIP_BUILD=0 QUIET_BUSY=20 QUIET_WAIT=60 (wait at most this long for the
#   machine's CPU use over 5 s to fall below QUIET_BUSY %, then go on and say so) REPORT=<repo>/BENCHMARKS.md
#   NICE=0 (e.g. NICE=-10 as root: servers and clients run at that nice value, so others' builds take less of the cores)
# Each wrk run also records how much CPU other processes took meanwhile (wrk-*.cpu; "others %" in the tables):
# machine busy time (/proc/stat) minus this script's reaped children and the servers it runs.
# Only one run at a time (flock on Benchmarks/out/.product.lock; a second run waits).
# Servers run with the working directory set to the run folder (no Config/viewhost.json there: built-in defaults
# plus the VIEWHOST_* variables below), so edits to Config/ by others cannot change a run.
# Outputs: Benchmarks/out/product-<UTC stamp>/ (git-ignored): commands.txt, machine-state.txt, build logs, server
# logs, curl checks, wrk-*.txt, *.json from product_client.py, metrics-*.txt, and a copy of the section.
set -euo pipefail

INVOCATION="Benchmarks/product.sh"
for v in DURATION WARMUP ROUNDS THREADS CONNS STARTUP_RUNS HB_PORT EVENT_SESSIONS SESSIONS_N CREATE_CONNS ALL_FEATURES \
         STREAM_SESSIONS STREAMS_PER LONGPOLL_N PACE_SECONDS SKIP_BUILD QUIET_BUSY QUIET_WAIT NICE REPORT SHARED_BENCH; do
  [[ -n "${!v+x}" ]] && INVOCATION="$v=${!v} $INVOCATION"
done
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$REPO/Benchmarks"
SHARED_BENCH="$(cd "${SHARED_BENCH:-$REPO/../shared/bench}" && pwd)"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
RUN="$BENCH/out/product-$STAMP"
REPORT="${REPORT:-$REPO/BENCHMARKS.md}"
DURATION="${DURATION:-10s}" WARMUP="${WARMUP:-3s}" ROUNDS="${ROUNDS:-2}" THREADS="${THREADS:-2}" CONNS="${CONNS:-64}"
STARTUP_RUNS="${STARTUP_RUNS:-20}"
HB_PORT="${HB_PORT:-auto}"
EVENT_SESSIONS="${EVENT_SESSIONS:-64}"
SESSIONS_N="${SESSIONS_N:-100000}"
CREATE_CONNS="${CREATE_CONNS:-128}"
ALL_FEATURES="${ALL_FEATURES:-1}"
STREAM_SESSIONS="${STREAM_SESSIONS:-2000}"
STREAMS_PER="${STREAMS_PER:-5}"
LONGPOLL_N="${LONGPOLL_N:-200}"
PACE_SECONDS="${PACE_SECONDS:-2}"
SKIP_BUILD="${SKIP_BUILD:-0}"
QUIET_BUSY="${QUIET_BUSY:-20}"
QUIET_WAIT="${QUIET_WAIT:-60}"
NICE="${NICE:-0}"
[[ "$NICE" =~ ^-?[0-9]+$ ]] || { echo "product.sh: NICE must be an integer" >&2; exit 2; }
HOST=127.0.0.1   # the only target
[[ "$HB_PORT" == auto ]] && HB_PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
for v in ROUNDS THREADS CONNS STARTUP_RUNS HB_PORT EVENT_SESSIONS SESSIONS_N CREATE_CONNS STREAM_SESSIONS STREAMS_PER LONGPOLL_N; do
  [[ "${!v}" =~ ^[0-9]+$ ]] || { echo "product.sh: $v must be an integer" >&2; exit 2; }
done
[[ "$DURATION" =~ ^[0-9]+s$ && "${DURATION%s}" -le 15 ]] || { echo "product.sh: DURATION must be 1s..15s" >&2; exit 2; }

die() { echo "product.sh: $*" >&2; exit 2; }
say() { echo "product.sh: $*" >&2; }
mkdir -p "$RUN"
# One run at a time: two runs on 2 cores would measure each other (a second one waits, at most 15 min).
exec 9> "$BENCH/out/.product.lock"
if ! flock -n 9; then
  say "another Benchmarks/product.sh is running; waiting for it (at most 15 min)"
  flock -w 900 9 || die "the other run did not finish within 15 min"
fi
COMMANDS="$RUN/commands.txt"
: > "$COMMANDS"
logged() { echo "\$ $*" >> "$COMMANDS"; "$@"; }
T_START=$(date +%s)

# ---------------------------------------------------------------- tools
# shellcheck source=Benchmarks/lib.sh
source "$REPO/Benchmarks/lib.sh"
install_missing_commands wrk:wrk curl:curl ss:iproute2 python3:python3 timeout:coreutils
command -v swift >/dev/null || die "swift not found"
# Streams need file descriptors: as many as the hard limit allows (servers and clients inherit it).
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
NOFILE="$(ulimit -n)"

# ---------------------------------------------------------------- builds
HARNESS="$BENCH/out/harness"
if [[ "$SKIP_BUILD" != 1 ]]; then
  say "building viewhost (release) -> $RUN/build-viewhost.log"
  (cd "$REPO" && logged swift build -c release --product viewhost --scratch-path "$REPO/.build-bench") \
    > "$RUN/build-viewhost.log" 2>&1 || { tail -30 "$RUN/build-viewhost.log" >&2; die "viewhost build failed"; }
  if ! { diff -q "$SHARED_BENCH/peers/Package.swift" "$HARNESS/peers/Package.swift" &&
         diff -rq "$SHARED_BENCH/peers/Sources" "$HARNESS/peers/Sources"; } > /dev/null 2>&1; then
    rm -rf "$HARNESS/peers"; mkdir -p "$HARNESS/peers"
    cp -R "$SHARED_BENCH/peers/Package.swift" "$SHARED_BENCH/peers/Sources" "$HARNESS/peers/"
    [[ -f "$SHARED_BENCH/peers/Package.resolved" ]] && cp "$SHARED_BENCH/peers/Package.resolved" "$HARNESS/peers/"
    chmod -R u+w "$HARNESS/peers"
  fi
  say "building hb-peer (release; the first time takes minutes) -> $RUN/build-peers.log"
  logged swift build -c release --package-path "$HARNESS/peers" --scratch-path "$REPO/.build-peers" --product hb-peer \
    > "$RUN/build-peers.log" 2>&1 || { tail -30 "$RUN/build-peers.log" >&2; die "hb-peer build failed"; }
fi
VH_BIN="$(cd "$REPO" && swift build -c release --product viewhost --scratch-path "$REPO/.build-bench" --show-bin-path)/viewhost"
HB_BIN="$REPO/.build-peers/release/hb-peer"
[[ -x "$VH_BIN" ]] || die "no $VH_BIN (run without SKIP_BUILD=1)"
[[ -x "$HB_BIN" ]] || die "no $HB_BIN (run without SKIP_BUILD=1, or Benchmarks/run.sh once)"
cp "$SHARED_BENCH/post.lua" "$RUN/post.lua"

# ---------------------------------------------------------------- servers (stopped by PID)
STARTED=()
STOP_NOTES="$RUN/stops.txt"; : > "$STOP_NOTES"
stop_pid() {   # pid [name]: TERM, wait up to 15 s, then KILL; records how long the exit took
  local pid="$1" name="${2:-?}" i t0 t1 how="exit"
  t0=$(date +%s%N)
  kill -TERM "$pid" 2>/dev/null || return 0
  for i in $(seq 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; how="KILLED after 15 s"; fi
  local rc=0; wait "$pid" 2>/dev/null || rc=$?
  t1=$(date +%s%N)
  echo "$name pid $pid: SIGTERM -> $how in $(( (t1 - t0) / 1000000 )) ms, exit status $rc" >> "$STOP_NOTES"
}
cleanup() {
  local pid
  for pid in "${STARTED[@]}"; do stop_pid "$pid" "(cleanup)"; done
  STARTED=()
}
trap cleanup EXIT
trap 'exit 130' INT TERM
forget() { local keep=() p; for p in "${STARTED[@]}"; do [[ "$p" == "$1" ]] || keep+=("$p"); done; STARTED=("${keep[@]}"); }

# One client address creates 100,000 sessions and posts far over 200 events/s to one session: the abuse limits
# are off, and so is the access log (its cost is measured on its own: BENCHMARKS.md "Access log").
VH_ENV=(VIEWHOST_SESSIONS_MAX=200000 VIEWHOST_STREAMS_MAX=20000 VIEWHOST_STREAMS_MAX_PER_SESSION=8
        VIEWHOST_SERVER_MAX_CONNECTIONS=20000 VIEWHOST_LIMITS_SESSIONS_PER_MINUTE_PER_CLIENT=0
        VIEWHOST_LIMITS_EVENTS_PER_SECOND_PER_SESSION=0 VIEWHOST_LOG_ACCESS=false)
PORT=""; PID=""
start_viewhost() {   # name -> PID, PORT (reads the readiness line)
  local name="$1" i
  local log="$RUN/server-$name"
  echo "\$ (cd $RUN && env ${VH_ENV[*]} $VH_BIN serve --port 0 --simulation-speed 1 --weather-provider offline) &   # $name" >> "$COMMANDS"
  (cd "$RUN" && exec env "${VH_ENV[@]}" "$VH_BIN" serve --port 0 --simulation-speed 1 --weather-provider offline) \
    > "$log.out" 2> "$log.err" &
  PID=$!
  STARTED+=("$PID")
  for i in $(seq 300); do
    PORT="$(sed -n 's|^viewhost listening on http://127\.0\.0\.1:\([0-9]*\)$|\1|p' "$log.out" | head -1)"
    [[ -n "$PORT" ]] && return 0
    kill -0 "$PID" 2>/dev/null || { cat "$log.err" >&2; die "viewhost ($name) exited"; }
    sleep 0.1
  done
  die "viewhost ($name) printed no readiness line within 30 s"
}
stop_viewhost() { stop_pid "$1" "$2"; forget "$1"; }

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
wait_idle() {   # pid label: wait (<= 20 s) until the process uses < 5 % of a core over 1 s; records the tail
  local pid="$1" label="$2" a b waited=0 total=0 hz
  hz="$(getconf CLK_TCK)"
  while (( waited < 20 )); do
    a=$(cpu_ticks "$pid"); sleep 1; b=$(cpu_ticks "$pid"); waited=$(( waited + 1 )); total=$(( total + b - a ))
    (( (b - a) * 100 < 5 * hz )) && break
  done
  echo "$label: waited ${waited} s for the server to go idle; it used $(awk -v t="$total" -v hz="$hz" 'BEGIN { printf "%.2f", t / hz }') CPU s meanwhile" >> "$RUN/tails.txt"
}


# ---------------------------------------------------------------- machine state
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M:%SZ') (UTC)"
  echo "uptime before: $(uptime)"
  echo "nproc: $(nproc)"
  echo "cpu: $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
  echo "memory: $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
  echo "kernel: $(uname -srm)"
  echo "swift: $(swift --version 2>/dev/null | head -1)"
  echo "wrk: $(wrk -v 2>&1 | head -1 | sed 's/ *Copyright.*//')"
  echo "python: $(python3 --version 2>&1)"
  echo "nofile: $NOFILE"
  echo "repo: $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo '?')$( [[ -n "$(git -C "$REPO" status --porcelain -- . ':!BENCHMARKS.md' 2>/dev/null)" ]] && echo ' + uncommitted changes in the working tree (besides BENCHMARKS.md)')"
} > "$RUN/meta.txt"
wait_for_quiet_machine "$QUIET_BUSY" "$QUIET_WAIT"
say "$QUIET_NOTE"
{
  echo "quiet: $QUIET_NOTE"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "busiest other processes (ps %CPU = lifetime average):"
  ps -eo pid,pcpu,etime,comm --sort=-pcpu | head -6
} > "$RUN/machine-state.txt"

if [[ "$NICE" != 0 ]]; then
  logged renice -n "$NICE" -p $$ > /dev/null || die "cannot renice to $NICE"
  QUIET_NOTE="$QUIET_NOTE; servers and clients ran at nice $NICE"
  echo "quiet: $QUIET_NOTE" >> "$RUN/machine-state.txt"
fi
CLIENT=(python3 "$BENCH/product_client.py")
"${CLIENT[@]}" cpu snap --out "$RUN/cpu-before.json"   # to tell, at the end, how much CPU other processes took

# ---------------------------------------------------------------- a. start time
say "start time: $STARTUP_RUNS runs"
mkdir -p "$RUN/startup-cwd"
echo "\$ (cd $RUN/startup-cwd && ${CLIENT[*]} startup --bin $VH_BIN --runs $STARTUP_RUNS --json-out $RUN/startup.json)   # each run: viewhost serve --port 0" >> "$COMMANDS"
"${CLIENT[@]}" startup --bin "$VH_BIN" --runs "$STARTUP_RUNS" --cwd "$RUN/startup-cwd" --json-out "$RUN/startup.json" > /dev/null \
  || say "start-time measurement failed (see $RUN/startup.json)"

# ---------------------------------------------------------------- b. throughput: ours and hb-peer
[[ -n "$(ss -Htln "sport = :$HB_PORT")" ]] && die "port $HB_PORT (hb-peer) is in use; set HB_PORT"
echo "\$ $HB_BIN $HB_PORT &" >> "$COMMANDS"
"$HB_BIN" "$HB_PORT" > "$RUN/server-hb-peer.log" 2>&1 &
HB_PID=$!; STARTED+=("$HB_PID")
for i in $(seq 150); do curl -s -o /dev/null -m 1 "http://$HOST:$HB_PORT/bench/snapshot" && break; sleep 0.2; done
start_viewhost load; VH_PID="$PID"; VH_PORT="$PORT"
B="http://$HOST:$VH_PORT"
CHECKS="$RUN/checks.txt"; : > "$CHECKS"
check() {   # label expected-status curl-args...: records the answer; fails the run when the status differs
  local label="$1" want="$2"; shift 2
  echo "\$ curl $(printf '%q ' "$@")" >> "$COMMANDS"
  local out; out="$(curl -sS -m 5 -o "$RUN/check-body.tmp" -w '%{http_code} %{size_download}' "$@" || true)"
  local code="${out%% *}" size="${out#* }"
  echo "$label: HTTP $code, $size B (want $want)" >> "$CHECKS"
  [[ "$code" == "$want" ]] || { cat "$RUN/check-body.tmp" >&2; die "check '$label' answered $code, want $want"; }
  LAST_BODY="$(cat "$RUN/check-body.tmp")"; LAST_SIZE="$size"
}
JSONF() { python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$LAST_BODY" "$1"; }
AUTHH() { echo "Authorization: Bearer $1"; }

check "hb-peer GET /bench/snapshot" 200 "http://$HOST:$HB_PORT/bench/snapshot"; HB_SIZE="$LAST_SIZE"
check "hb-peer POST /bench/event" 200 -X POST -H 'Content-Type: application/json' --data '{"type":"send","text":"hi"}' "http://$HOST:$HB_PORT/bench/event"
# The snapshot session: chat list loaded, John's chat open (no sends, so no timers change it during the runs).
check "POST /v1/sessions (snapshot session)" 201 -X POST -H 'Content-Type: application/json' --data '{"features":["chat"]}' "$B/v1/sessions"
GID="$(JSONF id)"; GTOK="$(JSONF token)"
check "POST chat/events appear" 202 -X POST -H "$(AUTHH "$GTOK")" -H 'Content-Type: application/json' --data '{"type":"appear"}' "$B/v1/sessions/$GID/chat/events"
sleep 1
check "POST chat/events openChat John" 202 -X POST -H "$(AUTHH "$GTOK")" -H 'Content-Type: application/json' --data '{"type":"openChat","contact":"John"}' "$B/v1/sessions/$GID/chat/events"
sleep 1
curl -sS -m 5 -D "$RUN/snapshot-head.txt" -o "$RUN/snapshot-body.json" -H "$(AUTHH "$GTOK")" "$B/v1/sessions/$GID/chat"
check "GET /v1/sessions/{id}/chat" 200 -H "$(AUTHH "$GTOK")" "$B/v1/sessions/$GID/chat"; VH_SIZE="$LAST_SIZE"
ETAG="$(sed -n 's/^[Ee][Tt][Aa][Gg]: *\([^[:space:]]*\).*/\1/p' "$RUN/snapshot-head.txt" | head -1)"
[[ -n "$ETAG" ]] || die "no ETag on the snapshot"
check "GET chat with If-None-Match $ETAG" 304 -H "$(AUTHH "$GTOK")" -H "If-None-Match: $ETAG" "$B/v1/sessions/$GID/chat"
# The event sessions: EVENT_SESSIONS chat sessions, chat list loaded (John exists), then one send each by curl.
echo "\$ ${CLIENT[*]} create --port $VH_PORT --pid $VH_PID --count $EVENT_SESSIONS --conns 8 --sessions-out $RUN/event-sessions.txt" >> "$COMMANDS"
"${CLIENT[@]}" create --port "$VH_PORT" --pid "$VH_PID" --count "$EVENT_SESSIONS" --conns 8 --settle 0 \
  --sessions-out "$RUN/event-sessions.txt" --json-out "$RUN/event-sessions.json" > /dev/null
[[ "$(wc -l < "$RUN/event-sessions.txt")" == "$EVENT_SESSIONS" ]] || die "could not create $EVENT_SESSIONS event sessions"
APPEAR_OK=0
while read -r sid tok; do
  code="$(curl -sS -m 5 -o /dev/null -w '%{http_code}' -X POST -H "$(AUTHH "$tok")" -H 'Content-Type: application/json' --data '{"type":"appear"}' "$B/v1/sessions/$sid/chat/events")"
  [[ "$code" == 202 ]] && APPEAR_OK=$(( APPEAR_OK + 1 ))
done < "$RUN/event-sessions.txt"
echo "POST chat/events appear on $EVENT_SESSIONS event sessions: $APPEAR_OK answered 202" >> "$CHECKS"
(( APPEAR_OK == EVENT_SESSIONS )) || die "appear was not accepted on every event session"
sleep 1
read -r EID ETOK < "$RUN/event-sessions.txt"
check "POST chat/events send (curl)" 202 -X POST -H "$(AUTHH "$ETOK")" -H 'Content-Type: application/json' --data '{"type":"send","contact":"John","text":"hi"}' "$B/v1/sessions/$EID/chat/events"
echo "  body: $LAST_BODY" >> "$CHECKS"
check "GET /metrics" 200 "$B/metrics"
wait_idle "$VH_PID" "after the checks"

machine_busy() { awk 'NR == 1 { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
self_ticks() { awk '{ print $14 + $15 + $16 + $17 }' "/proc/$$/stat"; }   # this shell + its reaped children
pids_ticks() { local t=0 p; for p in "$@"; do t=$(( t + $(cpu_ticks "$p" 2>/dev/null || echo 0) )); done; echo "$t"; }
run_wrk() {   # tag args...   (also records the CPU other processes on the machine took during the run)
  local tag="$1"; shift
  echo "\$ $(printf '%q ' "$@")   # $tag" >> "$COMMANDS"
  local m0 s0 p0 t0 m1 s1 p1 t1
  m0=$(machine_busy); s0=$(self_ticks); p0=$(pids_ticks "${STARTED[@]}"); t0=$(date +%s%N)
  "$@" > "$RUN/wrk-$tag.txt" 2>&1 || say "wrk $tag failed (see $RUN/wrk-$tag.txt)"
  m1=$(machine_busy); s1=$(self_ticks); p1=$(pids_ticks "${STARTED[@]}"); t1=$(date +%s%N)
  awk -v m=$(( m1 - m0 )) -v s=$(( s1 - s0 )) -v p=$(( p1 - p0 )) -v ns=$(( t1 - t0 )) -v hz="$(getconf CLK_TCK)" -v n="$(nproc)" \
    'BEGIN { o = m - s - p; if (o < 0) o = 0; printf "others_cpu_s %.2f\nothers_percent_of_machine %.1f\nwall_s %.2f\n", o / hz, 100 * (o / hz) / (n * ns / 1e9), ns / 1e9 }' \
    > "$RUN/wrk-$tag.cpu"
}
WRK=(wrk "-t$THREADS" "-c$CONNS")
GET_OURS=(-H "$(AUTHH "$GTOK")" "$B/v1/sessions/$GID/chat")
NM_OURS=(-H "$(AUTHH "$GTOK")" -H "If-None-Match: $ETAG" "$B/v1/sessions/$GID/chat")
export VH_SESSIONS="$RUN/event-sessions.txt" VH_THREADS="$THREADS"
say "wrk: warm-up and $ROUNDS rounds of $DURATION (about $(( (ROUNDS * 5 * ${DURATION%s} + 4 * ${WARMUP%s}) )) s of load)"
run_wrk warmup-get-hb "${WRK[@]}" "-d$WARMUP" --latency "http://$HOST:$HB_PORT/bench/snapshot"
run_wrk warmup-get-ours "${WRK[@]}" "-d$WARMUP" --latency "${GET_OURS[@]}"
run_wrk warmup-post-hb "${WRK[@]}" "-d$WARMUP" --latency -s "$RUN/post.lua" "http://$HOST:$HB_PORT/bench/event"
run_wrk warmup-post-ours "${WRK[@]}" "-d$WARMUP" --latency -s "$BENCH/product_events.lua" "$B"
wait_idle "$VH_PID" "after the warm-up"
for r in $(seq "$ROUNDS"); do
  run_wrk "r$r-get-hb" "${WRK[@]}" "-d$DURATION" --latency "http://$HOST:$HB_PORT/bench/snapshot"
  run_wrk "r$r-get-ours" "${WRK[@]}" "-d$DURATION" --latency "${GET_OURS[@]}"
  wait_idle "$VH_PID" "round $r after GET"
  run_wrk "r$r-304-ours" "${WRK[@]}" "-d$DURATION" --latency "${NM_OURS[@]}"
  wait_idle "$VH_PID" "round $r after GET 304"
  run_wrk "r$r-post-hb" "${WRK[@]}" "-d$DURATION" --latency -s "$RUN/post.lua" "http://$HOST:$HB_PORT/bench/event"
  run_wrk "r$r-post-ours" "${WRK[@]}" "-d$DURATION" --latency -s "$BENCH/product_events.lua" "$B"
  wait_idle "$VH_PID" "round $r after POST events"
done
# Reference points on the same server (no goal; they show where the time of the chat POST goes): the HTTP core
# alone (GET /healthz) and a cheap event (login setUsername, no timers) rotating over EVENT_SESSIONS login sessions.
echo "\$ ${CLIENT[*]} create --port $VH_PORT --pid $VH_PID --count $EVENT_SESSIONS --conns 8 --body '{\"features\":[\"login\"]}' --sessions-out $RUN/login-sessions.txt" >> "$COMMANDS"
"${CLIENT[@]}" create --port "$VH_PORT" --pid "$VH_PID" --count "$EVENT_SESSIONS" --conns 8 --settle 0 \
  --body '{"features":["login"]}' --sessions-out "$RUN/login-sessions.txt" --json-out "$RUN/login-sessions.json" > /dev/null
read -r LID LTOK < "$RUN/login-sessions.txt"
LOGIN_BODY='{"type":"setUsername","value":"benchuser"}'
check "POST login/events setUsername (curl)" 202 -X POST -H "$(AUTHH "$LTOK")" -H 'Content-Type: application/json' --data "$LOGIN_BODY" "$B/v1/sessions/$LID/login/events"
check "GET /healthz" 200 "$B/healthz"
run_wrk ref-healthz-ours "${WRK[@]}" "-d$DURATION" --latency "$B/healthz"
run_wrk ref-login-ours env VH_SESSIONS="$RUN/login-sessions.txt" VH_FEATURE=login VH_BODY="$LOGIN_BODY" \
  "${WRK[@]}" "-d$DURATION" --latency -s "$BENCH/product_events.lua" "$B"
wait_idle "$VH_PID" "after the reference runs"
# Afterwards: the snapshot session's ETag must not have moved (else the 304 runs were partly 200s), and the
# event sessions still answer.
curl -sS -m 5 -D "$RUN/snapshot-head-after.txt" -o /dev/null -H "$(AUTHH "$GTOK")" "$B/v1/sessions/$GID/chat"
ETAG_AFTER="$(sed -n 's/^[Ee][Tt][Aa][Gg]: *\([^[:space:]]*\).*/\1/p' "$RUN/snapshot-head-after.txt" | head -1)"
echo "snapshot session's ETag after all runs: $ETAG_AFTER (before: $ETAG)$([[ "$ETAG_AFTER" == "$ETAG" ]] && echo ', unchanged' || echo ' CHANGED: the 304 runs were partly 200s')" >> "$CHECKS"
check "GET an event session's chat after the load" 200 -H "$(AUTHH "$ETOK")" "$B/v1/sessions/$EID/chat"
echo "  size after the load: $LAST_SIZE B" >> "$CHECKS"
curl -sS -m 5 -o "$RUN/metrics-load.txt" "$B/metrics" || true
grep VmRSS "/proc/$VH_PID/status" > "$RUN/rss-load-server.txt" || true
stop_viewhost "$VH_PID" load
stop_pid "$HB_PID" hb-peer; forget "$HB_PID"

# ---------------------------------------------------------------- c. sessions at scale
create_run() {   # tag body
  local tag="$1" body="$2"
  start_viewhost "create-$tag"
  local pid="$PID" port="$PORT"
  curl -sS -m 5 -o /dev/null "http://$HOST:$port/healthz"
  echo "\$ ${CLIENT[*]} create --port $port --pid $pid --count $SESSIONS_N --conns $CREATE_CONNS --body '$body'" >> "$COMMANDS"
  "${CLIENT[@]}" create --port "$port" --pid "$pid" --count "$SESSIONS_N" --conns "$CREATE_CONNS" --body "$body" \
    --settle 3 --json-out "$RUN/create-$tag.json" > /dev/null || say "session creation ($tag) failed"
  curl -sS -m 5 -o "$RUN/metrics-create-$tag.txt" "http://$HOST:$port/metrics" || true
  stop_viewhost "$pid" "create-$tag"
}
say "sessions at scale: $SESSIONS_N x {\"features\":[\"chat\"]}"
create_run chat '{"features":["chat"]}'
if [[ "$ALL_FEATURES" == 1 ]]; then
  say "sessions at scale: $SESSIONS_N x all features"
  create_run all '{"features":["chat","weather","login","person"]}'
fi

# ---------------------------------------------------------------- d. live updates
say "live updates: $STREAM_SESSIONS sessions x $STREAMS_PER streams, then $LONGPOLL_N long polls"
start_viewhost live; LV_PID="$PID"; LV_PORT="$PORT"
echo "\$ ${CLIENT[*]} live --port $LV_PORT --pid $LV_PID --sessions $STREAM_SESSIONS --per $STREAMS_PER --longpoll $LONGPOLL_N --wait 30 --pace-seconds $PACE_SECONDS --modes paced,burst" >> "$COMMANDS"
"${CLIENT[@]}" live --port "$LV_PORT" --pid "$LV_PID" --sessions "$STREAM_SESSIONS" --per "$STREAMS_PER" \
  --longpoll "$LONGPOLL_N" --wait 30 --pace-seconds "$PACE_SECONDS" --modes paced,burst \
  --json-out "$RUN/live.json" > /dev/null || say "live-update measurement failed (see $RUN/live.json)"
curl -sS -m 5 -o "$RUN/metrics-live.txt" "http://$HOST:$LV_PORT/metrics" || true
stop_viewhost "$LV_PID" live

# ---------------------------------------------------------------- report
"${CLIENT[@]}" cpu diff --before "$RUN/cpu-before.json" --self $$ --json-out "$RUN/cpu-others.json" > /dev/null || true
echo "uptime after: $(uptime)" >> "$RUN/meta.txt"
echo "measurement seconds (after the builds): $(( $(date +%s) - T_START ))" >> "$RUN/meta.txt"
cat "$RUN"/server-*.err > "$RUN/server-stderr-all.txt" 2>/dev/null || true
python3 "$BENCH/product_report.py" --run "$RUN" --report "$REPORT" --invocation "$INVOCATION" \
  --hb-size "$HB_SIZE" --vh-size "$VH_SIZE" --etag "$ETAG" --rounds "$ROUNDS" --duration "$DURATION" \
  --sessions-n "$SESSIONS_N" --stream-sessions "$STREAM_SESSIONS" --streams-per "$STREAMS_PER" \
  --event-sessions "$EVENT_SESSIONS" --longpoll-n "$LONGPOLL_N"
say "wrote the section into $REPORT (copy: $RUN/product-section.md)"
sed -n '/^### Goals/,/^### 1\./p' "$RUN/product-section.md" | sed '$d' >&2
