# Shared by scripts/run.sh and scripts/test.sh (sourced, not run): installs the Debian packages that are
# missing and puts Swift on PATH. Needs `script_name` set by the caller (for messages).

# install_missing_packages PACKAGE…: apt-get install those dpkg does not list as installed (sudo when not root).
install_missing_packages() {
    local missing=()
    for package in "$@"; do
        dpkg -s "$package" 2>/dev/null | grep -q '^Status: install ok installed' || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "$script_name: installing ${missing[*]}" >&2
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

# require_swift: the toolchain from PATH, or /opt/swift where this machine's image keeps it; exit 69 without one.
require_swift() {
    if ! command -v swift >/dev/null && [ -x /opt/swift/usr/bin/swift ]; then PATH="/opt/swift/usr/bin:$PATH"; fi
    command -v swift >/dev/null || { echo "$script_name: swift is not on PATH" >&2; exit 69; }
}
