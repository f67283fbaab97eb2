#!/usr/bin/env bash
# Builds the DocC documentation of the library products (run by scripts/test.sh): ViewHost, ViewModelCore and
# ViewHostAPI (the `ViewHost` product), ViewHostCommandLine and ViewHostTesting, merged into one archive.
#
#   scripts/docs.sh                    # -> .build/docs/ViewHost.doccarchive (.build-*/docs with SWIFT_SCRATCH)
#                                      #    and .build/docs-site/, the same as a static web site
#   cd .build/docs-site && python3 -m http.server 8000   # then open http://127.0.0.1:8000/documentation/
#   docc preview docs/ViewHost.docc --additional-symbol-graph-dir .build/docs/symbols/ViewHost   # to read one
#
# The catalogs live in docs/*.docc, outside Sources/: the walk-through quotes Examples/Todo, and no library source
# names the example. So the toolchain's `docc` builds them from the package's symbol graphs
# (`swift package dump-symbol-graph`), not swift-docc-plugin, which reads a catalog only from inside its target.
# Warnings are errors: a link to a symbol that no longer exists fails the build. First, the walk-through's quotes
# are checked against the files they quote (scripts/check-tutorial.py).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
script_name=docs.sh
# shellcheck source=scripts/setup.sh
source scripts/setup.sh
require_swift
DOCC="$(command -v docc || true)"
[ -n "$DOCC" ] || DOCC="$(dirname "$(command -v swift)")/docc"
[ -x "$DOCC" ] || { echo "docs.sh: no docc beside swift" >&2; exit 69; }

python3 scripts/check-tutorial.py docs/ViewHost.docc/*.md

scratch=(); out=.build/docs; site=.build/docs-site
if [ -n "${SWIFT_SCRATCH:-}" ]; then
    scratch=(--scratch-path "$SWIFT_SCRATCH"); out="$SWIFT_SCRATCH/docs"; site="$SWIFT_SCRATCH/docs-site"
fi
rm -rf "$out" "$site"
mkdir -p "$out/symbols" "$out/modules"
# Public API only, as an app author sees it.
swift package "${scratch[@]}" dump-symbol-graph --minimum-access-level public >"$out/dump.log" 2>&1 \
    || { tail -20 "$out/dump.log" >&2; exit 1; }
graphs="$(sed -n 's/^Files written to //p' "$out/dump.log" | tail -1)"
[ -d "$graphs" ] || { echo "docs.sh: swift package dump-symbol-graph wrote no symbol graphs" >&2; exit 1; }

archives=()
for module in ViewHost ViewHostCommandLine ViewModelCore ViewHostAPI ViewHostTesting; do
    mkdir -p "$out/symbols/$module"
    cp "$graphs/$module.symbols.json" "$out/symbols/$module/"
    # Extensions this module makes to others' types (ViewHost@ViewModelCore…).
    for extension in "$graphs/$module@"*.symbols.json; do
        [ -e "$extension" ] && cp "$extension" "$out/symbols/$module/"
    done
    "$DOCC" convert "docs/$module.docc" --additional-symbol-graph-dir "$out/symbols/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.viewhost.$module" \
        --output-path "$out/modules/$module.doccarchive" --warnings-as-errors >"$out/$module.log" 2>&1 \
        || { cat "$out/$module.log" >&2; echo "docs.sh: docc convert $module failed" >&2; exit 1; }
    archives+=("$out/modules/$module.doccarchive")
done
"$DOCC" merge "${archives[@]}" --synthesized-landing-page-name ViewHost --output-path "$out/ViewHost.doccarchive" \
    >"$out/merge.log" 2>&1 || { cat "$out/merge.log" >&2; exit 1; }
# The merged archive as a static web site (an index.html for every page, so any file server serves it; under .build/,
# which git ignores). A second or two: it copies the archive and writes the pages' entry files.
"$DOCC" process-archive transform-for-static-hosting "$out/ViewHost.doccarchive" --output-path "$site" \
    >"$out/site.log" 2>&1 || { cat "$out/site.log" >&2; echo "docs.sh: the static site failed" >&2; exit 1; }
echo "docs.sh: $out/ViewHost.doccarchive (${#archives[@]} modules); the site: $site (python3 -m http.server there, /documentation/)"
