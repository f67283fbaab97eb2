#!/usr/bin/env bash
# Benchmarks/durable.sh — the durable store measured against hb-peer and against the memory store in one run;
# writes the section "## Durable sessions (Benchmarks/durable.sh)" of BENCHMARKS.md (replaces that section only).
# Measurement harness, not product code. Every load targets 127.0.0.1 only and is bounded in count and time.
#
# Usage: Benchmarks/durable.sh        (from anywhere; about 4 min after the builds)
#
# 1. Builds `viewhost` (release, .build-bench) and hb-peer (as Benchmarks/product.sh does), unless SKIP_BUILD=1.
# 2. ROUNDS interleaved rounds, each on fresh servers: wrk -t2 -cCONNS -dDURATION --latency for
#      hb-peer POST /bench/event (the shared post.lua) |
#      sqlite (--sync full, a fresh data dir): POST login/events {"type":"setUsername"} over EVENT_SESSIONS
#        sessions | POST chat/events {"type":"send","contact":"John","text":"hi"} over EVENT_SESSIONS sessions |
#        GET /v1/sessions/{id}/chat |
#      memory (--store memory): the same two POST loads, and GET /v1/sessions/{id}/chat (the ratios sqlite ÷ memory
#        are issue 22's goals: ≥ 0.8× for setUsername, ≥ 0.6× for send).
#    Around each durable POST run it reads viewhost_store_commits_total and viewhost_store_writes_total from
#    /metrics: writes per commit is the number of events that shared one fsync.
# 3. Restart: SESSIONS_N sessions with all four features are created on a fresh store, the server stops
#    (SIGTERM), and STARTUP_RUNS starts on that store are timed (spawn → readiness line → first 200 of /readyz,
#    product_client.py startup). Bytes per session: the file size over SESSIONS_N, and the stored row of one new
#    session and of one chat session after 20 messages (snapshot + journal), read with the sqlite3 CLI.
#
# Servers run with the access log and the rate limits off (one client drives the load; BENCHMARKS.md "What the
# access log costs" has its price).
# Environment (defaults): DURATION=8s ROUNDS=2 CONNS=64 EVENT_SESSIONS=64 SESSIONS_N=100000 STARTUP_RUNS=3
#   SKIP_BUILD=0 PEERS=1 (0: no hb-peer build or rounds) QUIET_BUSY=20 QUIET_WAIT=120 REPORT=<repo>/BENCHMARKS.md
# Outputs: Benchmarks/out/durable-<UTC stamp>/ (git-ignored).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$REPO/Benchmarks"
SHARED_BENCH="$(cd "${SHARED_BENCH:-$REPO/../shared/bench}" && pwd)"
DURATION="${DURATION:-8s}" ROUNDS="${ROUNDS:-2}" CONNS="${CONNS:-64}" EVENT_SESSIONS="${EVENT_SESSIONS:-64}"
SESSIONS_N="${SESSIONS_N:-100000}" STARTUP_RUNS="${STARTUP_RUNS:-3}" SKIP_BUILD="${SKIP_BUILD:-0}" PEERS="${PEERS:-1}"
QUIET_BUSY="${QUIET_BUSY:-20}" QUIET_WAIT="${QUIET_WAIT:-120}" REPORT="${REPORT:-$REPO/BENCHMARKS.md}"
INVOCATION="Benchmarks/durable.sh"
for v in DURATION ROUNDS CONNS EVENT_SESSIONS SESSIONS_N STARTUP_RUNS PEERS; do
  [[ -n "${!v+x}" && "${!v}" != "" ]] && INVOCATION="$v=${!v} $INVOCATION"
done
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
RUN="$BENCH/out/durable-$STAMP"
mkdir -p "$RUN"
say() { echo "durable.sh: $*" >&2; }
die() { say "$*"; exit 2; }
COMMANDS="$RUN/commands.txt"; : > "$COMMANDS"
logged() { echo "\$ $*" >> "$COMMANDS"; "$@"; }
# shellcheck source=Benchmarks/lib.sh
source "$BENCH/lib.sh"
install_missing_commands wrk:wrk curl:curl python3:python3 sqlite3:sqlite3
exec 9> "$BENCH/out/.product.lock"   # never at the same time as product.sh or ab.sh
flock -w 900 9 || die "another benchmark holds the lock"

