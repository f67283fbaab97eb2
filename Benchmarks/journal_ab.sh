#!/usr/bin/env bash
# Benchmarks/journal_ab.sh — a session journal's import and export (issue 24's ≥ 50,000 inputs/s) timed on two or
# more builds in turn, each round on a fresh server per build, with the server's CPU. Measurement harness, not
# product code; loopback only, bounded (ROUNDS × builds servers, N imports and N exports each).
#
# Usage: Benchmarks/journal_ab.sh BIN [BIN…]     (release builds)
#
# First (once, on the first build) a session of INPUTS person events is made over HTTP and exported to the run
# folder; then, for each round and build: a fresh server (--store STORE, `--sync normal` on sqlite, the settings
# history.sh uses), one import of that export (its session is the one exported), then N times in turn an import
# (curl --data-binary, answered 201 once stored) and an export of the imported session (curl -o /dev/null). Prints
# each build's median and best of each, in inputs/s, and the server's CPU over the N pairs (/proc/PID/stat).
#
# Environment (defaults): INPUTS=10000 N=7 ROUNDS=2 STORE=sqlite
# Outputs: Benchmarks/out/journal-<UTC stamp>/ (git-ignored).
set -euo pipefail
BENCH="$(cd "$(dirname "$0")" && pwd)"
INPUTS="${INPUTS:-10000}" N="${N:-7}" ROUNDS="${ROUNDS:-2}" STORE="${STORE:-sqlite}"
(( $# >= 1 )) || { echo "usage: $0 BIN [BIN…]" >&2; exit 64; }
RUN="$BENCH/out/journal-$(date -u +%Y%m%dT%H%M%SZ)"; mkdir -p "$RUN"
say() { echo "journal_ab.sh: $*" >&2; }

PID="" BASE=""
stop() { if [[ -n "$PID" ]]; then kill -TERM "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi; PID=""; }
trap stop EXIT
# start BIN NAME: a fresh server; its pid in PID and its base URL in BASE.
start() {
  local extra=(--store "$STORE"); [[ "$STORE" == sqlite ]] && extra+=(--sync normal)
  rm -rf "$RUN/data-$2"
  VIEWHOST_LOG_ACCESS=false VIEWHOST_LIMITS_EVENTS_PER_SECOND_PER_SESSION=0 VIEWHOST_LIMITS_SESSIONS_PER_MINUTE_PER_CLIENT=0 \
  VIEWHOST_SESSIONS_HISTORY_VERSIONS=20000 VIEWHOST_LIMITS_MAX_BODY_BYTES=268435456 VIEWHOST_SIMULATION_SEED=1 \
    "$1" serve --port 0 --data-dir "$RUN/data-$2" "${extra[@]}" > "$RUN/server-$2.out" 2> "$RUN/server-$2.err" &
  PID=$!; BASE=""
  for _ in $(seq 300); do
    BASE="$(grep -o 'http://[0-9.:]*' "$RUN/server-$2.out" 2>/dev/null | head -1 || true)"; [[ -n "$BASE" ]] && return 0; sleep 0.1
  done
  say "no readiness line from $1"; exit 2
}
field() { python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }

EXPORT="$RUN/export.ndjson"
start "$1" make
say "making a session of $INPUTS inputs"
BENCH="$BENCH" BASE="$BASE" INPUTS="$INPUTS" EXPORT="$EXPORT" python3 -c '
import os, sys
sys.path.insert(0, os.environ["BENCH"])
import history_client as h
conn = h.connection(os.environ["BASE"])
session = h.create(conn, ["person"])
h.fill(conn, session, int(os.environ["INPUTS"]))
status, _, body = h.request(conn, "GET", f"/v1/sessions/{session[0]}/journal", session[1])
assert status == 200, status
open(os.environ["EXPORT"], "wb").write(body)
'
stop
echo "export: $(wc -c < "$EXPORT") bytes, $INPUTS inputs; STORE=$STORE N=$N ROUNDS=$ROUNDS" | tee "$RUN/results.txt"
for round in $(seq "$ROUNDS"); do
  for bin in "$@"; do
    start "$bin" "$round-$(basename "$bin")"
    created="$(curl -s --data-binary @"$EXPORT" -H 'Content-Type: application/x-ndjson' "$BASE/v1/sessions")"
    sid="$(field "$created" id)"; token="$(field "$created" token)"
    cpu_before="$(awk '{print $14 + $15}' "/proc/$PID/stat")"
    imports=() exports=()
    for _ in $(seq "$N"); do
      imports+=("$(curl -s -o /dev/null -w '%{http_code}:%{time_total}' --data-binary @"$EXPORT" \
        -H 'Content-Type: application/x-ndjson' "$BASE/v1/sessions")")
      exports+=("$(curl -s -o /dev/null -w '%{http_code}:%{time_total}' -H "Authorization: Bearer $token" \
        "$BASE/v1/sessions/$sid/journal")")
    done
    cpu_after="$(awk '{print $14 + $15}' "/proc/$PID/stat")"
    stop
    python3 - "$round" "$bin" "$INPUTS" "$(( cpu_after - cpu_before ))" "$(getconf CLK_TCK)" "${imports[*]}" "${exports[*]}" <<'PY' | tee -a "$RUN/results.txt"
import statistics, sys
round_, binary, inputs, ticks, hz, imports, exports = sys.argv[1:]
inputs = int(inputs)
def times(runs, ok):
    pairs = [run.split(":") for run in runs.split()]
    assert all(code == ok for code, _ in pairs), pairs
    return sorted(float(seconds) for _, seconds in pairs)
line = []
for name, runs, ok in (("import", imports, "201"), ("export", exports, "200")):
    t = times(runs, ok)
    line.append(f"{name} median {statistics.median(t):.3f} s ({inputs / statistics.median(t):,.0f}/s), best {t[0]:.3f} s ({inputs / t[0]:,.0f}/s)")
print(f"round {round_} {binary}: " + "; ".join(line) + f"; server CPU {int(ticks) / int(hz):.2f} s")
PY
  done
done
say "run folder: $RUN"
