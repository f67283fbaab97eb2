#!/usr/bin/env bash
# Benchmarks/deliveries.sh — chat messages between people's sessions on the real product (`viewhost serve`, one
# node, SQLite, release), read by a native client (Benchmarks/Sources/delivery-bench); writes the section
# "## Deliveries between sessions (viewhost serve)" of BENCHMARKS.md (replaces that section, keeps the rest).
# Measurement harness, not product code. Loads target 127.0.0.1 only and are bounded in count and time.
#
# Usage: Benchmarks/deliveries.sh        (from anywhere; about a minute after the build)
#
# 1. Builds, release: swift build -c release --product viewhost --product delivery-bench
#    --scratch-path <repo>/.build-bench (SKIP_BUILD=1 skips it).
# 2. Waits (at most 60 s) for the machine's CPU use to fall under 40 %, then starts `viewhost serve` on a new data
#    directory (the default store, SQLite), --simulation-speed 100 (the bot's reply delays divided by 100, so its
#    replies fall inside the throughput rounds that cause them), no per-client or per-session rate limits.
# 3. delivery-bench: PAIRS pairs of chat sessions made contacts by an invitation; B's stream open on each pair;
#    latency: for each of RATES, that many messages/s in all from the A's to their B's for DURATION s (the first is
#    the issue's load; the lower one shows how much of the latency is queueing on a busy machine); then ROUNDS
#    alternating closed-loop rounds of THROUGHPUT seconds, DEPTH POSTs in flight per sender, to the person and to the
#    seeded bot (John).
#    Latency = kernel receive time (SO_TIMESTAMPNS) of the first event on B's stream holding the message − kernel
#    receive time of A's 202 (also given from the POST's write).
# 4. The store: sqlite3 reads journal and snapshot bytes per session and the pages in use before and after the
#    first latency phase (the client's hook), divided by the messages delivered, senders and receivers apart.
# 5. PERF=1 (default) runs the server under `perf record -g -F 499` for the whole run (a few % of its CPU), and
#    reports the server's largest functions, by self time and with their callees (demangled). (`perf record -p PID`
#    is not used: on this kernel it spun at 100 % CPU once a thread of the server ended, and `-a` saw only other
#    tenants of the machine.)
# 6. CLUSTER=1 (default): the latency phases again on two nodes sharing PostgreSQL (scripts/cluster.sh bench: three
#    nodes, PostgreSQL from a temporary directory, nginx unused here): the A's made on node1 and posting there, the B's
#    made, redeeming and streamed on node2, so every message crosses from one node to the other.
# Environment (defaults): PAIRS=64 RATES="1000 250" DURATION=10 THROUGHPUT=5 DEPTH=4 ROUNDS=2 PORT=18520 SKIP_BUILD=0
#                         PERF=1 CLUSTER=1 REPORT=<repo>/BENCHMARKS.md
set -euo pipefail

# Inside scripts/cluster.sh bench (step 6): the latency phases only, A's on node1, B's made and streamed on node2.
if [ -n "${DELIVERIES_CLUSTER_RUN:-}" ]; then
  IFS=, read -r -a urls <<<"$CLUSTER_NODE_URLS"
  "$DELIVERIES_CLIENT" "${urls[0]##*:}" --b-port "${urls[1]##*:}" --pairs "$PAIRS" --rates "$(echo $RATES | tr ' ' ',')" \
    --seconds "$DURATION" --latency-only --json-out "$DELIVERIES_CLUSTER_RUN/cluster.json" \
    > "$DELIVERIES_CLUSTER_RUN/cluster-bench.out"
  exit
fi

