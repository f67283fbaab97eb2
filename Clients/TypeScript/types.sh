#!/usr/bin/env bash
# Writes, or with --check compares, the TypeScript types of an app's features as its `typescript` command prints
# them (from the same schemas as its /openapi.json) into Clients/TypeScript/types/NAME.ts.
#
#   Clients/TypeScript/types.sh viewhost .build/debug/viewhost
#   Clients/TypeScript/types.sh --check todo Examples/Todo/.build/debug/todo-server   # the test command's check
set -euo pipefail

check=0
if [ "${1:-}" = --check ]; then
    check=1
    shift
fi
if [ $# -ne 2 ] || ! [[ "$1" =~ ^[a-z][a-z0-9-]*$ ]]; then
    echo "usage: $0 [--check] NAME BINARY (writes Clients/TypeScript/types/NAME.ts from 'BINARY typescript')" >&2
    exit 64
fi
name=$1
binary=$2
committed="$(dirname "${BASH_SOURCE[0]}")/types/$name.ts"
fresh="$(mktemp -t viewhost-types.XXXXXX)"
trap 'rm -f "$fresh"' EXIT
"$binary" typescript >"$fresh"

if [ "$check" -eq 0 ]; then
    cp "$fresh" "$committed"
    echo "types.sh: wrote $committed"
    exit 0
fi
if ! diff -u "$committed" "$fresh" >&2; then
    echo "types.sh: $committed is not what '$binary typescript' prints now: run $0 $name $binary and commit it" >&2
    exit 1
fi
echo "types.sh: $committed is what '$binary typescript' prints"
