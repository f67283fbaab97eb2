#!/usr/bin/env bash
# Benchmarks/shared.sh — one shared session on the real product (`viewhost serve`, issue 43), read by a native client
# (Benchmarks/Sources/shared-bench); writes the section "## Shared sessions (Benchmarks/shared.sh)" of BENCHMARKS.md
# (replaces that section, keeps the rest). Measurement harness, not product code. Loads target 127.0.0.1 only and
# are bounded in count and time.
#
# Usage: Benchmarks/shared.sh        (from anywhere; about two minutes after the build)
#
# 1. Builds, release: viewhost and shared-bench with --scratch-path <repo>/.build-bench (SKIP_BUILD=1 skips it).
# 2. Three servers in turn, each `viewhost serve` with room for the streams and no event-rate limits:
#    a. owner streams: one session, PARTICIPANTS streams with the owner's token (the baseline);
#    b. participants: one session, PARTICIPANTS members each with a stream of its own; then EVENTS owner events
#       paced over PACE s, then all at once; latency = the last stream's arrival of the event's version − the POST;
#    c. throughput: POSTERS members of one shared session posting closed-loop for SECONDS s, then POSTERS
#       personal sessions the same way (THROUGHPUT_SECONDS each).
#    Memory per participant beyond its connection = (RSS of b − RSS of a) ÷ PARTICIPANTS, both with every stream
#    open (VmRSS of the server).
# Environment (defaults): PARTICIPANTS=1000 EVENTS=100 PACE=5 POSTERS=64 THROUGHPUT_SECONDS=5 PORT=18520 STORE=sqlite
#                         SKIP_BUILD=0 BIN=<built viewhost> REPORT=<repo>/BENCHMARKS.md
#                         FEATURE=person EVENT=<its setPerson, NAME replaced by a unique text>
#                         SERVE_ARGS="--simulation-speed 1 --weather-provider offline" (an app without weather: "")
# The viewer-dependent case (the test app's `board`, whose snapshot counts what the viewer added) against its
# viewer-independent `shared` on the same binary, each into a report of its own:
#   swift build -c release --product schema-test-server --scratch-path .build-bench
#   SCHEMA_TEST_SHARED=1 SERVE_ARGS= BIN=.build-bench/release/schema-test-server FEATURE=board EVENT='{"type":"add","text":"NAME"}' \
#     REPORT=/tmp/board.md SKIP_BUILD=1 Benchmarks/shared.sh
#   SCHEMA_TEST_SHARED=1 SERVE_ARGS= BIN=.build-bench/release/schema-test-server FEATURE=shared EVENT='{"type":"add"}' \
#     REPORT=/tmp/shared.md SKIP_BUILD=1 Benchmarks/shared.sh
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
RUN="$REPO/Benchmarks/out/shared-$STAMP"
REPORT="${REPORT:-$REPO/BENCHMARKS.md}"
PARTICIPANTS="${PARTICIPANTS:-1000}" EVENTS="${EVENTS:-100}" PACE="${PACE:-5}" POSTERS="${POSTERS:-64}"
SECONDS_EACH="${THROUGHPUT_SECONDS:-5}" PORT="${PORT:-18520}" STORE="${STORE:-sqlite}"
FEATURE="${FEATURE:-person}"
read -r -a SERVE_ARGS <<< "${SERVE_ARGS---simulation-speed 1 --weather-provider offline}"
FEATURE_ARGS=()
[ -n "${EVENT:-}" ] && FEATURE_ARGS=(--feature "$FEATURE" --event "$EVENT")
mkdir -p "$RUN"
PIDS=()
cleanup() { for pid in "${PIDS[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT
say() { echo "shared.sh: $*" >&2; }
# shellcheck source=Benchmarks/lib.sh
source "$REPO/Benchmarks/lib.sh"

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  say "building viewhost and shared-bench (release)"
  swift build -c release --product viewhost --scratch-path "$REPO/.build-bench" > "$RUN/build.log" 2>&1
  swift build -c release --product shared-bench --scratch-path "$REPO/.build-bench" >> "$RUN/build.log" 2>&1
fi
BIN="$(realpath "${BIN:-$REPO/.build-bench/release/viewhost}")"
CLIENT="${CLIENT:-$REPO/.build-bench/release/shared-bench}"
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
STREAMS=$((PARTICIPANTS + 16))

# run NAME CLIENT-ARGS...: a fresh server (its own data directory), the client against it, the server stopped.
run() {
  local name="$1"; shift
  mkdir -p "$RUN/$name"
  local store_args=()
  [ "$STORE" = memory ] && store_args=(--store memory)
  (cd "$RUN/$name" && exec env VIEWHOST_STREAMS_MAX="$((STREAMS * 2))" VIEWHOST_STREAMS_MAX_PER_SESSION="$STREAMS" \
    VIEWHOST_STREAMS_MAX_PER_PARTICIPANT="$((PARTICIPANTS < 1000 ? PARTICIPANTS : 1000))" \
    VIEWHOST_PARTICIPANTS_MAX_PER_SESSION="$PARTICIPANTS" VIEWHOST_PARTICIPANTS_MAX_OPEN_INVITATIONS=100 \
    VIEWHOST_LIMITS_SESSIONS_PER_MINUTE_PER_CLIENT=0 VIEWHOST_LIMITS_EVENTS_PER_SECOND_PER_SESSION=0 \
    VIEWHOST_LIMITS_EVENTS_PER_SECOND_PER_PARTICIPANT=0 VIEWHOST_SERVER_MAX_CONNECTIONS="$((STREAMS * 2 + 256))" \
    "$BIN" serve --port "$PORT" "${SERVE_ARGS[@]}" --log-level error "${store_args[@]}") \
    > "$RUN/$name/server.out" 2> "$RUN/$name/server.err" &
  local pid=$!
  PIDS+=("$pid")
  for _ in $(seq 200); do grep -q "listening" "$RUN/$name/server.out" 2>/dev/null && break; sleep 0.05; done
  "$CLIENT" "$PORT" --server-pid "$pid" --json-out "$RUN/$name.json" "${FEATURE_ARGS[@]}" "$@" > "$RUN/$name/client.out"
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

say "baseline: $PARTICIPANTS streams of the owner"
run owner --phase fanout --participants "$PARTICIPANTS" --events "$EVENTS" --pace-seconds "$PACE" --owner-streams
say "$PARTICIPANTS participants, a stream each; $EVENTS events paced over $PACE s, then at once"
run participants --phase fanout --participants "$PARTICIPANTS" --events "$EVENTS" --pace-seconds "$PACE"
say "$POSTERS posters: one shared session, then $POSTERS personal sessions, $SECONDS_EACH s each"
run throughput --phase throughput --posters "$POSTERS" --seconds "$SECONDS_EACH"

TABLES="$(python3 - "$RUN" "$PARTICIPANTS" <<'PY'
import json, sys
run, n = sys.argv[1], int(sys.argv[2])
owner = json.load(open(f"{run}/owner.json"))
parts = json.load(open(f"{run}/participants.json"))
thr = json.load(open(f"{run}/throughput.json"))
print("| streams of | streams open | mode | events | POST statuses | missing | p50 ms | p90 | p99 | max | server CPU s |")
print("|---|---:|---|---:|---|---:|---:|---:|---:|---:|---:|")
for label, d in (("the owner (baseline)", owner), (f"{n:,} participants", parts)):
    for r in d["rounds"]:
        l = r["last_stream_latency_ms"]
        print(f"| {label} | {d['streams_open']:,} | {r['mode']} | {r['events']} | {r['post_statuses']} | "
              f"{r['events_missing_somewhere']} | {l['p50']} | {l['p90']} | {l['p99']} | {l['max']} | {r['server_cpu_s']} |")
print()
a, b = owner["rss_kib"], parts["rss_kib"]
per = (b["streams_open"] - a["streams_open"]) * 1024 / n if n else 0
joined = (b["joined"] - b["session"]) * 1024 / n if n else 0
print("| server RSS (KiB) | one session | after the joins | every stream open |")
print("|---|---:|---:|---:|")
print(f"| owner's {n:,} streams | {a['session']:,} | — | {a['streams_open']:,} |")
print(f"| {n:,} participants' streams | {b['session']:,} | {b['joined']:,} | {b['streams_open']:,} |")
print()
print(f"Memory per participant beyond its connection: **{per:,.0f} bytes** ((RSS with the participants' streams − "
      f"RSS with the owner's) ÷ {n:,}); the joins alone: {joined:,.0f} bytes each (goal ≤ 2 KiB).")
print()
s, p = thr["shared"], thr["personal"]
print("| posters | as | events/s | accepted | POST statuses | server CPU s |")
print("|---:|---|---:|---:|---|---:|")
print(f"| {s['posters']} | members of one shared session | {s['events_per_second']:,.0f} | {s['accepted']:,} | {s['post_statuses']} | {s['server_cpu_s']} |")
print(f"| {p['posters']} | owners of a session each | {p['events_per_second']:,.0f} | {p['accepted']:,} | {p['post_statuses']} | {p['server_cpu_s']} |")
print()
print(f"Shared ÷ personal: **{thr['ratio']}×** (goal ≥ 0.8×).")
p99 = [r["last_stream_latency_ms"]["p99"] for r in parts["rounds"]]
print()
print(f"Fan-out to {n:,} participants, p99 of the last stream: " + ", ".join(
    f"{r['mode']} {r['last_stream_latency_ms']['p99']} ms" for r in parts["rounds"]) + " (goal ≤ 100 ms).")
PY
)"

SECTION="$RUN/section.md"
cat > "$SECTION" <<MD
## Shared sessions (Benchmarks/shared.sh)

Made by \`Benchmarks/shared.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average before: $LOAD_BEFORE;
store: $STORE; \`viewhost serve\` release and the native client \`shared-bench\` on the same two cores. One shared
session with the $FEATURE feature. Each event's latency is the kernel
receive time (SO_TIMESTAMPNS) at the **last** of the streams of a frame of its version or a later one, less its
POST's write: **paced**, $EVENTS events over $PACE s; **burst**, $EVENTS written at once, each on a connection of its own (by as many members). The baseline opens as many
streams with the owner's token and no participants. Throughput: $POSTERS posters, each on its own keep-alive
connection, posting \`setPerson\` closed-loop (the next once the \`202\` came, i.e. once durable) for $SECONDS_EACH s.
Raw outputs: \`Benchmarks/out/shared-$STAMP/\`.

$TABLES
MD
replace_section "$REPORT" "$SECTION"
cat "$SECTION"
