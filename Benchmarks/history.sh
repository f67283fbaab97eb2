#!/usr/bin/env bash
# Benchmarks/history.sh — every version addressable, measured: bytes per update (whole snapshot against patch),
# past versions, the journal's export and import, and what a patch-mode event stream costs the server. Writes the
# section "## History, patches and the journal (Benchmarks/history.sh)" of BENCHMARKS.md (replaces that section
# only). Measurement harness, not product code. Every load targets 127.0.0.1 only and is bounded in count and time.
#
# Usage: Benchmarks/history.sh        (from anywhere; about 4 min after the build)
#
# 1. Builds `viewhost` (release, .build-bench), unless SKIP_BUILD=1.
# 2. On fresh servers (access log and rate limits off; the chat's partner at real speed with a fixed seed; history
#    kept: HISTORY inputs; bodies up to 256 MB), each measurement of Benchmarks/history_client.py:
#      bytes: per update, whole against patch, gzip on and off: a chat after 20 and after 200 messages, one more
#        sent; a weather location change (memory store);
#      past: PAST_READS distinct versions about PAST_BACK inputs back, newest first (each rebuilt from a
#        checkpoint), p50/p99 ms as the client sees them (memory and sqlite --sync normal);
#      journal: a session of JOURNAL_INPUTS inputs exported and imported again, JOURNAL_REPEATS times each, timed
#        by curl (it reads and sends without parsing, so the server is measured): inputs/s, and the server's CPU
#        time (/proc/PID/stat) over each (memory and sqlite --sync normal);
#      streams: STREAMS sessions, each a chat of 200 messages with one event stream, STREAM_UPDATES messages sent
#        to each; the server's CPU time (/proc/PID/stat) per update (a chat version made) and per frame delivered,
#        whole snapshots against patches
#        (?patches=1), without gzip (a whole frame then costs a copy of cached bytes) and with it (a browser's
#        stream: every frame deflated), and the same updates with no stream at all (the baseline: what a stream
#        adds is the difference), ROUNDS rounds, the modes' order turned each round. These servers run the
#        simulation 1,000 times faster (the partner's answers to a message come within milliseconds, so every mode
#        makes the same versions; at real speed how many were made depended on how long the run took).
# 3. What keeping history in memory costs the memory store (the default, sessions.historyVersions 1000, against 0),
#    ROUNDS interleaved rounds: wrk -t2 -c64 -dDURATION over 64 sessions,
#    POST login {"type":"setUsername"} and POST chat {"type":"send"} (product_events.lua); then SESSIONS_N
#    chat-only sessions created (product_client.py): RSS per session.
# Environment (defaults): HISTORY=20000 PAST_BACK=1000 PAST_READS=80 JOURNAL_INPUTS=10000 JOURNAL_REPEATS=5 STREAMS=40
#   STREAM_UPDATES=25 ROUNDS=2 DURATION=8s SESSIONS_N=20000 SKIP_BUILD=0 QUIET_BUSY=20 QUIET_WAIT=120
#   REPORT=<repo>/BENCHMARKS.md
# Outputs: Benchmarks/out/history-<UTC stamp>/ (git-ignored).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$REPO/Benchmarks"
HISTORY="${HISTORY:-20000}" PAST_BACK="${PAST_BACK:-1000}" PAST_READS="${PAST_READS:-80}"
JOURNAL_INPUTS="${JOURNAL_INPUTS:-10000}" JOURNAL_REPEATS="${JOURNAL_REPEATS:-5}" STREAMS="${STREAMS:-40}" STREAM_UPDATES="${STREAM_UPDATES:-25}"
ROUNDS="${ROUNDS:-2}" DURATION="${DURATION:-8s}" SESSIONS_N="${SESSIONS_N:-20000}" SKIP_BUILD="${SKIP_BUILD:-0}"
QUIET_BUSY="${QUIET_BUSY:-20}" QUIET_WAIT="${QUIET_WAIT:-120}"
REPORT="${REPORT:-$REPO/BENCHMARKS.md}"
INVOCATION="Benchmarks/history.sh"
for v in HISTORY PAST_BACK PAST_READS JOURNAL_INPUTS JOURNAL_REPEATS STREAMS STREAM_UPDATES ROUNDS DURATION SESSIONS_N; do
  [[ -n "${!v+x}" && "${!v}" != "" ]] && INVOCATION="$v=${!v} $INVOCATION"
