#!/usr/bin/env bash
# Build and start ViewHost: the README's first command.
#
#   scripts/run.sh                      # http://127.0.0.1:8080, settings from Config/viewhost.json
#   scripts/run.sh --port 0             # any free port; the readiness line names it
#   scripts/run.sh --host 0.0.0.0 --log-level debug
#
# Arguments go to `viewhost serve` (flags: --host --port --config --log-level; see Config/README.md).
# Installs the Debian packages the build needs if they are missing, then builds the release binary exactly as the
# Dockerfile's build stage does. The server runs in the foreground; Ctrl-C (SIGINT) or SIGTERM drains and exits 0.
set -euo pipefail

# Debian packages the build links against (OpenSSL, zlib, found through pkg-config) and curl for trying it out.
REQUIRED_PACKAGES=(libssl-dev zlib1g-dev libsqlite3-dev libcurl4-openssl-dev libpq-dev pkg-config curl)

cd "$(dirname "${BASH_SOURCE[0]}")/.."

script_name=run.sh
# shellcheck source=scripts/setup.sh
source scripts/setup.sh

install_missing_packages "${REQUIRED_PACKAGES[@]}"
require_swift

# Progress goes to stderr so stdout carries only the server's own output (its first line is the readiness line).
swift build -c release --product viewhost >&2
exec .build/release/viewhost serve "$@"
