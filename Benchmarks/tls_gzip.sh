#!/usr/bin/env bash
# Benchmarks/tls_gzip.sh — HTTPS and gzip of the real product (`viewhost serve`), in one run; writes the section
# "## TLS and gzip (viewhost serve)" of BENCHMARKS.md (replaces that section, keeps the rest).
# Measurement harness, not product code. Loads target 127.0.0.1 only and are bounded in time.
#
# Usage: Benchmarks/tls_gzip.sh        (from anywhere; about 2 min after the build)
#
# 1. Installs what is missing (wrk curl openssl python3) with apt-get; builds
#    swift build -c release --product viewhost --scratch-path <repo>/.build-bench  (SKIP_BUILD=1 skips it).
# 2. Makes a throwaway EC P-256 certificate (openssl req) in the run folder.
# 3. One server at a time (so they never share the 2 cores), each with a session whose chat has 12 messages:
#    a. plain `viewhost serve`: wrk -t2 -c64 -dDURATION on GET /v1/sessions/{id}/chat (Bearer), without and
#       with `Accept-Encoding: gzip`; the snapshot's size plain and gzipped (curl).
#    b. `viewhost serve --tls-cert --tls-key`: the same GET over HTTPS keep-alive (wrk); then new handshakes per
#       second with `openssl s_time -new` (full) and `-reuse` (resumed), TLS 1.3 and TLS 1.2, S_TIME seconds each.
# Environment (defaults): DURATION=10s THREADS=2 CONNS=64 S_TIME=5 PORT=18480 SKIP_BUILD=0 REPORT=<repo>/BENCHMARKS.md
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
RUN="$REPO/Benchmarks/out/tls-gzip-$STAMP"
REPORT="${REPORT:-$REPO/BENCHMARKS.md}"
DURATION="${DURATION:-10s}" THREADS="${THREADS:-2}" CONNS="${CONNS:-64}" S_TIME="${S_TIME:-5}" PORT="${PORT:-18480}"
mkdir -p "$RUN"
PIDS=()
cleanup() { for pid in "${PIDS[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT

say() { echo "tls_gzip.sh: $*" >&2; }
logged() { "$@"; }
# shellcheck source=Benchmarks/lib.sh
source "$REPO/Benchmarks/lib.sh"
install_missing_commands wrk:wrk curl:curl openssl:openssl python3:python3
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  swift build -c release --product viewhost --scratch-path "$REPO/.build-bench" > "$RUN/build.log" 2>&1
fi
BIN="$REPO/.build-bench/release/viewhost"

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=localhost -days 1 \
  -keyout "$RUN/key.pem" -out "$RUN/cert.pem" 2>/dev/null

start() {  # start [extra flags...]; sets PID and SCHEME
  (cd "$RUN" && exec "$BIN" serve --port "$PORT" --log-level error "$@") > "$RUN/server.out" 2> "$RUN/server.err" &
  PID=$!; PIDS+=("$PID")
  for _ in $(seq 100); do grep -q "listening" "$RUN/server.out" 2>/dev/null && break; sleep 0.05; done
  SCHEME=$(grep -o 'https\?' "$RUN/server.out" | head -1)
}
stop() { kill "$PID"; wait "$PID" 2>/dev/null || true; }
session() {  # prints "id token" of a session whose chat holds 12 messages
  local base="$SCHEME://127.0.0.1:$PORT" answer id token
  answer=$(curl -sk -X POST "$base/v1/sessions" -H 'Content-Type: application/json' -d '{"features":["chat"]}')
  id=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])' <<<"$answer")
  token=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])' <<<"$answer")
  sleep 0.7  # John's chat arrives after 0.5 s
  curl -sk -o /dev/null -X POST "$base/v1/sessions/$id/chat/events" -H "Authorization: Bearer $token" \
    -H 'Content-Type: application/json' -d '{"type":"openChat","contact":"John"}'
  for n in $(seq 11); do
    curl -sk -o /dev/null -X POST "$base/v1/sessions/$id/chat/events" -H "Authorization: Bearer $token" \
      -H 'Content-Type: application/json' -d "{\"type\":\"send\",\"text\":\"Message number $n of the benchmark conversation\"}"
  done
  sleep 2
  echo "$id $token"
}
wrk_rps() {  # wrk_rps NAME URL [header...]
  local name=$1 url=$2; shift 2
  local args=()
  for header in "$@"; do args+=(-H "$header"); done
  wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency "${args[@]}" "$url" > "$RUN/wrk-$name.txt"
  python3 - "$RUN/wrk-$name.txt" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", text)
scale = {"us": 0.001, "ms": 1, "s": 1000}[p99.group(2)]
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
print(f"{rps:.0f} {float(p99.group(1)) * scale:.2f} {errors.group(1) if errors else 0}")
PY
}

