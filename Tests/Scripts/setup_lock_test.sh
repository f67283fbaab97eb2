#!/usr/bin/env bash
# scripts/setup.sh waits for another apt-get or dpkg to let go of the package locks, within a bound, and names what
# holds one when it never does (exit 75); a fresh machine's test command once failed in a second with apt-get's exit
# 100 while the machine's own first install ran. The locks here are copies in a temporary directory, held by
# flock(1) and by an fcntl lock as apt's are; apt-get and sudo are stubs that record how they were called.
#
#   bash Tests/Scripts/setup_lock_test.sh        # prints "setup_lock_test: passed", or what failed (exit 1)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
repo="$PWD"
work="$(mktemp -d -t viewhost-setup-locks.XXXXXX)"
holders=()
cleanup() {
    for pid in "${holders[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

fail() { echo "setup_lock_test: FAILED: $*" >&2; exit 1; }

# hold KIND FILE SECONDS: holds a lock on FILE for SECONDS in the background (flock(1), or fcntl as apt does).
hold() {
    local kind=$1 file=$2 seconds=$3
    if [ "$kind" = flock ]; then
        flock "$file" sleep "$seconds" &
    else
        python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "w"); fcntl.lockf(f, fcntl.LOCK_EX); time.sleep(float(sys.argv[2]))' "$file" "$seconds" &
    fi
    holders+=($!)
    # Until /proc/locks shows it.
    for _ in $(seq 50); do grep -q ":$(stat -c %i "$file") " /proc/locks && return 0; sleep 0.1; done
    fail "the $kind lock on $file did not show in /proc/locks"
}

# Stubs: apt-get records its arguments (and, while the file `refuse` exists, answers as apt-get does when a lock
# is taken, once); sudo runs its command.
mkdir -p "$work/bin"
cat > "$work/bin/apt-get" <<'STUB'
#!/usr/bin/env bash
echo "$(date +%s.%N) $*" >> "$STUB_LOG"
if [ -e "$STUB_REFUSE" ]; then
    rm -f "$STUB_REFUSE"
    echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2
    exit 100
fi
STUB
printf '#!/usr/bin/env bash\nexec "$@"\n' > "$work/bin/sudo"
chmod +x "$work/bin/apt-get" "$work/bin/sudo"
export STUB_LOG="$work/apt-get.log" STUB_REFUSE="$work/refuse"

lists="$work/lists-lock"
frontend="$work/lock-frontend"
touch "$lists" "$frontend"

# run_setup SECONDS COMMAND…: runs COMMAND in a shell that sourced scripts/setup.sh with the copies as its locks.
run_setup() {
    local seconds=$1
    shift
    APT_LOCK_FILES="$frontend $lists" APT_LOCK_WAIT_SECONDS="$seconds" PATH="$work/bin:$PATH" \
        bash -c 'set -euo pipefail; script_name=test.sh; source "$0/scripts/setup.sh"; "$@"' "$repo" "$@"
}

echo "setup_lock_test: a lock let go within the bound is waited for, naming what held it"
hold flock "$lists" 2
start=$SECONDS
run_setup 30 wait_for_apt_locks $((SECONDS + 30)) 2> "$work/err" || fail "exit $?: $(cat "$work/err")"
[ $((SECONDS - start)) -ge 1 ] || fail "it did not wait"
grep -q "test.sh: waiting (up to 30 s): $lists is locked by process [0-9]* (flock)" "$work/err" \
    || fail "what it said: $(cat "$work/err")"

echo "setup_lock_test: a lock held past the bound is named, exit 75"
hold fcntl "$frontend" 30
status=0
run_setup 2 install_missing_packages viewhost-no-such-package 2> "$work/err" || status=$?
[ "$status" -eq 75 ] || fail "exit $status: $(cat "$work/err")"
grep -q "test.sh: $frontend is locked by process [0-9]* (python3), still after 2 s; let it finish (or stop it), then run test.sh again" \
    "$work/err" || fail "what it said: $(cat "$work/err")"
[ ! -e "$STUB_LOG" ] || fail "apt-get ran while the lock was held: $(cat "$STUB_LOG")"
kill "${holders[-1]}" && wait "${holders[-1]}" 2>/dev/null || true

echo "setup_lock_test: apt-get runs once the locks are free, waiting for dpkg's itself; a lock taken in between is tried again"
hold flock "$frontend" 2
touch "$STUB_REFUSE"
released=$(date +%s.%N)
run_setup 30 install_missing_packages viewhost-no-such-package 2> "$work/err" || fail "exit $?: $(cat "$work/err")"
mapfile -t calls < "$STUB_LOG"
[ "${#calls[@]}" -eq 3 ] || fail "apt-get calls: ${calls[*]}"
[[ "${calls[0]}" == *" -o DPkg::Lock::Timeout="[0-9]*" update" ]] || fail "first call: ${calls[0]}"
[[ "${calls[1]}" == *" update" ]] || fail "the refused update was not tried again: ${calls[1]}"
[[ "${calls[2]}" == *" -o DPkg::Lock::Timeout="[0-9]*" install -y --no-install-recommends viewhost-no-such-package" ]] \
    || fail "install: ${calls[2]}"
awk -v released="$released" '{ if ($1 < released + 1) exit 1 }' "$STUB_LOG" || fail "apt-get ran before the lock was let go"

echo "setup_lock_test: passed"
