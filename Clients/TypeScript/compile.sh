#!/usr/bin/env bash
# Compiles Clients/TypeScript with the pinned TypeScript compiler (Debian's node-typescript 4.8.4) and puts the
# JavaScript where the Swift targets embed it; the compiled files are committed, so building the server needs no
# TypeScript compiler.
#
#   Clients/TypeScript/compile.sh           # compile, and write the targets' JavaScript
#   Clients/TypeScript/compile.sh --check   # compile into a temporary directory and compare with the committed files
#                                           # (the test command's check; exit 1 naming what differs)
#
# Where each output goes:
#   app.mts, client/*.mts, page/*.mts  → Sources/ViewHost/Web/Resources/ (same paths, .mjs; client/types.mjs, which
#                                        holds types only, is left out)
#   renderers/NAME.ts                  → Sources/<Name>Feature/Resources/NAME-page.js
#   types/*.ts                         → nothing (types only; they are written by the app's `typescript` command)
#   examples/*.mts                     → nothing (compiled to check that they type-check as the README says)
set -euo pipefail

PINNED=4.8.4
cd "$(dirname "${BASH_SOURCE[0]}")"
root="$(cd ../.. && pwd)"

check=0
case "${1:-}" in
    --check) check=1 ;;
    "") ;;
    *) echo "usage: $0 [--check]" >&2; exit 64 ;;
esac

if ! command -v tsc >/dev/null; then
    echo "compile.sh: no tsc on PATH; install Debian's node-typescript ($PINNED): apt-get install node-typescript" >&2
    exit 1
fi
version="$(tsc --version | awk '{print $2}')"
if [ "$version" != "$PINNED" ]; then
    echo "compile.sh: tsc is $version, not the pinned $PINNED (Debian's node-typescript): the committed JavaScript is" \
        "$PINNED's output, which another version does not reproduce byte for byte; install node-typescript $PINNED" >&2
    exit 1
fi

work="$(mktemp -d -t viewhost-tsc.XXXXXX)"
trap 'rm -rf "$work"' EXIT
tsc -p . --outDir "$work/out"

# The targets' JavaScript as it should be, under $work/placed/<path in the repository>.
web=Sources/ViewHost/Web/Resources
mkdir -p "$work/placed/$web/client" "$work/placed/$web/page"
cp "$work/out/app.mjs" "$work/placed/$web/app.mjs"
for file in "$work"/out/client/*.mjs "$work"/out/page/*.mjs; do
    relative="${file#"$work/out/"}"
    [ "$relative" = client/types.mjs ] && continue
    cp "$file" "$work/placed/$web/$relative"
done
for file in "$work"/out/renderers/*.js; do
    [ -e "$file" ] || continue
    name="$(basename "$file" .js)"
    target="Sources/${name^}Feature/Resources"
    mkdir -p "$work/placed/$target"
    cp "$file" "$work/placed/$target/$name-page.js"
done

# The committed JavaScript these places hold (what a stale or missing output leaves is a difference too).
committed() {
    (cd "$root" && { find "$web" -name '*.mjs'; find Sources -path '*Feature/Resources/*-page.js'; } | sort)
}
placed() {
    (cd "$work/placed" && find . -type f | sed 's|^\./||' | sort)
}

if [ "$check" -eq 0 ]; then
    committed | while read -r path; do rm -f "$root/$path"; done
    (cd "$work/placed" && find . -type f | while read -r path; do
        mkdir -p "$root/$(dirname "$path")"
        cp "$path" "$root/$path"
    done)
    echo "compile.sh: wrote $(placed | wc -l) files with tsc $version"
    exit 0
fi

status=0
if ! diff <(committed) <(placed) >"$work/lists"; then
    echo "compile.sh: the committed JavaScript files are not the ones the TypeScript sources compile to:" >&2
    sed -e 's/^</  committed only:/' -e 's/^>/  compiled only:/' "$work/lists" | grep -E '^  (committed|compiled) only' >&2
    status=1
fi
while read -r path; do
    [ -f "$root/$path" ] || continue
    if ! cmp -s "$root/$path" "$work/placed/$path"; then
        echo "compile.sh: $path differs from a fresh compile:" >&2
        diff -u "$root/$path" "$work/placed/$path" | head -20 >&2 || true
        status=1
    fi
done < <(placed)
if [ "$status" -ne 0 ]; then
    echo "compile.sh: run Clients/TypeScript/compile.sh and commit what it writes" >&2
    exit 1
fi
echo "compile.sh: the committed JavaScript ($(placed | wc -l) files) is tsc $version's output"