# a. plain HTTP, gzip off and on
start --simulation-speed 100
read -r ID TOKEN < <(session)
URL="http://127.0.0.1:$PORT/v1/sessions/$ID/chat"
PLAIN_BYTES=$(curl -s "$URL" -H "Authorization: Bearer $TOKEN" | wc -c)
GZIP_BYTES=$(curl -s "$URL" -H "Authorization: Bearer $TOKEN" -H 'Accept-Encoding: gzip' | wc -c)
read -r HTTP_RPS HTTP_P99 HTTP_ERR < <(wrk_rps http "$URL" "Authorization: Bearer $TOKEN")
read -r GZ_RPS GZ_P99 GZ_ERR < <(wrk_rps http-gzip "$URL" "Authorization: Bearer $TOKEN" "Accept-Encoding: gzip")
stop

# b. HTTPS
start --simulation-speed 100 --tls-cert "$RUN/cert.pem" --tls-key "$RUN/key.pem"
read -r ID TOKEN < <(session)
URL="https://127.0.0.1:$PORT/v1/sessions/$ID/chat"
read -r TLS_RPS TLS_P99 TLS_ERR < <(wrk_rps https "$URL" "Authorization: Bearer $TOKEN")
s_time() {  # s_time NAME FLAGS...; prints connections per second
  local name=$1; shift
  # -www: each connection also fetches /healthz, so TLS 1.3 tickets (sent after the handshake) reach the client
  # and -reuse really resumes; without a request, s_time's TLS 1.3 "resumed" runs are full handshakes.
  openssl s_time -connect "127.0.0.1:$PORT" -time "$S_TIME" -www /healthz "$@" > "$RUN/s_time-$name.txt" 2>&1 || true
  grep -oE '[0-9]+ connections in [0-9.]+ real seconds' "$RUN/s_time-$name.txt" | tail -1 \
    | awk '{ printf "%.0f\n", $1 / $4 }'
}
FULL13=$(s_time full-tls13 -new -tls1_3); RESUMED13=$(s_time resumed-tls13 -reuse -tls1_3)
FULL12=$(s_time full-tls12 -new -tls1_2); RESUMED12=$(s_time resumed-tls12 -reuse -tls1_2)
stop

RATIO=$(python3 -c "print(f'{$TLS_RPS / $HTTP_RPS:.2f}')")
GZ_RATIO=$(python3 -c "print(f'{$GZ_RPS / $HTTP_RPS:.2f}')")
SAVED=$(python3 -c "print(f'{100 * (1 - $GZIP_BYTES / $PLAIN_BYTES):.0f}')")
MET=$(python3 -c "print('met' if $TLS_RPS >= 0.7 * $HTTP_RPS else 'not met')")
SECTION="$RUN/section.md"
cat > "$SECTION" <<MD
## TLS and gzip (viewhost serve)

Made by \`Benchmarks/tls_gzip.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)),
load average before the run: $(cut -d' ' -f1-3 /proc/loadavg). One server at a time, release build, default two event
loops, OpenSSL $(openssl version | cut -d' ' -f2), EC P-256 certificate. Load: \`wrk -t$THREADS -c$CONNS -d$DURATION\` on
\`GET /v1/sessions/{id}/chat\` (a chat with 12 messages, ${PLAIN_BYTES} bytes of JSON). Raw outputs: \`Benchmarks/out/tls-gzip-$STAMP/\`.

| run | req/s | p99 ms | non-2xx | ratio to plain HTTP |
|---|---:|---:|---:|---:|
| HTTP, identity | $HTTP_RPS | $HTTP_P99 | $HTTP_ERR | 1.00 |
| HTTP, \`Accept-Encoding: gzip\` | $GZ_RPS | $GZ_P99 | $GZ_ERR | $GZ_RATIO |
| HTTPS keep-alive (TLS 1.3) | $TLS_RPS | $TLS_P99 | $TLS_ERR | $RATIO |

- Goal HTTPS ≥ 0.7× plain HTTP req/s: **$MET** ($RATIO×).
- gzip: the snapshot is $PLAIN_BYTES bytes plain, $GZIP_BYTES gzipped ($SAVED % saved); the gzip is made once per version and
  served from the cache, so gzip on costs $GZ_RATIO× the plain req/s.
- New TLS connections per second (\`openssl s_time -time $S_TIME -www /healthz\`, one client process, each
  connection a handshake plus one request; s_time itself uses one of the two cores):
  TLS 1.3 full $FULL13/s, resumed $RESUMED13/s; TLS 1.2 full $FULL12/s, resumed $RESUMED12/s.
MD
replace_section "$REPORT" "$SECTION"
cat "$SECTION"
