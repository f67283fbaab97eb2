#!/usr/bin/env bash
# Benchmarks/cluster.sh — issue 25's figures on the loopback cluster of scripts/cluster.sh (PostgreSQL, three nodes,
# nginx): what round robin costs against the consistent hash, how often ownership moves, and how long a change takes
# from a POST on one node to a stream held on another. Measurement harness, not product code. 127.0.0.1 only,
# bounded in time; every process is started and stopped by scripts/cluster.sh (by its pid).
#
#   VIEWHOST_BINARY=.build-bench/release/viewhost Benchmarks/cluster.sh     # else it builds the release binary
#   DURATION=8s ROUNDS=2 SESSIONS=64 STREAM_SESSIONS=20 STREAM_POSTS=25 Benchmarks/cluster.sh
#
# One cluster with two nginx in front of the same nodes (scripts/cluster.sh bench): Config/nginx.conf (hash) and
# Config/nginx-round-robin.conf. SESSIONS login sessions are made on the nodes in turn (so their owners are spread
# evenly, as behind either balancer), then:
# 1. the cross-node stream delay: Tests/Cluster/failover_test.py --streams-only (STREAM_SESSIONS sessions, each
#    streamed directly on node3 while STREAM_POSTS events each are posted directly on node1, one at a time), p50/p99
#    from sending the POST to the frame of its version on node3's stream;
# 2. ROUNDS interleaved rounds of, for hash then round robin, through that nginx:
#      wrk -t2 -c64 POST /v1/sessions/{id}/login/events {"type":"setUsername","value":"x"} (product_events.lua), then
#      wrk -t2 -c64 GET  /v1/sessions/{id}/login (the newest snapshot);
#    with the nodes' viewhost_cluster_takeovers_total and viewhost_cluster_forwarded_total (summed over the nodes)
#    read before and after each run: ownership moves and forwarded requests per 1,000 requests wrk made.
# The last lines are a markdown table.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
DURATION="${DURATION:-8s}"
ROUNDS="${ROUNDS:-2}"
SESSIONS="${SESSIONS:-64}"
STREAM_SESSIONS="${STREAM_SESSIONS:-20}"
STREAM_POSTS="${STREAM_POSTS:-25}"

if [ -z "${CLUSTER_URL_HASH:-}" ]; then
    # Outside the cluster: wrk when missing, the binary, then this script again inside scripts/cluster.sh bench.
    script_name=cluster.sh
    # shellcheck source=scripts/setup.sh
    source scripts/setup.sh
    install_missing_packages wrk
    if [ -z "${VIEWHOST_BINARY:-}" ]; then
        require_swift
        swift build -c release --product viewhost >&2
        VIEWHOST_BINARY="$(swift build -c release --show-bin-path)/viewhost"
    fi
    export VIEWHOST_BINARY DURATION ROUNDS SESSIONS STREAM_SESSIONS STREAM_POSTS
    exec scripts/cluster.sh bench "$PWD/Benchmarks/cluster.sh"
fi

# Inside scripts/cluster.sh bench: CLUSTER_URL_HASH, CLUSTER_URL_ROUND_ROBIN, CLUSTER_NODE_URLS, CLUSTER_NODE_NAMES,
# CLUSTER_WORK are set.
work="$CLUSTER_WORK/bench"
mkdir -p "$work"
IFS=, read -r -a node_urls <<<"$CLUSTER_NODE_URLS"

for index in $(seq 0 $((SESSIONS - 1))); do
    curl -fs -X POST "${node_urls[$((index % ${#node_urls[@]}))]}/v1/sessions" -H 'Content-Type: application/json' \
        -d '{"features":["login"]}' | python3 -c 'import json,sys; a=json.load(sys.stdin); print(a["id"], a["token"])'
done >"$work/sessions"


