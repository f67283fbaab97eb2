#!/usr/bin/env bash
# Fuzz/run.sh — builds the libFuzzer targets (libFuzzer + AddressSanitizer) and runs each for a bounded time.
# Test harness, not product code. docs/FUZZING.md lists the targets, what each checks, and the long runs.
#
# Usage: Fuzz/run.sh [seconds-per-target] [target ...]     (default 30 s; every target; from anywhere)
#
#   Fuzz/run.sh 10                         # what scripts/test.sh runs: each target for 10 s
#   Fuzz/run.sh 600 JSONFuzzer             # one target, longer
#   FUZZ_ARGS='-runs=10000000' Fuzz/run.sh 0 GzipFuzzer    # a fixed number of executions (0 s: no time limit)
#   MERGE=1 Fuzz/run.sh 0 JSONFuzzer       # minimize: merge corpus-run/ into the committed corpus/ and stop
#
# * Builds with VIEWHOST_FUZZ=1, which makes Package.swift declare the fuzz targets, into its own scratch path
#   (.build-fuzz) so it never waits on the lock of the build used by tests:
#     VIEWHOST_FUZZ=1 swift build -c release --scratch-path .build-fuzz --product <Target> \
#       -Xswiftc -sanitize=fuzzer,address
# * Runs each on Fuzz/corpus-run/<Target>/ (new inputs land there; git-ignored, kept between runs) seeded from
#   Fuzz/corpus/<Target>/ (committed, minimized), with the target's dictionary. A crashing input is written to
#   Fuzz/crashes/<Target>/ (git-ignored).
# * Exits non-zero when a fuzzer found a crash (or a build failed). Reproduce one input with
#     .build-fuzz/release/<Target> Fuzz/crashes/<Target>/crash-<sha1>
#   and shrink it with -minimize_crash=1 -runs=10000 -exact_artifact_path=<out> <crash>.
#
# Environment: FUZZ_ARGS (extra libFuzzer flags), SKIP_BUILD=1 (use the binaries already built), MERGE=1.
set -euo pipefail

SECONDS_TO_RUN="${1:-30}"
shift || true
ALL_TARGETS=(HTTPParserFuzzer ChunkedBodyFuzzer JSONFuzzer GzipFuzzer EventDecodingFuzzer HeaderValuesFuzzer
    JournalImportFuzzer)
TARGETS=("$@")
[[ ${#TARGETS[@]} -eq 0 ]] && TARGETS=("${ALL_TARGETS[@]}")
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FUZZ="$REPO/Fuzz"

# The dictionary each target mutates with.
dictionary() {
    case "$1" in
        JSONFuzzer | EventDecodingFuzzer) echo "$FUZZ/json.dict" ;;
        JournalImportFuzzer) echo "$FUZZ/journal.dict" ;;
        GzipFuzzer) echo "" ;;
        *) echo "$FUZZ/http.dict" ;;
    esac
}

# Largest input: requests up to 4 KiB; gzip a little more, so members and trailers fit; an export of a few dozen
# inputs of every seed feature.
max_len() {
    case "$1" in
        GzipFuzzer) echo 8192 ;;
        JournalImportFuzzer) echo 32768 ;;
        *) echo 4096 ;;
    esac
}

cd "$REPO"
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    for target in "${TARGETS[@]}"; do
        VIEWHOST_FUZZ=1 swift build -c release --scratch-path .build-fuzz --product "$target" \
            -Xswiftc -sanitize=fuzzer,address
    done
fi

# Swift's own crash handler would race libFuzzer's and AddressSanitizer's reports (and trips ASan itself).
export SWIFT_BACKTRACE=enable=no
failed=()
for target in "${TARGETS[@]}"; do
    binary="$REPO/.build-fuzz/release/$target"
    run="$FUZZ/corpus-run/$target"
    seed="$FUZZ/corpus/$target"
    mkdir -p "$run" "$seed" "$FUZZ/crashes/$target"
    dict="$(dictionary "$target")"
    flags=(-max_len="$(max_len "$target")" -timeout=10 -rss_limit_mb=2048
        -artifact_prefix="$FUZZ/crashes/$target/" -print_final_stats=1)
    [[ -n "$dict" ]] && flags+=(-dict="$dict")
    status=0
    if [[ "${MERGE:-0}" == 1 ]]; then
        # Keeps in corpus/ only what adds coverage, from corpus/ and corpus-run/ together.
        merged="$(mktemp -d)"
        "$binary" -merge=1 "${flags[@]}" "$merged" "$seed" "$run" || status=$?
        if [[ "$status" == 0 ]]; then
            rm -f "$seed"/*
            cp "$merged"/* "$seed"/ 2>/dev/null || true
        fi
        rm -rf "$merged"
    else
        [[ "$SECONDS_TO_RUN" != 0 ]] && flags+=(-max_total_time="$SECONDS_TO_RUN")
        echo "Fuzz/run.sh: $target for ${SECONDS_TO_RUN}s"
        # The first directory receives new inputs; the seed corpus is only read.
        # shellcheck disable=SC2086  # FUZZ_ARGS is a list of flags
        "$binary" "$run" "$seed" "${flags[@]}" ${FUZZ_ARGS:-} || status=$?
    fi
    if [[ "$status" != 0 ]]; then
        echo "Fuzz/run.sh: $target stopped with status $status; crashing inputs are in Fuzz/crashes/$target/" >&2
        failed+=("$target")
    fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "Fuzz/run.sh: failed: ${failed[*]}" >&2
    exit 1
fi