done
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
RUN="$BENCH/out/history-$STAMP"
mkdir -p "$RUN"
say() { echo "history.sh: $*" >&2; }
die() { say "$*"; exit 2; }
COMMANDS="$RUN/commands.txt"; : > "$COMMANDS"
logged() { echo "\$ $*" >> "$COMMANDS"; "$@"; }
# shellcheck source=Benchmarks/lib.sh
source "$BENCH/lib.sh"
install_missing_commands python3:python3 wrk:wrk curl:curl
exec 9> "$BENCH/out/.product.lock"   # never at the same time as product.sh, ab.sh or durable.sh
flock -w 900 9 || die "another benchmark holds the lock"

BIN="$REPO/.build-bench/release/viewhost"
if [[ "$SKIP_BUILD" != 1 ]]; then
  say "building viewhost (release) -> $RUN/build-viewhost.log"
  (cd "$REPO" && logged swift build -c release --product viewhost --scratch-path "$REPO/.build-bench") \
    > "$RUN/build-viewhost.log" 2>&1 || { tail -30 "$RUN/build-viewhost.log" >&2; die "viewhost build failed"; }
fi
[[ -x "$BIN" ]] || die "no release build at $BIN"

SERVER_PID="" BASE=""
stop_server() {
  if [[ -n "$SERVER_PID" ]]; then kill -TERM "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  SERVER_PID=""
}
trap stop_server EXIT
# start_server NAME ARGS…: a fresh server (its own data directory), its base URL in BASE and its pid in SERVER_PID.
# KEEP (the inputs of history kept, default HISTORY) may be set.
start_server() {
  local name="$1"; shift
  rm -rf "$RUN/data-$name"
  VIEWHOST_LOG_ACCESS=false VIEWHOST_LIMITS_EVENTS_PER_SECOND_PER_SESSION=0 VIEWHOST_LIMITS_SESSIONS_PER_MINUTE_PER_CLIENT=0 \
  VIEWHOST_SESSIONS_HISTORY_VERSIONS="${KEEP:-$HISTORY}" VIEWHOST_LIMITS_MAX_BODY_BYTES=268435456 VIEWHOST_SIMULATION_SEED=1 \
    "$BIN" serve --port 0 --data-dir "$RUN/data-$name" "$@" \
    > "$RUN/server-$name.out" 2> "$RUN/server-$name.err" &
  SERVER_PID=$!
  echo "\$ VIEWHOST_SESSIONS_HISTORY_VERSIONS=${KEEP:-$HISTORY} VIEWHOST_SIMULATION_SEED=1 $BIN serve --port 0 --data-dir $RUN/data-$name $* (pid $SERVER_PID)" >> "$COMMANDS"
  local waited=0
  until BASE="$(grep -o 'http://[0-9.:]*' "$RUN/server-$name.out" 2>/dev/null | head -1)" && [[ -n "$BASE" ]]; do
    sleep 0.1; waited=$(( waited + 1 )); (( waited < 300 )) || die "no readiness line from $name"
  done
}
client() { logged python3 "$BENCH/history_client.py" "$@"; }

wait_for_quiet_machine "$QUIET_BUSY" "$QUIET_WAIT"
say "$QUIET_NOTE"
RESULTS="$RUN/results.ndjson"; : > "$RESULTS"
note() { python3 -c 'import json,sys; d=json.loads(sys.argv[1]); d.update(json.loads(sys.argv[2])); print(json.dumps(d))' "$1" "$2" >> "$RESULTS"; }

