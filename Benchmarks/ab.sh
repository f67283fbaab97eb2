#!/usr/bin/env bash
# Benchmarks/ab.sh — two builds of `viewhost serve` measured in one run, interleaved: BEFORE (a git revision) and
# AFTER (the working tree). Writes the section "## A/B: BEFORE_REV against the working tree" of BENCHMARKS.md.
# Measurement harness, not product code. Every load targets 127.0.0.1 only and is bounded in count and time.
#
# Usage: BEFORE_REV=7956c5b Benchmarks/ab.sh          (from anywhere; about 6 min after the builds)
#
# For each of ROUNDS rounds, each build in turn (A B, then B A, …) gets a fresh server (`--store memory` when the
# build knows the flag; STORE=default lets each take its default store, SQLite under the run's folder) and, on it, wrk -t2 -c64 -dDURATION --latency for:
#   GET /healthz | GET /v1/sessions/{id}/chat (John's chat open) | POST login/events {"type":"setUsername"} over
#   EVENT_SESSIONS sessions | POST chat/events {"type":"send","contact":"John","text":"hi"} over EVENT_SESSIONS
#   chat sessions (product_events.lua).
# Then, per build, a fresh server each: SESSIONS_N sessions with all four features, and SESSIONS_N chat-only
# sessions (idle), created by product_client.py: RSS growth per session.
#
# Environment (defaults): BEFORE_REV (required) DURATION=8s ROUNDS=2 CONNS=64 EVENT_SESSIONS=64
#   SESSIONS_N=100000 SKIP_BUILD=0 QUIET_BUSY=20 QUIET_WAIT=120 STORE=memory REPORT=<repo>/BENCHMARKS.md
# Outputs: Benchmarks/out/ab-<UTC stamp>/ (git-ignored).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$REPO/Benchmarks"
BEFORE_REV="${BEFORE_REV:?set BEFORE_REV to the git revision to compare against}"
DURATION="${DURATION:-8s}" ROUNDS="${ROUNDS:-2}" CONNS="${CONNS:-64}" EVENT_SESSIONS="${EVENT_SESSIONS:-64}"
SESSIONS_N="${SESSIONS_N:-100000}" SKIP_BUILD="${SKIP_BUILD:-0}" QUIET_BUSY="${QUIET_BUSY:-20}"
QUIET_WAIT="${QUIET_WAIT:-120}" REPORT="${REPORT:-$REPO/BENCHMARKS.md}" STORE="${STORE:-memory}"
export STORE SESSIONS_N
INVOCATION="BEFORE_REV=$BEFORE_REV Benchmarks/ab.sh"
for v in DURATION ROUNDS CONNS EVENT_SESSIONS SESSIONS_N STORE; do
  [[ -n "${!v+x}" && "${!v}" != "" ]] && INVOCATION="$v=${!v} $INVOCATION"
done
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
RUN="$BENCH/out/ab-$STAMP"
mkdir -p "$RUN"
say() { echo "ab.sh: $*" >&2; }
die() { say "$*"; exit 2; }
COMMANDS="$RUN/commands.txt"; : > "$COMMANDS"
logged() { echo "\$ $*" >> "$COMMANDS"; "$@"; }
# shellcheck source=Benchmarks/lib.sh
source "$BENCH/lib.sh"
install_missing_commands wrk:wrk curl:curl python3:python3
exec 9> "$BENCH/out/.product.lock"   # never at the same time as product.sh
flock -w 900 9 || die "another benchmark holds the lock"

# ---------------------------------------------------------------- builds
BEFORE_TREE="$BENCH/out/before-$BEFORE_REV"
if [[ "$SKIP_BUILD" != 1 ]]; then
  if [[ ! -d "$BEFORE_TREE" ]]; then
    logged git -C "$REPO" worktree add --detach "$BEFORE_TREE" "$BEFORE_REV" > /dev/null
  fi
  say "building $BEFORE_REV (release) -> $RUN/build-before.log"
  (cd "$BEFORE_TREE" && logged swift build -c release --product viewhost --scratch-path "$REPO/.build-before") \
    > "$RUN/build-before.log" 2>&1 || { tail -20 "$RUN/build-before.log" >&2; die "build of $BEFORE_REV failed"; }
  say "building the working tree (release) -> $RUN/build-after.log"
  (cd "$REPO" && logged swift build -c release --product viewhost --scratch-path "$REPO/.build-bench") \
    > "$RUN/build-after.log" 2>&1 || { tail -20 "$RUN/build-after.log" >&2; die "build of the working tree failed"; }
fi
BIN_before="$REPO/.build-before/release/viewhost"
BIN_after="$REPO/.build-bench/release/viewhost"
[[ -x "$BIN_before" && -x "$BIN_after" ]] || die "missing binaries (run without SKIP_BUILD=1)"