# metric NAME: its samples summed over every node (a node without it counts 0; "n/a" when none has it).
metric() {
    local url total="" value
    for url in "${node_urls[@]}"; do
        value="$(curl -fs "$url/metrics" | awk -v name="$1" '$1 == name || index($1, name "{") == 1 { sum += $2; found = 1 }
            END { if (found) printf "%d", sum }')" || true
        [ -n "$value" ] && total=$(( ${total:-0} + value ))
    done
    echo "${total:-n/a}"
}
rps() { awk '/Requests\/sec/ {print $2}' "$1"; }
requests_made() { awk '/requests in/ {print $1}' "$1"; }
errors() { grep -hE "Non-2xx|Socket errors" "$@" | tr -s ' ' | paste -sd ';' - || true; }

echo "cluster benchmark: $(date -u +%FT%TZ), $(nproc) cores, binary $VIEWHOST_BINARY, $DURATION per run, $ROUNDS rounds, $SESSIONS sessions, wrk -t2 -c64"

# 1. The cross-node stream delay, on the quiet cluster.
python3 Tests/Cluster/failover_test.py --streams-only --url "$CLUSTER_URL_HASH" --database-url "$CLUSTER_DATABASE_URL" --node-urls "$CLUSTER_NODE_URLS" \
    --node-names "$CLUSTER_NODE_NAMES" --stream-sessions "$STREAM_SESSIONS" --stream-posts "$STREAM_POSTS" \
    | tee "$work/streams.txt" || true  # a failed check is reported in the table's last line, the rounds still run
stream_line="$(grep -E '^failover_test: (ok|FAILED)' "$work/streams.txt" | sed 's/^failover_test: //')"

# 2. Interleaved rounds.
declare -A post_rps get_rps moves requests forwarded notes
for balancer in hash round-robin; do
    post_rps[$balancer]="" get_rps[$balancer]="" moves[$balancer]=0 requests[$balancer]=0 forwarded[$balancer]=0 notes[$balancer]=""
done
metrics_known=1
for round in $(seq "$ROUNDS"); do
    for balancer in hash round-robin; do
        url="$CLUSTER_URL_HASH"
        [ "$balancer" = round-robin ] && url="$CLUSTER_URL_ROUND_ROBIN"
        moves_before="$(metric viewhost_cluster_takeovers_total)"
        forwarded_before="$(metric viewhost_cluster_forwarded_total)"
        post="$work/post-$balancer-$round.txt" get="$work/get-$balancer-$round.txt"
        VH_SESSIONS="$work/sessions" VH_FEATURE=login VH_BODY='{"type":"setUsername","value":"x"}' \
            wrk -t2 -c64 -d"$DURATION" --latency -s Benchmarks/product_events.lua "$url" >"$post"
        VH_SESSIONS="$work/sessions" wrk -t2 -c64 -d"$DURATION" --latency -s Benchmarks/snapshot_get.lua "$url" >"$get"
        moves_after="$(metric viewhost_cluster_takeovers_total)"
        forwarded_after="$(metric viewhost_cluster_forwarded_total)"
        made=$(( $(requests_made "$post") + $(requests_made "$get") ))
        if [ "$moves_before" = n/a ] || [ "$moves_after" = n/a ] || [ "$forwarded_before" = n/a ] || [ "$forwarded_after" = n/a ]; then
            metrics_known=0
            moved=n/a forwards=n/a
        else
            moved=$(( moves_after - moves_before )) forwards=$(( forwarded_after - forwarded_before ))
            moves[$balancer]=$(( ${moves[$balancer]} + moved ))
            forwarded[$balancer]=$(( ${forwarded[$balancer]} + forwards ))
        fi
        requests[$balancer]=$(( ${requests[$balancer]} + made ))
        post_rps[$balancer]+="$(rps "$post") " get_rps[$balancer]+="$(rps "$get") "
        error_text="$(errors "$post" "$get")"
        [ -n "$error_text" ] && notes[$balancer]+="round $round: $error_text. "
        echo "round $round $balancer: POST $(rps "$post")/s, GET $(rps "$get")/s, $made requests, $moved ownership moves, $forwards forwarded${error_text:+ ($error_text)}"
    done
done

mean() { python3 -c 'import sys; v=[float(x) for x in sys.argv[1:]]; print("%.0f" % (sum(v) / len(v)))' "$@"; }
commas() { python3 -c 'import sys; print("{:,}".format(round(float(sys.argv[1]))))' "$1"; }
rounds_list() { python3 -c 'import sys; print(" ".join("{:,}".format(round(float(x))) for x in sys.argv[1:]))' "$@"; }
# per_thousand COUNT REQUESTS [detail]: COUNT per 1,000 REQUESTS, with "(COUNT in REQUESTS)" when detail is given;
# n/a when the nodes have no such metrics.
per_thousand() {
    [ "$metrics_known" = 1 ] || { echo "n/a"; return; }
    python3 -c 'import sys; print("%.2f" % (1000.0 * int(sys.argv[1]) / max(1, int(sys.argv[2]))) + (" (%s in %s)" % (sys.argv[1], sys.argv[2]) if len(sys.argv) > 3 else ""))' "$@"
}

# shellcheck disable=SC2086  # the rounds' figures, one word each
{
    hash_post="$(mean ${post_rps[hash]})" hash_get="$(mean ${get_rps[hash]})"
    rr_post="$(mean ${post_rps[round-robin]})" rr_get="$(mean ${get_rps[round-robin]})"
    post_ratio="$(python3 -c 'import sys; print("%.2f" % (float(sys.argv[1]) / float(sys.argv[2])))' "$rr_post" "$hash_post")"
    get_ratio="$(python3 -c 'import sys; print("%.2f" % (float(sys.argv[1]) / float(sys.argv[2])))' "$rr_get" "$hash_get")"
    echo
    echo "| balancer | POST login setUsername req/s [rounds] | GET snapshot req/s [rounds] | ownership moves per 1,000 requests | forwarded per 1,000 requests |"
    echo "|---|---|---|---|---|"
    echo "| hash (Config/nginx.conf) | $(commas "$hash_post") [$(rounds_list ${post_rps[hash]})] | $(commas "$hash_get") [$(rounds_list ${get_rps[hash]})] | $(per_thousand "${moves[hash]}" "${requests[hash]}" detail) | $(per_thousand "${forwarded[hash]}" "${requests[hash]}") |"
    echo "| round robin (Config/nginx-round-robin.conf) | $(commas "$rr_post") [$(rounds_list ${post_rps[round-robin]})] = **${post_ratio}×** hash (goal 0.7×) | $(commas "$rr_get") [$(rounds_list ${get_rps[round-robin]})] = **${get_ratio}×** hash (goal 0.7×) | **$(per_thousand "${moves[round-robin]}" "${requests[round-robin]}" detail)** (goal ≤ 1) | $(per_thousand "${forwarded[round-robin]}" "${requests[round-robin]}") |"
    echo
    echo "Cross-node stream (POST on node1 to the frame on node3's stream, one event at a time; goal p99 ≤ 50 ms): $stream_line"
    for balancer in hash round-robin; do
        [ -n "${notes[$balancer]}" ] && echo "wrk errors behind $balancer: ${notes[$balancer]}"
    done
}
