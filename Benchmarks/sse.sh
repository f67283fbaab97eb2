#!/usr/bin/env bash
# Benchmarks/sse.sh — 10,000 server-sent event streams on the real product (`viewhost serve`), read by a native
# client (Benchmarks/Sources/sse-bench), so that on this 2-core machine the client's own CPU does not make up
# most of the latency; writes the section "## Live updates with a native client (viewhost serve)" of
# BENCHMARKS.md (replaces that section, keeps the rest). Measurement harness, not product code. Loads target
# 127.0.0.1 only and are bounded in count and time.
#
# Usage: Benchmarks/sse.sh        (from anywhere; under a minute after the build)
#
# 1. Builds, release: swift build -c release --product viewhost --product sse-bench --scratch-path <repo>/.build-bench
#    (SKIP_BUILD=1 skips it).
# 2. Starts `viewhost serve` with room for the streams (VIEWHOST_STREAMS_MAX=20000,
#    VIEWHOST_SERVER_MAX_CONNECTIONS=20000, VIEWHOST_SESSIONS_MAX=200000), --simulation-speed 1, offline weather.
# 3. Runs sse-bench: SESSIONS sessions with the login feature, PER streams each, then the rounds of MODES (one
#    setUsername POST per session; burst = all at once, paced = spread over PACE seconds). Latency = the kernel's
#    receive time of the stream's next event − the POST's write; the client's read time is reported beside it.
#    The server's CPU seconds per round come from /proc/PID/stat, from the round's first POST to its last event.
# 4. STORE=memory runs the server with --store memory (default: the embedded SQLite store under the run's data/).
#    BIN=PATH runs that viewhost binary instead (an older build, for a comparison in one run).
#    PERF=1 runs it under `perf record -g -F 499` (a few % of its CPU) and keeps the server's largest functions,
#    by self time and with their callees, in the run's perf-self.txt and perf-children.txt.
# Environment (defaults): SESSIONS=2000 PER=5 MODES="burst paced burst" PACE=2 PORT=18490 SKIP_BUILD=0
#                         STORE=sqlite PERF=0 POST_CONNS=64 REPORT=<repo>/BENCHMARKS.md
# POST_CONNS: the keep-alive connections the POSTs go over (pipelined on each: the server answers a connection's
# requests in order, each after its commit).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
RUN="$REPO/Benchmarks/out/sse-$STAMP"
REPORT="${REPORT:-$REPO/BENCHMARKS.md}"
SESSIONS="${SESSIONS:-2000}" PER="${PER:-5}" MODES="${MODES:-burst paced burst}" PACE="${PACE:-2}" PORT="${PORT:-18490}"
STORE="${STORE:-sqlite}" PERF="${PERF:-0}" POST_CONNS="${POST_CONNS:-64}"
mkdir -p "$RUN"
PIDS=()
cleanup() { for pid in "${PIDS[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT
say() { echo "sse.sh: $*" >&2; }
# shellcheck source=Benchmarks/lib.sh
source "$REPO/Benchmarks/lib.sh"

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  say "building viewhost and sse-bench (release)"
  swift build -c release --product viewhost --scratch-path "$REPO/.build-bench" > "$RUN/build.log" 2>&1
  swift build -c release --product sse-bench --scratch-path "$REPO/.build-bench" >> "$RUN/build.log" 2>&1
fi
BIN="${BIN:-$REPO/.build-bench/release/viewhost}"
CLIENT="$REPO/.build-bench/release/sse-bench"

LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
[ "$PERF" = 1 ] && ! command -v perf >/dev/null && { say "perf is not installed: no profile"; PERF=0; }
PROFILER=()
[ "$PERF" = 1 ] && PROFILER=(perf record -g -F 499 -o "$RUN/perf.data" --)
STORE_ARGS=()
[ "$STORE" = memory ] && STORE_ARGS=(--store memory)
(cd "$RUN" && exec "${PROFILER[@]}" env VIEWHOST_SESSIONS_MAX=200000 VIEWHOST_STREAMS_MAX=20000 VIEWHOST_STREAMS_MAX_PER_SESSION=8 \
  VIEWHOST_LIMITS_SESSIONS_PER_MINUTE_PER_CLIENT=0 VIEWHOST_LIMITS_EVENTS_PER_SECOND_PER_SESSION=0 \
  VIEWHOST_SERVER_MAX_CONNECTIONS=20000 "$BIN" serve --port "$PORT" --simulation-speed 1 --weather-provider offline \
  --log-level error "${STORE_ARGS[@]}") > "$RUN/server.out" 2> "$RUN/server.err" &
LAUNCHED=$!; PIDS+=("$LAUNCHED")
for _ in $(seq 200); do grep -q "listening" "$RUN/server.out" 2>/dev/null && break; sleep 0.05; done
PID="$LAUNCHED"
# Under perf, the server is perf's child (env execs it).
[ "$PERF" = 1 ] && PID="$(pgrep -P "$LAUNCHED" | head -1)"
PIDS=("$PID" "${PIDS[@]}")

say "$SESSIONS sessions x $PER streams; rounds: $MODES"
"$CLIENT" "$PORT" --sessions "$SESSIONS" --per "$PER" --modes "$(echo $MODES | tr ' ' ',')" --pace-seconds "$PACE" --post-conns "$POST_CONNS" \
  --server-pid "$PID" --json-out "$RUN/sse-bench.json" > "$RUN/sse-bench.out"
ROWS="$(python3 - "$RUN/sse-bench.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for n, r in enumerate(d["rounds"], 1):
    a = r["latency_ms"]; b = r["read_latency_ms"]
    print(f"| {n} | {r['mode']} | {d['streams_open']:,} | {r['changes']:,} | {r['delivered']:,} | {r['missing']} | "
          f"{r['extra_frames']} | {r['post_statuses']} | {r['send_span_s']} | {a['p50']} | {a['p90']} | {a['p99']} | "
          f"{a['max']} | {b['p99']} | {r['answer_latency_ms']['p99']} | {r['frame_after_answer_ms']['p99']} | "
          f"{r['server_cpu_s']} | {r['client_cpu_s']} |")
PY
)"
VERDICTS="$(python3 - "$RUN/sse-bench.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for mode in ("paced", "burst"):
    rounds = [r for r in d["rounds"] if r["mode"] == mode]
    if not rounds:
        continue
    ok = [r["missing"] == 0 and r["latency_ms"]["p99"] <= 100 for r in rounds]
    p99 = ", ".join(str(r["latency_ms"]["p99"]) for r in rounds)
    print(f"- {mode}: p99 {p99} ms; all delivered and p99 ≤ 100 ms in {sum(ok)} of {len(ok)} rounds")