# The command as given (the variables set in the environment), for the report.
COMMAND="$(for v in PAIRS RATES DURATION THROUGHPUT DEPTH ROUNDS PERF CLUSTER SKIP_BUILD; do [ -n "${!v+x}" ] && printf '%s=%s ' "$v" "${!v}"; done; :)Benchmarks/deliveries.sh"
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
RUN="$REPO/Benchmarks/out/deliveries-$STAMP"
REPORT="${REPORT:-$REPO/BENCHMARKS.md}"
PAIRS="${PAIRS:-64}" RATES="${RATES:-1000 250}" DURATION="${DURATION:-10}" THROUGHPUT="${THROUGHPUT:-5}"
DEPTH="${DEPTH:-4}" ROUNDS="${ROUNDS:-2}" PORT="${PORT:-18520}" PERF="${PERF:-1}" CLUSTER="${CLUSTER:-1}"
mkdir -p "$RUN/data"
PIDS=()
cleanup() { for pid in "${PIDS[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT
say() { echo "deliveries.sh: $*" >&2; }
logged() { echo "$*" >> "$RUN/commands.txt"; "$@"; }
# shellcheck source=Benchmarks/lib.sh
source "$REPO/Benchmarks/lib.sh"
install_missing_commands sqlite3:sqlite3
[ "$PERF" = 1 ] && ! command -v perf >/dev/null && { say "perf is not installed: no profile"; PERF=0; }

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  say "building viewhost and delivery-bench (release)"
  logged swift build -c release --product viewhost --scratch-path "$REPO/.build-bench" > "$RUN/build.log" 2>&1
  logged swift build -c release --product delivery-bench --scratch-path "$REPO/.build-bench" >> "$RUN/build.log" 2>&1
fi
BIN="$REPO/.build-bench/release/viewhost"
CLIENT="$REPO/.build-bench/release/delivery-bench"

wait_for_quiet_machine 40 60
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
PROFILER=()
[ "$PERF" = 1 ] && PROFILER=(perf record -g -F 499 -o "$RUN/perf.data" --)
(cd "$RUN" && exec "${PROFILER[@]}" env VIEWHOST_LIMITS_SESSIONS_PER_MINUTE_PER_CLIENT=0 VIEWHOST_LIMITS_EVENTS_PER_SECOND_PER_SESSION=0 \
  "$BIN" serve --port "$PORT" --data-dir "$RUN/data" --simulation-speed 100 --weather-provider offline \
  --log-level error) > "$RUN/server.out" 2> "$RUN/server.err" &
LAUNCHED=$!; PIDS+=("$LAUNCHED")
for _ in $(seq 200); do grep -q "listening" "$RUN/server.out" 2>/dev/null && break; sleep 0.05; done
grep -q "listening" "$RUN/server.out" || { say "the server did not start: $(tail -3 "$RUN/server.err")"; exit 1; }
PID="$LAUNCHED"
# Under perf, the server is perf's child (env execs it).
[ "$PERF" = 1 ] && PID="$(pgrep -P "$LAUNCHED" | head -1)"
PIDS=("$PID" "${PIDS[@]}")

# The client's hook: `hook.sh before` / `hook.sh after N` measure the store (`hook.sh throughput` does nothing).
DB="$RUN/data/viewhost.sqlite"
cat > "$RUN/hook.sh" <<HOOK
#!/usr/bin/env bash
set -euo pipefail
phase="\$1"
[ "\$phase" = throughput ] && exit 0
sqlite3 -readonly "$DB" "PRAGMA page_size; PRAGMA page_count; PRAGMA freelist_count;" > "$RUN/pages-\$phase.txt"
sqlite3 -readonly -separator ' ' "$DB" "SELECT session_id, count(*), sum(length(input)) FROM journal GROUP BY session_id;" > "$RUN/journal-\$phase.txt"
sqlite3 -readonly -separator ' ' "$DB" "SELECT session_id, count(*), sum(length(core)) FROM snapshots GROUP BY session_id;" > "$RUN/snapshots-\$phase.txt"
stat -c '%n %s' "$DB"* > "$RUN/files-\$phase.txt"
HOOK
chmod +x "$RUN/hook.sh"

say "$PAIRS pairs; $RATES messages/s for $DURATION s; $ROUNDS x (person, bot) closed-loop rounds of $THROUGHPUT s"
logged "$CLIENT" "$PORT" --pairs "$PAIRS" --rates "$(echo $RATES | tr ' ' ',')" --seconds "$DURATION" --throughput-seconds "$THROUGHPUT" \
  --depth "$DEPTH" --rounds "$ROUNDS" --server-pid "$PID" --hook "$RUN/hook.sh" --json-out "$RUN/delivery-bench.json" \
  > "$RUN/delivery-bench.out"
BUSY_AFTER="$(busy_percent)"
kill "$PID"; wait "$LAUNCHED" 2>/dev/null || true
if [ "$CLUSTER" = 1 ]; then
  say "the latency phases on two nodes sharing PostgreSQL (scripts/cluster.sh bench)"
  SQLITE_NOTE="$QUIET_NOTE"
  wait_for_quiet_machine 40 30
  CLUSTER_NOTE="$QUIET_NOTE" QUIET_NOTE="$SQLITE_NOTE"
  VIEWHOST_BINARY="$BIN" DELIVERIES_CLUSTER_RUN="$RUN" DELIVERIES_CLIENT="$CLIENT" PAIRS="$PAIRS" RATES="$RATES" \
    DURATION="$DURATION" logged "$REPO/scripts/cluster.sh" bench "$REPO/Benchmarks/deliveries.sh" > "$RUN/cluster.log" 2>&1 \
    || say "the cluster run failed (see $RUN/cluster.log)"
fi
[ "$PERF" = 1 ] && perf_report "$RUN"

python3 - "$RUN" > "$RUN/figures.md" 2>"$RUN/report.err" <<'PY' || { say "report failed: $(cat "$RUN/report.err")"; exit 1; }
import json, os, sys
run = sys.argv[1]
d = json.load(open(f"{run}/delivery-bench.json"))
lats = d["latency"]
lat = lats[0]
def rows(name):
    out = {}
    for line in open(f"{run}/{name}"):
        sid, count, size = line.split()
        out[sid] = (int(count), int(size or 0))
    return out
def pages(phase):
    size, count, free = [int(x) for x in open(f"{run}/pages-{phase}.txt").read().split()]
    return size * (count - free)
n = lat["delivered"]
roles = {"sender": set(d["ids"]["senders"]), "receiver": set(d["ids"]["receivers"])}
per = {}
for table in ("journal", "snapshots"):
    before, after = rows(f"{table}-before.txt"), rows(f"{table}-after.txt")
    for role, ids in roles.items():
        delta_bytes = sum(after.get(i, (0, 0))[1] - before.get(i, (0, 0))[1] for i in ids)
        delta_rows = sum(after.get(i, (0, 0))[0] - before.get(i, (0, 0))[0] for i in ids)
        per[(table, role)] = (delta_bytes, delta_rows)
used = pages("after") - pages("before")
a = lat["from_202_ms"]
tp = d["throughput"]
person = [x["per_second"] for x in tp if x["target"] == "person"]
botr = [x["per_second"] for x in tp if x["target"] == "bot"]
ratio = (sum(person) / len(person)) / (sum(botr) / len(botr)) if person and botr and sum(botr) else 0
for l in lats:
    a_, w, r = l["from_202_ms"], l["from_write_ms"], l["read_from_202_ms"]
    print(f"LAT_ROW=| {l['rate']:,.0f} | {l['messages']:,} | {l['delivered']:,} | {l['post_statuses']} | {l['send_span_s']} | {a_['p50']} | {a_['p90']} | {a_['p99']} | {a_['max']} | {l['frame_before_202']:,} | {w['p50']} | {w['p99']} | {r['p99']} | {l['answer_ms']['p50']} / {l['answer_ms']['p99']} | {l.get('server_cpu_s','n/a')} | {l.get('server_cpu_us_per_message','n/a')} | {l['client_cpu_s']} |")
for x in tp:
    extra = f"{x.get('all_delivered','')}" + (f", last frame {x['last_frame_after_start_s']} s after start" if 'last_frame_after_start_s' in x else "")
    cpu = x.get("server_cpu_s")
    us = round(cpu / max(1, x["accepted_in_window"]) * 1e6) if cpu is not None else "n/a"
    print(f"TP_ROW=| {x['target']} | {x['seconds']} | {x['posts']:,} | {x['statuses']} | {x['per_second']:,.0f} | {cpu} | {us} | {extra or '—'} |")
print(f"RATIO={ratio:.2f}")
if os.path.exists(f"{run}/cluster.json"):
    for l in json.load(open(f"{run}/cluster.json"))["latency"]:
        a_, w, r = l["from_202_ms"], l["from_write_ms"], l["read_from_202_ms"]
        print(f"CLUSTER_ROW=| {l['rate']:,.0f} | {l['messages']:,} | {l['delivered']:,} | {l['post_statuses']} | {l['send_span_s']} | {a_['p50']} | {a_['p90']} | {a_['p99']} | {a_['max']} | {l['frame_before_202']:,} | {w['p50']} | {w['p99']} | {r['p99']} | {l['answer_ms']['p50']} / {l['answer_ms']['p99']} | {l['client_cpu_s']} |")
print(f"PERSON={sum(person)/max(1,len(person)):,.0f}")
print(f"BOT={sum(botr)/max(1,len(botr)):,.0f}")
for (table, role), (b, rows_) in sorted(per.items()):
    print(f"DISK_ROW=| {table} | {role} | {rows_:,} | {b:,} | {b/max(1,n):,.0f} |")
print(f"USED={used:,}")
print(f"USED_PER={used/max(1,n):,.0f}")
print(f"P50={a['p50']}")
print(f"P99={a['p99']}")
print(f"N={n}")
print(f"NAME={d['name_of_b_example']}")
print(f"UNEXPECTED={'; '.join(d['unexpected']) or 'none'}")
reopened = d.get("streams_reopened", [])
print(f"REOPENED={len(reopened)}" + (f" ({'; '.join(reopened[:3])})" if reopened else ""))
PY
get() { grep "^$1=" "$RUN/figures.md" | sed "s/^$1=//"; }
PERF_NOTE="no profile (PERF=0)"
if [ -s "$RUN/perf-self.txt" ]; then
  PERF_NOTE="\`perf record -g -F 499\` of the server over the whole run (setup, both latency phases, all rounds);
self time by library: $(awk '{printf "%s%s %s", (NR>1?"; ":""), $2, $1}' "$RUN/perf-dso.txt" | head -c 500).
Functions with their callees (inclusive; threads, dispatch and closures left out: all in \`perf-children.txt\`):
\`\`\`
$(grep -v -E 'start_thread|SYSCALL|syscall|dispatch_|swift_job_run|runJob|thunk|partial apply|closure #|protocol witness|@objc' "$RUN/perf-children.txt" | sed -E 's/ +- +- *$//' | awk '!seen[substr($0, index($0, "[.]"))]++' | head -24)
\`\`\`
Largest self time:
\`\`\`
$(head -14 "$RUN/perf-self.txt")
\`\`\`"
fi

CLUSTER_SECTION="**Two nodes on PostgreSQL**: not measured (CLUSTER=0)."
if [ "$CLUSTER" = 1 ]; then
  if [ -n "$(get CLUSTER_ROW)" ]; then
    CLUSTER_SECTION="**Two nodes on PostgreSQL** (\`scripts/cluster.sh bench\`: PostgreSQL $(ls /usr/lib/postgresql | sort -V | tail -1) from a
temporary directory, three release nodes of which two are used; $CLUSTER_NOTE): the same pairs and rates, the A's
made on node1 and posting there, the B's made, redeeming and streamed on node2, so every message is committed on node1
and crosses to node2 (its owner) to be applied and framed. Server CPU is not split by node here.

| messages/s | messages | delivered | POST statuses | send span s | p50 ms | p90 | p99 | max | frames before their 202 | from write p50 | from write p99 | read p99 | 202 after write p50 / p99 ms | client CPU s |
|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|
$(get CLUSTER_ROW)"
  else
    CLUSTER_SECTION="**Two nodes on PostgreSQL**: the run failed; see \`cluster.log\` beside the raw outputs."
  fi
fi
SECTION="$RUN/section.md"
cat > "$SECTION" <<MD
## Deliveries between sessions (viewhost serve)

Made by \`$COMMAND\` on $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average before: $LOAD_BEFORE;
$QUIET_NOTE; CPU use over 5 s right after: ${BUSY_AFTER} %. One \`viewhost serve\` (release, SQLite, the default
store; \`--simulation-speed 100\`, no rate limits) and one \`delivery-bench\` (Benchmarks/Sources/delivery-bench) on
the same 2 cores: $PAIRS pairs of chat sessions, each made contacts by an invitation (A invites as "A<i>", B redeems
as "B<i>"; A's chat lists B as "$(get NAME)", the \`contact\` of A's sends). B's chat stream is open on every pair.
Raw outputs: \`Benchmarks/out/deliveries-$STAMP/\`.

**Latency**, $(echo $RATES | sed 's/ / then /') messages/s in all (round robin over the pairs, one keep-alive connection per
sender), $DURATION s each: from the kernel receive time (SO_TIMESTAMPNS) of A's \`202\` to the kernel receive time of the first
event on B's stream holding the message; "from write" counts from the POST's write instead, "read" when the client got
to the frame. Server CPU is utime+stime (/proc/PID/stat) from the first POST to the last frame, per message delivered.

| messages/s | messages | delivered | POST statuses | send span s | p50 ms | p90 | p99 | max | frames before their 202 | from write p50 | from write p99 | read p99 | 202 after write p50 / p99 ms | server CPU s | server CPU µs/message | client CPU s |
|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|
$(get LAT_ROW)

A frame can reach B's stream before A's 202 reaches A (the delivery and the answer race after the commit); those
count negative in the percentiles from the 202. Non-202 answers (first five): $(get UNEXPECTED). Streams the server
ended during the run (each opened again at once, its first snapshot then carrying what was sent meanwhile): $(get REOPENED).

**Throughput**, closed loop: $DEPTH POSTs in flight on each of the $PAIRS sender connections for $THROUGHPUT s a round,
alternately \`send\` to the person (B) and to the seeded bot ("John", whose replies come after the simulated delay
/ 100, so most fall inside the round that caused them). req/s = 202s answered within the round / its length; a person
round also waits for every message's frame on B's stream after it.

| target | s | POSTs | statuses | 202/s | server CPU s | server CPU µs per 202 | all delivered to B |
|---|---:|---:|---|---:|---:|---:|---|
$(get TP_ROW)

Person-to-person $(get PERSON) req/s against the bot's $(get BOT) req/s: **ratio $(get RATIO)**.

**Bytes on disk per delivery** ($(get N) messages of the first latency phase): journal and snapshot bytes per session from
\`SELECT session_id, count(*), sum(length(input)) FROM journal GROUP BY session_id\` (and \`length(core)\` from
\`snapshots\`), read with sqlite3 before and after the phase (while the server runs, WAL included), senders and
receivers apart; "pages in use" is (page_count − freelist_count) × page_size of the whole file, both sides and
indexes together.

| table | side | rows added | bytes added | bytes per delivery |
|---|---|---:|---:|---:|
$(get DISK_ROW)

Pages in use grew by $(get USED) bytes: **$(get USED_PER) bytes per delivery** in all.

Against issue 42's goals (at $(echo $RATES | cut -d' ' -f1) messages/s p50 ≤ 3 ms, p99 ≤ 20 ms from the 202; person throughput
≥ 0.5 × the bot's): p50 $(get P50) ms, p99 $(get P99) ms, ratio $(get RATIO).

$CLUSTER_SECTION

Where the server's time goes: $PERF_NOTE
MD
replace_section "$REPORT" "$SECTION"
cat "$SECTION"