# ---------------------------------------------------------------- builds
HARNESS="$BENCH/out/harness"
if [[ "$SKIP_BUILD" != 1 ]]; then
  say "building viewhost (release) -> $RUN/build-viewhost.log"
  (cd "$REPO" && logged swift build -c release --product viewhost --scratch-path "$REPO/.build-bench") \
    > "$RUN/build-viewhost.log" 2>&1 || { tail -30 "$RUN/build-viewhost.log" >&2; die "viewhost build failed"; }
  if [[ "$PEERS" == 1 ]]; then
    if ! { diff -q "$SHARED_BENCH/peers/Package.swift" "$HARNESS/peers/Package.swift" &&
           diff -rq "$SHARED_BENCH/peers/Sources" "$HARNESS/peers/Sources"; } > /dev/null 2>&1; then
      rm -rf "$HARNESS/peers"; mkdir -p "$HARNESS/peers"
      cp -R "$SHARED_BENCH/peers/Package.swift" "$SHARED_BENCH/peers/Sources" "$HARNESS/peers/"
      chmod -R u+w "$HARNESS/peers"
    fi
    say "building hb-peer (release; the first time takes minutes) -> $RUN/build-peers.log"
    logged swift build -c release --package-path "$HARNESS/peers" --scratch-path "$REPO/.build-peers" --product hb-peer \
      > "$RUN/build-peers.log" 2>&1 || { tail -30 "$RUN/build-peers.log" >&2; die "hb-peer build failed"; }
  fi
fi
VH_BIN="${VH_BIN:-$REPO/.build-bench/release/viewhost}"   # VH_BIN=… SKIP_BUILD=1: another build (a "before")
HB_BIN="$REPO/.build-peers/release/hb-peer"
[[ -x "$VH_BIN" && ( "$PEERS" != 1 || -x "$HB_BIN" ) ]] || die "missing binaries (run without SKIP_BUILD=1)"
cp "$SHARED_BENCH/post.lua" "$RUN/post.lua"

