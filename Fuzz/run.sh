#!/usr/bin/env bash
# Fuzz/run.sh — builds the request-parser fuzzer (libFuzzer + AddressSanitizer) and runs it for a bounded time.
# Test harness, not product code.
#
# Usage: Fuzz/run.sh [seconds]          (default 30; from anywhere)
#
# * Builds with VIEWHOST_FUZZ=1, which makes Package.swift declare the HTTPParserFuzzer target, into its own
#   scratch path (.build-fuzz) so it never waits on the lock of the build used by tests:
#     VIEWHOST_FUZZ=1 swift build -c release --scratch-path .build-fuzz --product HTTPParserFuzzer \
#       -Xswiftc -sanitize=fuzzer,address
# * Runs it on Fuzz/corpus-run/ (new inputs land there; git-ignored, kept between runs) seeded from Fuzz/corpus/
#   (committed), with Fuzz/http.dict. A crashing input is written to Fuzz/crashes/ (git-ignored).
# * Exits non-zero when the fuzzer found a crash (or the build failed). Reproduce one input with
#     .build-fuzz/release/HTTPParserFuzzer Fuzz/crashes/crash-<sha1>
#   and shrink it with -minimize_crash=1 -runs=10000 -exact_artifact_path=<out> <crash>.
#
# Environment: FUZZ_ARGS (extra libFuzzer flags), SKIP_BUILD=1 (use the binary already built).
set -euo pipefail

SECONDS_TO_RUN="${1:-30}"
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FUZZ="$REPO/Fuzz"
BINARY="$REPO/.build-fuzz/release/HTTPParserFuzzer"

cd "$REPO"
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    VIEWHOST_FUZZ=1 swift build -c release --scratch-path .build-fuzz --product HTTPParserFuzzer \
        -Xswiftc -sanitize=fuzzer,address
fi

mkdir -p "$FUZZ/corpus-run" "$FUZZ/crashes"
# Swift's own crash handler would race libFuzzer's and AddressSanitizer's reports (and trips ASan itself).
export SWIFT_BACKTRACE=enable=no
# The first directory receives new inputs; the seed corpus is only read.
# shellcheck disable=SC2086  # FUZZ_ARGS is a list of flags
"$BINARY" "$FUZZ/corpus-run" "$FUZZ/corpus" \
    -dict="$FUZZ/http.dict" \
    -max_total_time="$SECONDS_TO_RUN" \
    -max_len=4096 \
    -timeout=10 \
    -rss_limit_mb=2048 \
    -artifact_prefix="$FUZZ/crashes/" \
    -print_final_stats=1 \
    ${FUZZ_ARGS:-} || status=$?
if [[ "${status:-0}" != 0 ]]; then
    echo "Fuzz/run.sh: the fuzzer stopped with status $status; crashing inputs are in Fuzz/crashes/" >&2
    exit "$status"
fi
