#!/usr/bin/env bash
# Lints Config/viewhost.socket and Config/viewhost.service with `systemd-analyze verify` (the units parse, the
# service's Requires=/After= socket exists, ExecStart names an executable). A warning (an unknown key, a typo in a
# section) fails too: verify itself exits 0 on those. Skipped, saying so, where systemd-analyze is not installed.
# Usage: systemd_units_test.sh VIEWHOST_BINARY (put in ExecStart's place, since /usr/local/bin/viewhost is not
# installed here).
set -euo pipefail
binary=${1:?usage: systemd_units_test.sh VIEWHOST_BINARY}
if ! command -v systemd-analyze >/dev/null; then
    echo "systemd_units_test: skipped (no systemd-analyze)"
    exit 0
fi
cd "$(dirname "$0")/../.."
units=$(mktemp -d)
trap 'rm -rf "$units"' EXIT
cp Config/viewhost.socket Config/viewhost.service "$units/"
sed -i "s#/usr/local/bin/viewhost#$binary#" "$units/viewhost.service"
status=0
output=$(systemd-analyze verify --man=no "$units/viewhost.socket" "$units/viewhost.service" 2>&1) || status=$?
if [ "$status" -ne 0 ] || [ -n "$output" ]; then
    echo "systemd_units_test: systemd-analyze verify found problems (status $status):"
    echo "$output"
    exit 1
fi
echo "systemd_units_test: Config/viewhost.socket and Config/viewhost.service verify clean"