say "bytes per update"
start_server bytes --store memory
note "$(client bytes "$BASE")" '{"store":"memory"}'
stop_server
for store in memory sqlite; do
  extra=(--store "$store"); [[ "$store" == sqlite ]] && extra+=(--sync normal)
  say "past versions ($store)"
  start_server "past-$store" "${extra[@]}"
  note "$(client past "$BASE" "$PAST_BACK" "$PAST_READS")" "{\"store\":\"$store\"}"
  stop_server
  say "journal export and import ($store)"
  start_server "journal-$store" "${extra[@]}"
  note "$(SERVER_PID=$SERVER_PID client journal "$BASE" "$JOURNAL_INPUTS" "$JOURNAL_REPEATS")" "{\"store\":\"$store\"}"
  stop_server
done
for round in $(seq 1 "$ROUNDS"); do
  runs=("none identity" "whole identity" "patch identity" "whole gzip" "patch gzip")
  if (( round % 2 == 0 )); then runs=("patch gzip" "whole gzip" "patch identity" "whole identity" "none identity"); fi
  for run in "${runs[@]}"; do
    read -r mode coding <<< "$run"
    say "streams, round $round, $mode, $coding"
    start_server "streams-$mode-$coding-$round" --store memory --simulation-speed 1000
    note "$(SERVER_PID=$SERVER_PID client streams "$BASE" "$STREAMS" "$STREAM_UPDATES" "$mode" "$coding")" \
      "{\"store\":\"memory\",\"round\":$round}"
    stop_server
  done
done

# What keeping history in memory costs the memory store's events and sessions.
port_of() { echo "${BASE##*:}"; }
for round in $(seq 1 "$ROUNDS"); do
  if (( round % 2 )); then order=(1000 0); else order=(0 1000); fi
  for keep in "${order[@]}"; do
    say "memory store, history $keep, round $round: events"
    KEEP=$keep start_server "events-$keep-$round" --store memory
    for feature in login chat; do
      body='{"features":["chat"]}'; [[ "$feature" == login ]] && body='{"features":["login"]}'
      logged python3 "$BENCH/product_client.py" create --port "$(port_of)" --pid "$SERVER_PID" --count 64 --conns 8 --settle 0 \
        --body "$body" --sessions-out "$RUN/sessions-$feature-$keep-$round.txt" > /dev/null
      event='{"type":"send","contact":"John","text":"hi"}'; [[ "$feature" == login ]] && event='{"type":"setUsername","value":"bench-user"}'
      sleep 1
      echo "\$ VH_SESSIONS=… VH_FEATURE=$feature VH_BODY='$event' wrk -t2 -c64 -d$DURATION --latency -s product_events.lua $BASE" >> "$COMMANDS"
      VH_SESSIONS="$RUN/sessions-$feature-$keep-$round.txt" VH_FEATURE="$feature" VH_BODY="$event" \
        wrk -t2 -c64 -d"$DURATION" --latency -s "$BENCH/product_events.lua" "$BASE" > "$RUN/wrk-$feature-$keep-$round.txt" 2>&1 || true
      sleep 2
    done
    stop_server
  done
done
for keep in 1000 0; do
  say "memory store, history $keep: $SESSIONS_N chat sessions"
  KEEP=$keep start_server "sessions-$keep" --store memory
  logged python3 "$BENCH/product_client.py" create --port "$(port_of)" --pid "$SERVER_PID" --count "$SESSIONS_N" --conns 128 \
    --body '{"features":["chat"]}' --settle 3 --json-out "$RUN/create-$keep.json" > /dev/null || say "creation failed ($keep)"
  stop_server
done

