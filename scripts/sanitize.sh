#!/usr/bin/env bash
# Run the test suite under a sanitizer, in its own scratch path so it never shares (or waits on) the plain build.
#
#   scripts/sanitize.sh address            # AddressSanitizer, whole suite   (scratch .build-asan)
#   scripts/sanitize.sh thread             # ThreadSanitizer, whole suite    (scratch .build-tsan)
#   scripts/sanitize.sh thread 'HTTPCoreTests|ViewHostTests.Stream'   # only the suites matching a --filter
#
# Environment: SKIP_BUILD=1 (test what is already built), SANITIZE_ARGS (extra `swift test` flags).
# Exits with swift test's status; a sanitizer report fails the run (halt_on_error), and the report is in the log.
set -euo pipefail

kind="${1:-}"
filter="${2:-}"
case "$kind" in
    address) scratch=.build-asan ;;
    thread) scratch=.build-tsan ;;
    *)
        echo "usage: scripts/sanitize.sh address|thread [filter]" >&2
        exit 64
        ;;
esac

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Swift's own crash handler races the sanitizer's report; the sanitizer's report is the one wanted.
export SWIFT_BACKTRACE=enable=no
# A report is a failure, not a warning; the suppressions file names known false positives outside our code.
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/scripts/tsan.supp ${TSAN_OPTIONS:-}"
# Tests' waits (for a server, a socket, a process) are bounds, not measurements; sanitized code is several times
# slower, and on 2 cores the suite's parallel tests then overran the 5 s bounds (TestSupport/TestDeadline.swift).
export VIEWHOST_TEST_TIMEOUT_SCALE="${VIEWHOST_TEST_TIMEOUT_SCALE:-10}"
# At most four tests per core at once, as scripts/test.sh runs them (it says why).
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-$(($(nproc) * 4))}"
# Which sanitizer runs, for the few tests its runtime cannot take part in (each says why).
export VIEWHOST_SANITIZER="$kind"
# Leak checking is off: the runtime's and Foundation's one-time caches are reported as leaks at exit.
export ASAN_OPTIONS="halt_on_error=1 detect_leaks=0 detect_stack_use_after_return=1 ${ASAN_OPTIONS:-}"

args=(--sanitize="$kind" --scratch-path "$scratch")
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    swift build --build-tests "${args[@]}"
fi
filter_args=()
[[ -n "$filter" ]] && filter_args=(--filter "$filter")
# shellcheck disable=SC2086  # SANITIZE_ARGS is a list of flags
exec swift test --skip-build "${args[@]}" "${filter_args[@]}" ${SANITIZE_ARGS:-}
