#!/usr/bin/env bash
# Benchmarks/memory.sh — RSS per session of two builds of `viewhost serve`, on each store and history setting: for
# each case, each build gets a fresh server on which SESSIONS_N sessions are created over HTTP (product_client.py
# create), and the server's RSS growth is divided by the sessions. Rounds alternate the builds' order. Prints a
# Markdown table (also written to the run folder). Measurement harness, not product code; loopback only, bounded.
#
# Usage: BEFORE_BIN=… AFTER_BIN=… Benchmarks/memory.sh      (release builds; about 1 min per server)
#
# Environment (defaults): BEFORE_BIN AFTER_BIN (required; the same binary twice is allowed) SESSIONS_N=100000
#   ROUNDS=2 CASES="memory:1000:all memory:1000:chat memory:0:all memory:0:chat sqlite:1000:all sqlite:1000:chat"
#   (store:sessions.historyVersions:features, features `all` = chat, weather, login, person)
# Outputs: Benchmarks/out/memory-<UTC stamp>/ (git-ignored).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$REPO/Benchmarks"
BEFORE_BIN="${BEFORE_BIN:?set BEFORE_BIN to a viewhost binary}" AFTER_BIN="${AFTER_BIN:?set AFTER_BIN to a viewhost binary}"
SESSIONS_N="${SESSIONS_N:-100000}" ROUNDS="${ROUNDS:-2}"
CASES="${CASES:-memory:1000:all memory:1000:chat memory:0:all memory:0:chat sqlite:1000:all sqlite:1000:chat}"
RUN="$BENCH/out/memory-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$RUN"
say() { echo "memory.sh: $*" >&2; }
die() { say "$*"; exit 2; }
COMMANDS="$RUN/commands.txt"; : > "$COMMANDS"
logged() { echo "\$ $*" >> "$COMMANDS"; "$@"; }
# shellcheck source=Benchmarks/lib.sh
source "$BENCH/lib.sh"
install_missing_commands python3:python3
[[ -x "$BEFORE_BIN" && -x "$AFTER_BIN" ]] || die "BEFORE_BIN and AFTER_BIN must be executables"
exec 9> "$BENCH/out/.product.lock"   # never at the same time as another product benchmark
flock -w 900 9 || die "another benchmark holds the lock"

PID=""
cleanup() {
  if [[ -n "$PID" ]]; then kill -TERM "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi
}
trap cleanup EXIT

measure() {   # build store history features round
  local build="$1" store="$2" history="$3" features="$4" round="$5" bin json tag port="" i
  bin="BEFORE_BIN"; [[ "$build" == after ]] && bin="AFTER_BIN"; bin="${!bin}"
  json='{"features":["chat","weather","login","person"]}'; [[ "$features" == chat ]] && json='{"features":["chat"]}'
  tag="$build-$store-$history-$features-$round"
  mkdir -p "$RUN/$tag"
  echo "\$ (cd $RUN/$tag && VIEWHOST_SESSIONS_HISTORY_VERSIONS=$history $bin serve --port 0 --weather-provider offline --store $store) &" >> "$COMMANDS"
  (cd "$RUN/$tag" && exec env VIEWHOST_SESSIONS_MAX=250000 VIEWHOST_SERVER_MAX_CONNECTIONS=20000 \
    VIEWHOST_LIMITS_SESSIONS_PER_MINUTE_PER_CLIENT=0 VIEWHOST_LIMITS_EVENTS_PER_SECOND_PER_SESSION=0 \
    VIEWHOST_LOG_ACCESS=false VIEWHOST_SESSIONS_HISTORY_VERSIONS="$history" \
    "$bin" serve --port 0 --weather-provider offline --store "$store") > "$RUN/$tag/server.out" 2> "$RUN/$tag/server.err" &
  PID=$!
  for i in $(seq 300); do
    port="$(sed -n 's|^viewhost listening on http://127\.0\.0\.1:\([0-9]*\)$|\1|p' "$RUN/$tag/server.out" | head -1)"
    [[ -n "$port" ]] && break
    sleep 0.1
  done
  [[ -n "$port" ]] || die "no readiness line from $tag (see $RUN/$tag/server.err)"
  logged python3 "$BENCH/product_client.py" create --port "$port" --pid "$PID" --count "$SESSIONS_N" --conns 128 \
    --body "$json" --settle 3 --json-out "$RUN/$tag.json" > /dev/null || say "creation failed ($tag)"
  kill -TERM "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; PID=""
  rm -rf "$RUN/$tag/data"   # a SQLite store of SESSIONS_N sessions: hundreds of MB, not needed once measured
}

for round in $(seq "$ROUNDS"); do
  for case in $CASES; do
    IFS=: read -r store history features <<< "$case"
    if (( round % 2 )); then order=(before after); else order=(after before); fi
    for build in "${order[@]}"; do say "round $round: $build $case"; measure "$build" "$store" "$history" "$features" "$round"; done
  done
done

python3 - "$RUN" "$ROUNDS" "$CASES" "$SESSIONS_N" > "$RUN/table.md" <<'PY'
import json, sys
run, rounds, cases, n = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), int(sys.argv[4])
def value(build, case, r):
    store, history, features = case.split(":")
    try:
        return json.load(open(f"{run}/{build}-{store}-{history}-{features}-{r}.json"))["rss_per_session_bytes"]
    except Exception:
        return None
print(f"| store | history kept | features | before B/session [rounds] | after B/session [rounds] | after, {n:,} sessions |")
print("|---|---:|---|---:|---:|---:|")
for case in cases:
    store, history, features = case.split(":")
    cells = []
    for build in ("before", "after"):
        vals = [v for v in (value(build, case, r) for r in range(1, rounds + 1)) if v is not None]
        mean = sum(vals) / len(vals) if vals else None
        cells.append((mean, vals))
    fmt = lambda c: f"{c[0]:,.0f} [{' '.join(f'{v:,.0f}' for v in c[1])}]" if c[0] else "–"
    mib = f"{cells[1][0] * n / 2**20:,.0f} MiB" if cells[1][0] else "–"
    label = "all four" if features == "all" else "chat (idle)"
    print(f"| {store} | {history} | {label} | {fmt(cells[0])} | {fmt(cells[1])} | {mib} |")
PY
cat "$RUN/table.md"
echo "Run folder: Benchmarks/out/$(basename "$RUN") (git-ignored)"
