# Shared by scripts/run.sh and scripts/test.sh (sourced, not run): installs the Debian packages that are
# missing and puts Swift on PATH. Needs `script_name` set by the caller (for messages).

# How long to wait for another apt-get or dpkg (a fresh machine's own first install, unattended-upgrades) to let
# go of the package locks before giving up, and the locks: dpkg's and its front end's (install), the package
# lists' (update) and the download cache's. Both may be set from outside (Tests/Scripts/setup_lock_test.sh does).
APT_LOCK_WAIT_SECONDS="${APT_LOCK_WAIT_SECONDS:-300}"
read -r -a apt_lock_files <<< "${APT_LOCK_FILES:-/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock /var/cache/apt/archives/lock}"

# lock_holder FILE: "process PID (COMMAND)" of a process holding a lock on FILE, or nothing. Read from /proc/locks,
# which lists fcntl locks (apt's and dpkg's) and flock locks alike, by device and inode: taking the lock to see
# would need root, and flock(1) does not see fcntl locks.
lock_holder() {
    local file=$1 device inode major minor pid
    [ -e "$file" ] || return 0
    device=$(stat -L -c %d "$file" 2>/dev/null) && inode=$(stat -L -c %i "$file" 2>/dev/null) || return 0
    # stat's device number, split as the kernel prints it in /proc/locks (hex major:minor:inode).
    major=$(((device >> 8) & 0xfff))
    minor=$(((device & 0xff) | ((device >> 12) & 0xfff00)))
    # A holder's line: "1: POSIX  ADVISORY  WRITE 1234 fd:01:5678 0 EOF"; a waiter's has "->" after the number.
    pid=$(awk -v want="$(printf '%02x:%02x:%d' "$major" "$minor" "$inode")" \
        '$2 != "->" && $6 == want { print $5; exit }' /proc/locks 2>/dev/null || true)
    [ -n "$pid" ] || return 0
    echo "process $pid ($(cat "/proc/$pid/comm" 2>/dev/null || echo "not visible here"))"
}

# held_apt_lock: "FILE is locked by process PID (COMMAND)" for the first package lock held, or nothing.
held_apt_lock() {
    local file holder
    for file in "${apt_lock_files[@]}"; do
        holder=$(lock_holder "$file")
        if [ -n "$holder" ]; then
            echo "$file is locked by $holder"
            return 0
        fi
    done
}

# wait_for_apt_locks DEADLINE: returns once no package lock is held; at DEADLINE (in $SECONDS) names the lock and
# what holds it and exits 75 (EX_TEMPFAIL: running again later works).
wait_for_apt_locks() {
    local deadline=$1 held said=""
    while held=$(held_apt_lock) && [ -n "$held" ]; do
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "$script_name: $held, still after ${APT_LOCK_WAIT_SECONDS} s; let it finish (or stop it), then run" \
                "$script_name again" >&2
            exit 75
        fi
        [ -n "$said" ] || echo "$script_name: waiting (up to ${APT_LOCK_WAIT_SECONDS} s): $held" >&2
        said=1
        sleep 1
    done
}

# apt_get ARGUMENT…: apt-get (sudo when not root) once the package locks are free, waiting for them up to
# APT_LOCK_WAIT_SECONDS in all: apt-get itself waits for dpkg's lock what time is left (DPkg::Lock::Timeout), and a
# run that finds a lock taken in the moment between (`update` does not wait for the lists' lock) is tried again.
apt_get() {
    local deadline=$((SECONDS + APT_LOCK_WAIT_SECONDS)) status errors held
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    errors=$(mktemp)
    while :; do
        wait_for_apt_locks "$deadline"
        status=0
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get \
            -o DPkg::Lock::Timeout=$((deadline > SECONDS ? deadline - SECONDS : 1)) "$@" 2> "$errors" || status=$?
        cat "$errors" >&2
        if [ "$status" -ne 0 ] && grep -q "Could not get lock" "$errors"; then
            if [ "$SECONDS" -lt "$deadline" ]; then
                sleep 1
                continue
            fi
            held=$(held_apt_lock)
            echo "$script_name: ${held:-the package lock is held by another apt-get or dpkg (above)}, still after" \
                "${APT_LOCK_WAIT_SECONDS} s; let it finish (or stop it), then run $script_name again" >&2
            rm -f "$errors"
            exit 75
        fi
        rm -f "$errors"
        return "$status"
    done
}

# install_missing_packages PACKAGE…: apt-get install those dpkg does not list as installed (sudo when not root).
install_missing_packages() {
    local missing=()
    for package in "$@"; do
        dpkg -s "$package" 2>/dev/null | grep -q '^Status: install ok installed' || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "$script_name: installing ${missing[*]}" >&2
    apt_get update
    apt_get install -y --no-install-recommends "${missing[@]}"
}

# require_swift: the toolchain from PATH, or /opt/swift where this machine's image keeps it; exit 69 without one.
require_swift() {
    if ! command -v swift >/dev/null && [ -x /opt/swift/usr/bin/swift ]; then PATH="/opt/swift/usr/bin:$PATH"; fi
    command -v swift >/dev/null || { echo "$script_name: swift is not on PATH" >&2; exit 69; }
}