# ---------------------------------------------------------------- servers (stopped by PID)
STARTED=()
cleanup() { local p; for p in "${STARTED[@]}"; do kill -TERM "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
start_server() {   # build tag -> PID PORT
  local build="$1" tag="$2" bin flags=() i
  bin="BIN_$build"; bin="${!bin}"
  [[ "$STORE" == memory ]] && "$bin" serve --help 2>/dev/null | grep -q -- '--store' && flags=(--store memory)
  echo "\$ $bin serve --port 0 --weather-provider offline ${flags[*]} &   # $build $tag" >> "$COMMANDS"
  mkdir -p "$RUN/$build-$tag"
  (cd "$RUN/$build-$tag" && exec env VIEWHOST_SESSIONS_MAX=250000 VIEWHOST_SERVER_MAX_CONNECTIONS=20000 \
    VIEWHOST_LIMITS_SESSIONS_PER_MINUTE_PER_CLIENT=0 VIEWHOST_LIMITS_EVENTS_PER_SECOND_PER_SESSION=0 VIEWHOST_LOG_ACCESS=false \
    "$bin" serve --port 0 --weather-provider offline "${flags[@]}") > "$RUN/server-$build-$tag.out" 2> "$RUN/server-$build-$tag.err" &
  PID=$!; STARTED+=("$PID")
  for i in $(seq 300); do
    PORT="$(sed -n 's|^viewhost listening on http://127\.0\.0\.1:\([0-9]*\)$|\1|p' "$RUN/server-$build-$tag.out" | head -1)"
    [[ -n "$PORT" ]] && return 0
    sleep 0.1
  done
  die "no readiness line from $build"
}
stop_server() { kill -TERM "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }
CLIENT=(python3 "$BENCH/product_client.py")
post() { curl -sS -m 5 -o /dev/null -w '%{http_code}' -X POST -H "Authorization: Bearer $2" -H 'Content-Type: application/json' --data "$3" "http://127.0.0.1:$PORT/v1/sessions/$1/$4/events"; }

wrk_run() {   # build round name url [lua env…]
  local build="$1" round="$2" name="$3" url="$4"; shift 4
  local out="$RUN/wrk-$name-$build-$round.txt"
  echo "\$ $* wrk -t2 -c$CONNS -d$DURATION --latency $url" >> "$COMMANDS"
  env "$@" wrk -t2 -c"$CONNS" -d"$DURATION" --latency $LUA "$url" > "$out" 2>&1 || true
  # Let the server finish the timers the events scheduled before the next run.
  sleep 2
}

measure() {   # build round
  local build="$1" round="$2" sid tok
  start_server "$build" "load-$round"
  local s; s="$(curl -sS -m 5 -X POST -H 'Content-Type: application/json' --data '{"features":["chat"]}' "http://127.0.0.1:$PORT/v1/sessions")"
  sid="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["id"])' "$s")"
  tok="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["token"])' "$s")"
  sleep 1
  [[ "$(post "$sid" "$tok" '{"type":"openChat","contact":"John"}' chat)" == 202 ]] || die "$build: openChat failed"
  sleep 1
  "${CLIENT[@]}" create --port "$PORT" --pid "$PID" --count "$EVENT_SESSIONS" --conns 8 --settle 0 \
    --body '{"features":["chat"]}' --sessions-out "$RUN/chat-sessions-$build.txt" > /dev/null
  "${CLIENT[@]}" create --port "$PORT" --pid "$PID" --count "$EVENT_SESSIONS" --conns 8 --settle 0 \
    --body '{"features":["login"]}' --sessions-out "$RUN/login-sessions-$build.txt" > /dev/null
  sleep 1
  LUA=""; wrk_run "$build" "$round" healthz "http://127.0.0.1:$PORT/healthz"
  echo "\$ wrk -t2 -c$CONNS -d$DURATION --latency -H 'Authorization: Bearer …' /v1/sessions/{id}/chat" >> "$COMMANDS"
  wrk -t2 -c"$CONNS" -d"$DURATION" --latency -H "Authorization: Bearer $tok" "http://127.0.0.1:$PORT/v1/sessions/$sid/chat" \
    > "$RUN/wrk-get-$build-$round.txt" 2>&1 || true
  sleep 1
  LUA="-s $BENCH/product_events.lua"
  wrk_run "$build" "$round" login "http://127.0.0.1:$PORT" VH_SESSIONS="$RUN/login-sessions-$build.txt" VH_FEATURE=login \
    VH_BODY='{"type":"setUsername","value":"bench-user"}'
  wrk_run "$build" "$round" send "http://127.0.0.1:$PORT" VH_SESSIONS="$RUN/chat-sessions-$build.txt"
  stop_server "$PID"
}

wait_for_quiet_machine "$QUIET_BUSY" "$QUIET_WAIT"
say "$QUIET_NOTE"
echo "$QUIET_NOTE" > "$RUN/machine-state.txt"
for round in $(seq "$ROUNDS"); do
  if (( round % 2 )); then order=(before after); else order=(after before); fi
  for build in "${order[@]}"; do say "round $round: $build"; measure "$build" "$round"; done
done
for build in before after; do
  for body in all chat; do
    json='{"features":["chat","weather","login","person"]}'; [[ "$body" == chat ]] && json='{"features":["chat"]}'
    say "$build: $SESSIONS_N sessions ($body)"
    start_server "$build" "create-$body"
    "${CLIENT[@]}" create --port "$PORT" --pid "$PID" --count "$SESSIONS_N" --conns 128 --body "$json" --settle 3 \
      --json-out "$RUN/create-$body-$build.json" > /dev/null || say "creation failed ($build $body)"
    stop_server "$PID"
  done
done

# ---------------------------------------------------------------- report
SECTION="$RUN/section.md"
python3 - "$RUN" "$BEFORE_REV" "$(git -C "$REPO" rev-parse --short HEAD)" "$INVOCATION" "$ROUNDS" > "$SECTION" <<'PY'
import glob, json, os, re, sys
run, before_rev, head, invocation, rounds = sys.argv[1:6]
def wrk(path):
    text = open(path).read()
    rps = re.search(r"Requests/sec:\s+([\d.]+)", text)
    p99 = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)", text, re.M)
    errs = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    ms = None
    if p99:
        v, unit = float(p99.group(1)), p99.group(2)
        ms = v / 1000 if unit == "us" else v * 1000 if unit == "s" else v
    return (float(rps.group(1)) if rps else 0.0), ms, int(errs.group(1)) if errs else 0
names = [("healthz", "GET /healthz"), ("get", "GET chat snapshot"), ("login", "POST login setUsername"),
         ("send", "POST chat send")]
rows = {}
for key, _ in names:
    for build in ("before", "after"):
        vals = [wrk(p) for p in sorted(glob.glob(f"{run}/wrk-{key}-{build}-*.txt"))]
        rows[(key, build)] = vals
def mean(xs): return sum(xs) / len(xs) if xs else 0
store = os.environ.get("STORE", "memory")
print(f"## A/B: {before_rev} against the working tree (Benchmarks/ab.sh{'' if store == 'memory' else ', STORE=' + store})\n")
print(f"Command: `{invocation}` at {head}. {rounds} interleaved rounds per build, wrk -t2 -c64, 2 cores shared by "
      "wrk and the server. Each row is the mean of the rounds (each round's value in brackets).\n")
print(f"Machine: {open(run + '/machine-state.txt').read().strip()}\n")
print("| request | before req/s | after req/s | after/before | before p99 ms | after p99 ms | after ÷ after healthz | "
      "median req/s before / after: after inside before's range? |")
print("|---|---|---|---|---|---|---|---|")
health_after = mean([v[0] for v in rows[("healthz", "after")]])
health_before = mean([v[0] for v in rows[("healthz", "before")]])
for key, label in names:
    b, a = rows[(key, "before")], rows[(key, "after")]
    br, ar = mean([v[0] for v in b]), mean([v[0] for v in a])
    bp = max([v[1] or 0 for v in b] or [0]); ap = max([v[1] or 0 for v in a] or [0])
    fmt = lambda vals: " ".join(f"{v[0]:,.0f}" for v in vals)
    ratio = f"{ar / br:.2f}×" if br else "–"
    median = lambda xs: sorted(xs)[len(xs) // 2] if xs else 0
    bm, am = median([v[0] for v in b]), median([v[0] for v in a])
    low, high = min([v[0] for v in b] or [0]), max([v[0] for v in b] or [0])
    verdict = "inside" if low <= am <= high else ("above" if am > high else "below")
    print(f"| {label} | {br:,.0f} [{fmt(b)}] | {ar:,.0f} [{fmt(a)}] | {ratio} | {bp:.2f} | {ap:.2f} | "
          f"{ar / health_after:.2f}× (before {br / health_before:.2f}×) | {bm:,.0f} / {am:,.0f}: {verdict} |")
print()
print("| sessions | before B/session | after B/session | before RSS growth | after RSS growth |")
print("|---|---|---|---|---|")
count = f"{int(os.environ.get('SESSIONS_N', '100000')):,}"
for body, label in (("all", f"{count} × all four features"), ("chat", f"{count} × chat only (idle)")):
    vals = {}
    for build in ("before", "after"):
        try:
            vals[build] = json.load(open(f"{run}/create-{body}-{build}.json"))
        except Exception:
            vals[build] = {}
    g = lambda b, k: vals[b].get(k)
    mib = lambda kib: f"{kib / 1024:,.0f} MiB" if kib else "–"
    print(f"| {label} | {g('before', 'rss_per_session_bytes')} | {g('after', 'rss_per_session_bytes')} | "
          f"{mib(g('before', 'rss_growth_kib'))} | {mib(g('after', 'rss_growth_kib'))} |")
print(f"\nRun folder: `Benchmarks/out/{os.path.basename(run)}` (git-ignored): commands, wrk outputs, server logs.")
PY
replace_section "$REPORT" "$SECTION"
cat "$SECTION"
