#!/usr/bin/env bash
# The source files one chat `send` runs through on a warmed server with the default SQLite store, counted by the
# machine, not by hand: a coverage build (llvm-cov, which ships with the toolchain) runs the same script three times,
# twice without sends and once with SENDS of them (5), and a line counts when the run with the sends executed it at
# least SENDS times more often than both runs without (and those two agree on it). So a line that runs for every send
# counts, and background loops (timers, the store's checks), which run a few times more or less from run to run, do
# not; the sends' own timers (the chat's "sent" after 1.5 s) have not fired when the server stops.
#
#   scripts/path-count.sh            # prints each file with its lines on the path, then "N files in M targets"
#   KEEP=1 scripts/path-count.sh     # keeps the work directory (profiles, lcov) and says where
#
# Builds `viewhost` with --enable-code-coverage into .build-coverage (git-ignored; a first build takes minutes).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v swift >/dev/null && [ -x /opt/swift/usr/bin/swift ]; then PATH="/opt/swift/usr/bin:$PATH"; fi

scratch=.build-coverage
swift build --scratch-path "$scratch" --enable-code-coverage --product viewhost >&2
binary="$(swift build --scratch-path "$scratch" --show-bin-path)/viewhost"
work="$(mktemp -d -t viewhost-path-count.XXXXXX)"
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT

# run NAME SENDS: one server on SQLite, warmed (a session made, its chat's list loaded, a chat opened, a message sent
# and read back), then SENDS more chat `send`s, each answered 202; then a clean stop (the profile is written at exit).
# Every run waits the same fixed times, so periodic work runs about as often in each.
run() {
    local name=$1 send=$2
    local data="$work/$name-data"
    LLVM_PROFILE_FILE="$work/$name.profraw" "$binary" serve --port 0 --data-dir "$data" --log-level error \
        >"$work/$name.out" 2>"$work/$name.err" &
    local pid=$!
    local base=""
    for _ in $(seq 1 200); do
        base="$(sed -n 's/^viewhost listening on \(http:[^ ]*\).*/\1/p' "$work/$name.out" | head -1)"
        [ -n "$base" ] && break
        sleep 0.05
    done
    [ -n "$base" ] || { echo "path-count.sh: the server did not start: $(cat "$work/$name.err")" >&2; kill "$pid"; exit 1; }
    python3 - "$base" "$send" <<'EOF'
import json, sys, time, urllib.request
base, sends = sys.argv[1], int(sys.argv[2])
def request(method, path, body=None, token=None):
    req = urllib.request.Request(base + path, data=body.encode() if body else None, method=method)
    if body:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req, timeout=30) as response:
        return response.status, response.read()
_, created = request("POST", "/v1/sessions", '{"features":["chat"]}')
session = json.loads(created)
events = f"/v1/sessions/{session['id']}/chat/events"
time.sleep(1.0)  # the chat's list loads (0.5 s)
request("POST", events, '{"type":"openChat","contact":"John"}', session["token"])
request("POST", events, '{"type":"send","text":"warming up"}', session["token"])
request("GET", f"/v1/sessions/{session['id']}/chat", token=session["token"])
time.sleep(2.0)  # the warming message's "sent" timer fires (1.5 s)
for _ in range(sends):
    status, _ = request("POST", events, '{"type":"send","text":"hi"}', session["token"])
    assert status == 202, status
time.sleep(0.5)
EOF
    kill -TERM "$pid"
    wait "$pid" || true
    swift_bin="$(dirname "$(command -v swift)")"
    "$swift_bin/llvm-profdata" merge -sparse "$work/$name.profraw" -o "$work/$name.profdata"
    "$swift_bin/llvm-cov" export -format=lcov -instr-profile "$work/$name.profdata" "$binary" >"$work/$name.lcov"
}

sends=5
run base1 0
run base2 0
run send "$sends"

python3 - "$work" "$PWD" "$sends" <<'EOF'
import collections, os, sys
work, root, sends = sys.argv[1], sys.argv[2], int(sys.argv[3])
def counts(name):
    lines, current = {}, None
    for line in open(os.path.join(work, name + ".lcov")):
        if line.startswith("SF:"):
            current = line[3:].strip()
        elif line.startswith("DA:") and current:
            number, count = line[3:].strip().split(",")[:2]
            lines[(current, int(number))] = int(count)
    return lines
base1, base2, send = counts("base1"), counts("base2"), counts("send")
files = collections.defaultdict(int)
for key, count in send.items():
    before = base1.get(key, 0)
    if before == base2.get(key, 0) and count >= before + sends and key[0].startswith(os.path.join(root, "Sources")):
        files[key[0]] += 1
targets = set()
for path in sorted(files):
    relative = os.path.relpath(path, root)
    targets.add(relative.split("/")[1])
    print(f"{files[path]:5d}  {relative}")
print(f"{len(files)} files in {len(targets)} targets: {', '.join(sorted(targets))}")
EOF
[ "${KEEP:-0}" = 1 ] && echo "path-count.sh: kept $work" >&2
exit 0