PY
)"
kill "$PID"; wait "$LAUNCHED" 2>/dev/null || true
[ "$PERF" = 1 ] && perf_report "$RUN"

HEADING_STORE=""
[ "$STORE" = memory ] && HEADING_STORE=", memory store"
PROFILE_NOTE=""
[ -s "$RUN/perf-self.txt" ] && PROFILE_NOTE="Server profile (\`perf record -g -F 499\` over the whole run): \`Benchmarks/out/sse-$STAMP/perf-self.txt\`, \`perf-children.txt\`."
SECTION="$RUN/section.md"
cat > "$SECTION" <<MD
## Live updates with a native client (viewhost serve$HEADING_STORE)

Made by \`Benchmarks/sse.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average before: $LOAD_BEFORE.
One \`viewhost serve\` (release, two event loops) and one \`sse-bench\` run against it: $SESSIONS sessions
with the login feature, $PER streams each (one connection per stream, all read by one epoll thread), then one
\`setUsername\` POST per session. **burst**: all POSTs written at once over $POST_CONNS keep-alive connections; **paced**: spread
over $PACE s. Latency = the kernel's receive timestamp (SO_TIMESTAMPNS) of the stream's next event − the POST's write;
"read p99" is when the client got to it. "answer p99": the POST's 202 (sent once the change is durable), stamped
the same way: the queue, the apply and the commit; "fan-out p99": a frame's arrival − its session's answer's. Store: $STORE. CPU = utime+stime from the round's first POST to its last event (the
server's from /proc/PID/stat). Raw outputs: \`Benchmarks/out/sse-$STAMP/\`.

| round | mode | streams open | changes | delivered | missing | extra frames | POST statuses | send span s | p50 ms | p90 | p99 | max | read p99 ms | answer p99 ms | fan-out p99 ms | server CPU s | client CPU s |
|---:|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
$(printf '%s' "$ROWS")

Against the live-updates issue's bar (all delivered, p99 ≤ 100 ms):

$VERDICTS

$PROFILE_NOTE
MD
replace_section "$REPORT" "$SECTION"
cat "$SECTION"
