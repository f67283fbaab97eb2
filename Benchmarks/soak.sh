#!/usr/bin/env bash
# Benchmarks/soak.sh — a soak test of the real product (`viewhost serve`, release build): bounded-rate churn on
# loopback for SOAK_SECONDS (default 10 minutes), sampling each server's RSS and open file descriptors from /proc.
# Writes the section "## Soak (viewhost serve)" of BENCHMARKS.md when it ran the full 10 minutes (replaces that
# section, keeps the rest). Measurement harness, not product code.
#
# Usage: Benchmarks/soak.sh                       (from anywhere; 10 min + warm-up tail + build)
#        SOAK_SECONDS=60 WARMUP_SECONDS=15 Benchmarks/soak.sh       (a short run; the report is not touched)
#
# 1. Builds `swift build -c release --product viewhost --scratch-path <repo>/.build-bench` (SKIP_BUILD=1 skips it)
#    and makes a throwaway EC P-256 certificate.
# 2. Starts two servers, `--store memory`, sessions idle-expiring after TTL seconds: plain HTTP, and HTTPS.
# 3. Runs Benchmarks/soak_client.py, which churns at fixed rates (per second): 20 connections opened and closed
#    (half with a request), 10 keep-alive connections of 4 requests, 10 pipelined bursts of 2–8 requests,
#    5 session lives (create, 4 events, a snapshot, then DELETE or left to expire), 5 event streams opened and
#    dropped after 1–300 bytes (mid-frame; half by reset), 5 TLS requests, 2 abandoned TLS handshakes, 1 slow
#    reader (4 KiB receive buffer, 512 B every 50 ms).
# 4. Samples both servers every 10 s (Benchmarks/out/soak-*/samples.csv). Pass when, for each server:
#    * RSS at the end of the churn is within 5 % of RSS after the warm-up (WARMUP_SECONDS into the churn);
#    * open fds, once the churn stopped and the sessions expired (TTL + 20 s later), are back to the baseline
#      measured before the churn started;
#    * the client saw no error the churn did not provoke, and the servers are still alive.
# Environment (defaults): SOAK_SECONDS=600 WARMUP_SECONDS=60 TTL=30 PORT=18580 (and PORT+1) SKIP_BUILD=0
#   VIEWHOST_BIN=<the release binary> (another build of viewhost, e.g. to try the script itself)
#   REPORT=<repo>/BENCHMARKS.md
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
RUN="$REPO/Benchmarks/out/soak-$STAMP"
REPORT="${REPORT:-$REPO/BENCHMARKS.md}"
SOAK_SECONDS="${SOAK_SECONDS:-600}" WARMUP_SECONDS="${WARMUP_SECONDS:-60}" TTL="${TTL:-30}" PORT="${PORT:-18580}"
mkdir -p "$RUN"
PIDS=()
cleanup() { for pid in "${PIDS[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT

say() { echo "soak.sh: $*" >&2; }
logged() { "$@"; }
# shellcheck source=Benchmarks/lib.sh
source "$REPO/Benchmarks/lib.sh"
install_missing_commands openssl:openssl python3:python3
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  say "building (release)"
  swift build -c release --product viewhost --scratch-path "$REPO/.build-bench" > "$RUN/build.log" 2>&1
fi
BIN="${VIEWHOST_BIN:-$REPO/.build-bench/release/viewhost}"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=localhost -days 1 \
  -keyout "$RUN/key.pem" -out "$RUN/cert.pem" 2>/dev/null

start() {  # start NAME PORT [extra flags...]; prints the pid
  local name=$1 port=$2
  shift 2
  (cd "$RUN" && VIEWHOST_SESSIONS_IDLE_TTL_SECONDS="$TTL" exec "$BIN" serve --port "$port" --store memory \
    --log-level warning --simulation-speed 10 "$@") > "$RUN/$name.out" 2> "$RUN/$name.err" &
  local pid=$!
  for _ in $(seq 1200); do grep -q "listening" "$RUN/$name.out" 2>/dev/null && break; sleep 0.05; done
  grep -q "listening" "$RUN/$name.out" || { say "$name did not start: $(cat "$RUN/$name.err")"; exit 1; }
  echo "$pid"
}
PLAIN=$(start plain "$PORT")
PIDS+=("$PLAIN")
TLS=$(start tls $((PORT + 1)) --tls-cert "$RUN/cert.pem" --tls-key "$RUN/key.pem")
PIDS+=("$TLS")

rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }  # KiB
fds() { find "/proc/$1/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l; }
sample() {  # sample LABEL: one line per server into samples.csv
  local now=$((SECONDS - started))
  for pair in "plain:$PLAIN" "tls:$TLS"; do
    echo "$now,$1,${pair%%:*},$(rss "${pair#*:}"),$(fds "${pair#*:}")" >> "$RUN/samples.csv"
  done
}
value() { awk -F, -v label="$1" -v server="$2" -v column="$3" '$2 == label && $3 == server { v = $column } END { print v }' "$RUN/samples.csv"; }

echo "seconds,label,server,rss_kib,fds" > "$RUN/samples.csv"
started=$SECONDS
sleep 1
sample baseline
say "churning for ${SOAK_SECONDS}s (warm-up ${WARMUP_SECONDS}s); samples in $RUN/samples.csv"
python3 "$REPO/Benchmarks/soak_client.py" --plain "http://127.0.0.1:$PORT" --tls "https://127.0.0.1:$((PORT + 1))" \
  --seconds "$SOAK_SECONDS" --report "$RUN/client.json" > "$RUN/client.out" 2> "$RUN/client.err" &
CLIENT=$!
PIDS+=("$CLIENT")
sleep "$WARMUP_SECONDS"
sample warm
while kill -0 "$CLIENT" 2>/dev/null; do
  sleep 10
  kill -0 "$CLIENT" 2>/dev/null && sample churn
done
sample end-of-churn
client_status=0
wait "$CLIENT" || client_status=$?
say "churn over; waiting $((TTL + 20))s for connections to close and sessions to expire"
sleep $((TTL + 20))
sample settled

verdict=PASS
reasons=()
for server in plain tls; do
  pid=$PLAIN; [ "$server" = tls ] && pid=$TLS
  kill -0 "$pid" 2>/dev/null || { verdict=FAIL; reasons+=("$server died"); continue; }
  warm=$(value warm "$server" 4) end=$(value end-of-churn "$server" 4)
  drift=$(awk -v w="$warm" -v e="$end" 'BEGIN { printf "%.1f", 100 * (e - w) / w }')
  awk -v d="$drift" 'BEGIN { exit !(d <= 5 && d >= -5) }' || { verdict=FAIL; reasons+=("$server RSS drift ${drift} %"); }
  base_fds=$(value baseline "$server" 5) settled_fds=$(value settled "$server" 5)
  (( settled_fds <= base_fds )) || { verdict=FAIL; reasons+=("$server fds $settled_fds > baseline $base_fds"); }
done
client_errors=$(python3 -c 'import json,sys; print(sum(json.load(open(sys.argv[1]))["errors"].values()))' "$RUN/client.json" 2>/dev/null || echo "?")
[ "$client_errors" = 0 ] && [ "$client_status" = 0 ] || { verdict=FAIL; reasons+=("client errors: $client_errors (status $client_status)"); }

section="$RUN/section.md"
{
  echo "## Soak (viewhost serve)"
  echo
  echo "\`Benchmarks/soak.sh\` (SOAK_SECONDS=$SOAK_SECONDS WARMUP_SECONDS=$WARMUP_SECONDS TTL=$TTL), run $STAMP on this"
  echo "machine ($(nproc) cores, shared). Two release servers (\`--store memory\`, sessions expiring after ${TTL} s idle):"
  echo "plain HTTP and HTTPS. Churn as described in the script's header. Verdict: **$verdict**${reasons:+ (${reasons[*]})}."
  echo
  echo "| server | RSS baseline | RSS after warm-up | RSS end of churn | drift | RSS settled | fds baseline | fds end of churn | fds settled |"
  echo "|---|---|---|---|---|---|---|---|---|"
  for server in plain tls; do
    warm=$(value warm "$server" 4) end=$(value end-of-churn "$server" 4)
    drift=$(awk -v w="$warm" -v e="$end" 'BEGIN { printf "%+.1f %%", 100 * (e - w) / w }')
    echo "| $server | $(value baseline "$server" 4) KiB | $warm KiB | $end KiB | $drift | $(value settled "$server" 4) KiB" \
      "| $(value baseline "$server" 5) | $(value end-of-churn "$server" 5) | $(value settled "$server" 5) |"
  done
  echo
  echo "Client (operations done / unprovoked errors):"
  echo
  echo '```'
  cat "$RUN/client.out"
  echo '```'
} > "$section"
cat "$section"
if [ "$SOAK_SECONDS" -ge 600 ]; then
  replace_section "$REPORT" "$section"
  say "wrote the section to $REPORT"
fi
[ "$verdict" = PASS ]