# ---------------------------------------------------------------- report
SECTION="$RUN/section.md"
python3 - "$RESULTS" "$INVOCATION" "$QUIET_NOTE" "$(git -C "$REPO" rev-parse --short HEAD)" "$HISTORY" "$RUN" "$ROUNDS" "$SESSIONS_N" > "$SECTION" <<'PY'
import glob, json, os, re, sys
results = [json.loads(line) for line in open(sys.argv[1])]
invocation, quiet, revision, history, run, rounds, sessions = sys.argv[2:9]
out = [f"## History, patches and the journal (Benchmarks/history.sh)", "",
       f"`{invocation}` at {revision}, release build, loopback, 2 cores; servers with the access log and rate limits off, "
       f"`sessions.historyVersions` {history}, the chat's partner at real speed (the streams' servers: 1,000 times faster), "
       f"`simulation.seed` 1. {quiet}.", ""]
by = lambda kind: [r for r in results if r["measurement"] == kind]
out += ["### Bytes per update (the body on the wire)", "",
        "| update | whole | patch | whole, gzip | patch, gzip |", "|---|---:|---:|---:|---:|"]
for table in by("bytes"):
    for row in table["rows"]:
        plain, zipped = row["identity"], row["gzip"]
        out.append(f"| {row['case']} | {plain['whole']:,} B | {plain['patch']:,} B | {zipped['whole']:,} B | {zipped['patch']:,} B |")
out += ["", "Whole: `GET /v1/sessions/{id}/{feature}` after the update. Patch: the same with `If-None-Match` the version "
        "before and `Accept: application/json-patch+json`. gzip applies to bodies of 1,024 bytes and more "
        "(`compression.minimumBytes`).", ""]
out += ["### A past version about 1,000 inputs back (`?version=N`, target ≤ 5 ms at p99)", "",
        "| store | inputs back | reads | p50 | p99 | max |", "|---|---:|---:|---:|---:|---:|"]
for r in by("past"):
    out.append(f"| {r['store']} | {r['inputsBack']:,} | {r['reads']} | {r['p50ms']} ms | {r['p99ms']} ms | {r['maxms']} ms |")
out += ["", "Distinct versions, newest first: each is older than where the rebuild before stopped, so each is replayed "
        "from its checkpoint (up to 63 inputs); timed at the client (Python, one keep-alive connection).", ""]
out += ["### Journal export and import (target ≥ 50,000 inputs/s)", "",
        "| store | inputs | export bytes | export, median | export, best | import, median | import, best |",
        "|---|---:|---:|---:|---:|---:|---:|"]
def timed(run):
    seconds, cpu = run["medianSeconds"], run["cpuSeconds"][run["seconds"].index(run["medianSeconds"])]
    return f"{seconds} s, {run['medianPerSecond']:,}/s (CPU {cpu} s)"
for r in by("journal"):
    out.append(f"| {r['store']} | {r['inputs']:,} | {r['bytes']:,} | {timed(r['export'])} | {r['export']['bestPerSecond']:,}/s | "
               f"{timed(r['import'])} | {r['import']['bestPerSecond']:,}/s |")
runs = by("journal")
out += ["", f"curl, {runs[0]['repeats'] if runs else '?'} times each, export and import in turn: export `curl -o /dev/null "
        "-H 'Authorization: Bearer …' …/journal`; import `curl --data-binary @FILE -H 'Content-Type: application/x-ndjson' "
        "…/v1/sessions`, answered 201 once stored (replayed and checked line by line first). Time: curl's `time_total`; "
        "CPU: the server's (`/proc/PID/stat`, every thread) over the same request.", ""]