# ---------------------------------------------------------------- servers (stopped by PID)
STARTED=()
cleanup() { local p; for p in "${STARTED[@]}"; do kill -TERM "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
start_viewhost() {   # tag store-flags… -> PID PORT (working directory: the run folder, so data/ is per tag)
  local tag="$1" i; shift
  mkdir -p "$RUN/$tag"
  echo "\$ (cd $RUN/$tag && $VH_BIN serve --port 0 --weather-provider offline $*) &" >> "$COMMANDS"
  (cd "$RUN/$tag" && exec env VIEWHOST_SESSIONS_MAX=250000 VIEWHOST_SERVER_MAX_CONNECTIONS=20000 VIEWHOST_LOG_ACCESS=false \
    VIEWHOST_LIMITS_SESSIONS_PER_MINUTE_PER_CLIENT=0 VIEWHOST_LIMITS_EVENTS_PER_SECOND_PER_SESSION=0 \
    "$VH_BIN" serve --port 0 --weather-provider offline "$@") > "$RUN/$tag/server.out" 2> "$RUN/$tag/server.err" &
  PID=$!; STARTED+=("$PID")
  for i in $(seq 300); do
    PORT="$(sed -n 's|^viewhost listening on http://127\.0\.0\.1:\([0-9]*\)$|\1|p' "$RUN/$tag/server.out" | head -1)"
    [[ -n "$PORT" ]] && return 0
    sleep 0.1
  done
  die "no readiness line from $tag"
}
stop_pid() { kill -TERM "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }
CLIENT=(python3 "$BENCH/product_client.py")
new_session() {   # features-json -> SID TOK
  local s; s="$(curl -sS -m 5 -X POST -H 'Content-Type: application/json' --data "$1" "http://127.0.0.1:$PORT/v1/sessions")"
  SID="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["id"])' "$s")"
  TOK="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["token"])' "$s")"
}
post() { curl -sS -m 5 -o /dev/null -w '%{http_code}' -X POST -H "Authorization: Bearer $2" -H 'Content-Type: application/json' --data "$3" "http://127.0.0.1:$PORT/v1/sessions/$1/$4/events"; }
store_counts() { curl -sS -m 5 "http://127.0.0.1:$PORT/metrics" | awk '/^viewhost_store_commits_total /{c=$2} /^viewhost_store_writes_total /{w=$2} END {print c+0, w+0}'; }
wrk_to() {   # output-file wrk-args…
  local out="$1"; shift
  echo "\$ wrk -t2 -c$CONNS -d$DURATION --latency $*" >> "$COMMANDS"
  wrk -t2 -c"$CONNS" -d"$DURATION" --latency "$@" > "$out" 2>&1 || true
}
durable_post() {   # round name url sessions-file [env…]: a wrk run with the store's counts around it
  local round="$1" name="$2" url="$3"; shift 3
  local before after
  before="$(store_counts)"
  echo "\$ $* wrk … -s product_events.lua $url" >> "$COMMANDS"
  env VH_THREADS=2 "$@" wrk -t2 -c"$CONNS" -d"$DURATION" --latency -s "$BENCH/product_events.lua" "$url" \
    > "$RUN/wrk-$name-$round.txt" 2>&1 || true
  after="$(store_counts)"
  echo "$before $after" > "$RUN/commits-$name-$round.txt"
  sleep 2   # the timers the events scheduled run out before the next measurement
}

wait_for_quiet_machine "$QUIET_BUSY" "$QUIET_WAIT"
say "$QUIET_NOTE"
echo "$QUIET_NOTE" > "$RUN/machine-state.txt"

for round in $(seq "$ROUNDS"); do
  if [[ "$PEERS" == 1 ]]; then
    say "round $round: hb-peer"
    HB_PORT="$(free_port)"
    echo "\$ $HB_BIN $HB_PORT &" >> "$COMMANDS"
    "$HB_BIN" "$HB_PORT" > "$RUN/hb-peer-$round.log" 2>&1 &
    HB_PID=$!; STARTED+=("$HB_PID")
    for i in $(seq 150); do curl -s -o /dev/null -m 1 "http://127.0.0.1:$HB_PORT/bench/snapshot" && break; sleep 0.2; done
    wrk_to "$RUN/wrk-hbpost-$round.txt" -s "$RUN/post.lua" "http://127.0.0.1:$HB_PORT/bench/event"
    stop_pid "$HB_PID"
  fi

  say "round $round: sqlite (--sync full)"
  start_viewhost "sqlite-$round" --store sqlite --sync full
  new_session '{"features":["chat"]}'; sleep 1
  [[ "$(post "$SID" "$TOK" '{"type":"openChat","contact":"John"}' chat)" == 202 ]] || die "openChat failed"
  "${CLIENT[@]}" create --port "$PORT" --pid "$PID" --count "$EVENT_SESSIONS" --conns 8 --settle 0 \
    --body '{"features":["login"]}' --sessions-out "$RUN/login-sessions-$round.txt" > /dev/null
  "${CLIENT[@]}" create --port "$PORT" --pid "$PID" --count "$EVENT_SESSIONS" --conns 8 --settle 0 \
    --body '{"features":["chat"]}' --sessions-out "$RUN/chat-sessions-$round.txt" > /dev/null
  sleep 1
  durable_post "$round" login "http://127.0.0.1:$PORT" VH_SESSIONS="$RUN/login-sessions-$round.txt" VH_FEATURE=login \
    VH_BODY='{"type":"setUsername","value":"bench-user"}'
  durable_post "$round" send "http://127.0.0.1:$PORT" VH_SESSIONS="$RUN/chat-sessions-$round.txt"
  wrk_to "$RUN/wrk-getsqlite-$round.txt" -H "Authorization: Bearer $TOK" "http://127.0.0.1:$PORT/v1/sessions/$SID/chat"
  stop_pid "$PID"

  say "round $round: memory"
  start_viewhost "memory-$round" --store memory
  new_session '{"features":["chat"]}'; sleep 1
  [[ "$(post "$SID" "$TOK" '{"type":"openChat","contact":"John"}' chat)" == 202 ]] || die "openChat failed"
  "${CLIENT[@]}" create --port "$PORT" --pid "$PID" --count "$EVENT_SESSIONS" --conns 8 --settle 0 \
    --body '{"features":["login"]}' --sessions-out "$RUN/memlogin-sessions-$round.txt" > /dev/null
  "${CLIENT[@]}" create --port "$PORT" --pid "$PID" --count "$EVENT_SESSIONS" --conns 8 --settle 0 \
    --body '{"features":["chat"]}' --sessions-out "$RUN/memchat-sessions-$round.txt" > /dev/null
  sleep 1
  durable_post "$round" memlogin "http://127.0.0.1:$PORT" VH_SESSIONS="$RUN/memlogin-sessions-$round.txt" \
    VH_FEATURE=login VH_BODY='{"type":"setUsername","value":"bench-user"}'
  durable_post "$round" memsend "http://127.0.0.1:$PORT" VH_SESSIONS="$RUN/memchat-sessions-$round.txt"
  wrk_to "$RUN/wrk-getmemory-$round.txt" -H "Authorization: Bearer $TOK" "http://127.0.0.1:$PORT/v1/sessions/$SID/chat"
  stop_pid "$PID"
done

# ---------------------------------------------------------------- restart with SESSIONS_N sessions
say "restart: $SESSIONS_N sessions"
start_viewhost restart --store sqlite --simulation-speed 100
"${CLIENT[@]}" create --port "$PORT" --pid "$PID" --count "$SESSIONS_N" --conns 128 --settle 0 \
  --body '{"features":["chat","weather","login","person"]}' --json-out "$RUN/create.json" > /dev/null \
  || say "creation failed"
new_session '{"features":["chat","weather","login","person"]}'; NEW_SID="$SID"
new_session '{"features":["chat"]}'; CHAT_SID="$SID"
post "$SID" "$TOK" '{"type":"appear"}' chat > /dev/null; sleep 0.5
post "$SID" "$TOK" '{"type":"openChat","contact":"John"}' chat > /dev/null
for i in $(seq 20); do post "$SID" "$TOK" "{\"type\":\"send\",\"text\":\"message $i\"}" chat > /dev/null; sleep 0.2; done
sleep 3   # the replies (5–14 s at speed 1) arrive
stop_pid "$PID"
DB="$RUN/restart/data/viewhost.sqlite"
ls -l "$RUN/restart/data" > "$RUN/restart-files.txt"
row_bytes() {   # session id -> bytes of its stored row and journal
  sqlite3 "$DB" "SELECT (SELECT length(token_digest) + length(id) FROM sessions WHERE id = '$1') + (SELECT coalesce(sum(length(core)),0) FROM snapshots WHERE session_id = '$1') + (SELECT coalesce(sum(length(input)),0) FROM journal WHERE session_id = '$1'), (SELECT count(*) FROM journal WHERE session_id = '$1')"
}
{
  echo "file_bytes $(( $(stat -c %s "$DB") + $(stat -c %s "$DB-wal" 2>/dev/null || echo 0) ))"
  echo "sessions $(sqlite3 "$DB" 'SELECT count(*) FROM sessions')"
  echo "new_row $(row_bytes "$NEW_SID")"
  echo "chat20_row $(row_bytes "$CHAT_SID")"
} > "$RUN/bytes.txt"
echo "\$ ${CLIENT[*]} startup --bin $VH_BIN --runs $STARTUP_RUNS --cwd $RUN/restart" >> "$COMMANDS"
"${CLIENT[@]}" startup --bin "$VH_BIN" --runs "$STARTUP_RUNS" --cwd "$RUN/restart" --json-out "$RUN/startup.json" > /dev/null \
  || say "startup measurement failed"

# ---------------------------------------------------------------- report
SECTION="$RUN/section.md"
python3 - "$RUN" "$(git -C "$REPO" rev-parse --short HEAD)" "$INVOCATION" "$ROUNDS" "$SESSIONS_N" > "$SECTION" <<'PY'
import glob, json, os, re, sys
run, head, invocation, rounds, sessions_n = sys.argv[1:6]
def wrk(path):
    text = open(path).read()
    rps = re.search(r"Requests/sec:\s+([\d.]+)", text)
    p99 = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\b", text, re.M)
    errs = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    ms = None
    if p99:
        v, unit = float(p99.group(1)), p99.group(2)
        ms = v / 1000 if unit == "us" else v * 1000 if unit == "s" else v
    return (float(rps.group(1)) if rps else 0.0), ms, int(errs.group(1)) if errs else 0
def runs(name): return [wrk(p) for p in sorted(glob.glob(f"{run}/wrk-{name}-*.txt"))]
def mean(xs): return sum(xs) / len(xs) if xs else 0
rows = {k: runs(k) for k in ("hbpost", "login", "memlogin", "send", "memsend", "getsqlite", "getmemory")}
rate = {k: mean([v[0] for v in vals]) for k, vals in rows.items()}
def per_commit(name):
    c = w = 0
    for p in glob.glob(f"{run}/commits-{name}-*.txt"):
        c0, w0, c1, w1 = map(float, open(p).read().split())
        c += c1 - c0; w += w1 - w0
    return (w / c if c else 0), int(c), int(w)
print("## Durable sessions (Benchmarks/durable.sh)\n")
print(f"Command: `{invocation}` at {head}. {rounds} interleaved rounds, each on fresh servers; wrk -t2 -c64 shares the "
      "2 cores with the server. sqlite runs are `--sync full` (an fsync per commit). Each value is the mean of the "
      "rounds (each round's value in brackets).\n")
print(f"Machine: {open(run + '/machine-state.txt').read().strip()}\n")
print("| request | req/s | p99 ms | non-2xx | ratio | goal |")
print("|---|---|---|---|---|---|")
fmt = lambda vals: " ".join(f"{v[0]:,.0f}" for v in vals)
def row(key, label, ref, goal):
    vals = rows[key]
    ratio = rate[key] / rate[ref] if ref and rate.get(ref) else None
    p99 = max([v[1] or 0 for v in vals] or [0]); errs = sum(v[2] for v in vals)
    met = "" if ratio is None else (" met" if ratio >= goal else " NOT met")
    print(f"| {label} | {rate[key]:,.0f} [{fmt(vals)}] | {p99:.2f} | {errs} | "
          f"{'' if ratio is None else f'{ratio:.2f}× {ref}'} | {'' if ratio is None else f'≥ {goal}×{met}'} |")
if rows["hbpost"]:
    row("hbpost", "hb-peer POST /bench/event (in memory)", None, 0)
row("memlogin", "memory POST login setUsername", None, 0)
row("login", "sqlite POST login setUsername", "memlogin", 0.8)
row("memsend", "memory POST chat send", None, 0)
row("send", "sqlite POST chat send", "memsend", 0.6)
row("getmemory", "memory GET chat snapshot", None, 0)
row("getsqlite", "sqlite GET chat snapshot", "getmemory", 0.95)
print()
for name, label in (("login", "login setUsername"), ("send", "chat send")):
    avg, c, w = per_commit(name)
    print(f"- Group commit under the {label} load: {w:,} writes in {c:,} commits, **{avg:.1f} writes per fsync**.")
b = dict(line.split(None, 1) for line in open(f"{run}/bytes.txt").read().splitlines())
file_bytes, count = int(b["file_bytes"]), int(b["sessions"])
new_row = b["new_row"].split("|"); chat_row = b["chat20_row"].split("|")
print(f"- Bytes on disk: {file_bytes:,} B for {count:,} sessions (all four features, new) = "
      f"**{file_bytes / max(count, 1):,.0f} B per session** with pages and indexes; one new session's row "
      f"{int(new_row[0]):,} B (goal ≤ 2,000 B); a chat after 20 messages (and the bot's replies) {int(chat_row[0]):,} B "
      f"(snapshot plus {chat_row[1]} journal entries).")
try:
    create = json.load(open(f"{run}/create.json"))
    print(f"- Creating {sessions_n} sessions (durable, 128 connections): {create.get('rate_per_s', create.get('rate', '–'))} per s.")
except Exception:
    pass
try:
    st = json.load(open(f"{run}/startup.json"))
    ready, first = st.get("ready_ms") or {}, st.get("healthz_ms") or {}
    print(f"- Restart on that store ({len(st.get('runs', []))} starts): readiness line after median "
          f"{ready.get('median', '–')} ms (max {ready.get('max', '–')}), first 200 of /healthz after median "
          f"{first.get('median', '–')} ms (goal ≤ 100 ms; sessions load when first asked for, those with timers "
          "at start).")
except Exception as error:
    print(f"- Restart: not measured ({error}).")
print(f"\nRun folder: `Benchmarks/out/{os.path.basename(run)}` (git-ignored): commands, wrk outputs, server logs.")
PY
replace_section "$REPORT" "$SECTION"
cat "$SECTION"