out += ["### Server CPU per update, event streams (target: patch ≤ whole)", "",
        "| round | stream | mode | streams | updates | frames | patch frames | bytes delivered | server CPU | CPU per update | the stream's part, per update | per frame |",
        "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
streams = by("streams")
baseline = {r["round"]: r for r in streams if r["mode"] == "none"}
added = {}
for r in sorted(streams, key=lambda r: (r["round"], r["mode"] != "none", r.get("coding"), r["mode"] != "whole")):
    coding = "gzip" if r.get("coding") == "gzip" else "plain"
    base = baseline.get(r["round"])
    part = frame = "–"
    if r["mode"] != "none" and base and r["updates"]:
        extra = r["serverCpuSeconds"] - base["serverCpuSeconds"] * r["updates"] / max(1, base["updates"])
        added.setdefault((coding, r["mode"]), []).append(extra / r["updates"])
        part = f"{1e6 * extra / r['updates']:.1f} µs"
        frame = f"{1e6 * extra / max(1, r['framesDelivered']):.1f} µs"
    mode = "no stream" if r["mode"] == "none" else r["mode"]
    out.append(f"| {r['round']} | {'–' if r['mode'] == 'none' else coding} | {mode} | {r['streams'] if r['mode'] != 'none' else 0} | {r['updates']:,} | "
               f"{r['framesDelivered']:,} | {r['patchFrames']:,} | {r['bytesDelivered']:,} | {r['serverCpuSeconds']} s | "
               f"{r['cpuMicrosecondsPerUpdate']} µs | {part} | {frame} |")
def median(values):
    values = sorted(values)
    return values[len(values) // 2] if len(values) % 2 else (values[len(values) // 2 - 1] + values[len(values) // 2]) / 2
summary = []
for coding in ("plain", "gzip"):
    whole, patch = added.get((coding, "whole")), added.get((coding, "patch"))
    if whole and patch:
        summary.append(f"{coding}: whole {1e6 * median(whole):.1f} µs, patch {1e6 * median(patch):.1f} µs per update")
out += ["", "Each stream its own session (a chat of 200 messages); the simulation 1,000 times faster, so each message's "
        "answers come at once and every mode makes the same versions. Server CPU: over the update phase (the sends that "
        "make the updates included). The stream's part: that CPU less the same round's run without streams (scaled to "
        "the updates made), per update and per frame delivered (fewer frames than updates: a stream that falls behind "
        "sends the newest version of a feature once). Medians of the stream's part over the rounds: "
        + ("; ".join(summary) if summary else "–") + ".", ""]
def requests_per_second(path):
    text = open(path).read()
    found = re.search(r"Requests/sec:\s+([0-9.]+)", text)
    return float(found.group(1)) if found else None
out += ["### What keeping history in memory costs the memory store (`sessions.historyVersions` 1000 against 0)", "",
        f"wrk -t2 -c64, 64 sessions each, {rounds} interleaved rounds (each round's req/s in brackets); then "
        f"{int(sessions):,} chat-only sessions created (RSS per session).", "",
        "| load | history 1000 | history 0 |", "|---|---:|---:|"]
for feature, label in (("login", "POST login setUsername, req/s"), ("chat", "POST chat send, req/s")):
    cells = []
    for keep in ("1000", "0"):
        values = [requests_per_second(p) for p in sorted(glob.glob(f"{run}/wrk-{feature}-{keep}-*.txt"))]
        values = [v for v in values if v]
        cells.append(f"{sum(values) / len(values):,.0f} [{', '.join(f'{v:,.0f}' for v in values)}]" if values else "–")
    out.append(f"| {label} | {cells[0]} | {cells[1]} |")
cells = []
for keep in ("1000", "0"):
    try:
        created = json.load(open(f"{run}/create-{keep}.json"))
        cells.append(f"{created['rss_per_session_bytes']:,.0f} B")
    except (OSError, KeyError, ValueError, TypeError):
        cells.append("–")
out.append(f"| RSS per idle chat session | {cells[0]} | {cells[1]} |")
out += ["", f"Run folder: `Benchmarks/out/{os.path.basename(run)}` (git-ignored): commands, raw results, wrk outputs, "
        "server logs.", ""]
print("\n".join(out))
PY
replace_section "$REPORT" "$SECTION"
say "wrote $(head -1 "$SECTION") to $REPORT; raw results in $RESULTS"
