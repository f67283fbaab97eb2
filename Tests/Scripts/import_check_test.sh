#!/usr/bin/env bash
# scripts/import_check.py finds an import that Package.swift does not declare, and passes once it is declared:
# a package of three targets where A imports C, which only B declares (the case SwiftPM's own check lets through
# on this toolchain), and a test target that imports a product's second module (the ViewHost product's
# ViewModelCore, as Examples/Todo's tests did).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "import_check_test: $*" >&2; exit 1; }

mkdir -p "$work/p/Sources/A" "$work/p/Sources/B" "$work/p/Sources/C"
manifest() {
    cat > "$work/p/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription
let package = Package(name: "p", targets: [
    .target(name: "A", dependencies: [$2]), .target(name: "B", dependencies: ["C"]), .target(name: "C"),
])
MANIFEST
}
printf 'import Foundation\n@testable import C\npublic func a() { c() }\n' > "$work/p/Sources/A/A.swift"
printf 'import C\npublic func b() { c() }\n' > "$work/p/Sources/B/B.swift"
printf '#if canImport(Glibc)\nimport Glibc\n#endif\npublic func c() {}\n' > "$work/p/Sources/C/C.swift"

manifest p '"B"'
status=0
output="$(python3 scripts/import_check.py "$work/p" 2>&1)" || status=$?
[ "$status" -eq 1 ] || fail "A imports C undeclared: status $status, not 1: $output"
grep -q "target A imports C (a target of the package) without declaring it a dependency" <<<"$output" \
    || fail "the line does not name A and C: $output"
[ "$(grep -c 'without declaring' <<<"$output")" -eq 1 ] || fail "only A's import is missing: $output"

manifest p '"B", "C"'
output="$(python3 scripts/import_check.py "$work/p" 2>&1)" || fail "declared, it still fails: $output"

# A product bringing several modules: each of them counts as declared, and only those.
mkdir -p "$work/app/Sources/App"
cat > "$work/app/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription
let package = Package(name: "app", dependencies: [.package(name: "p", path: "../p")], targets: [
    .target(name: "App", dependencies: [.product(name: "Both", package: "p")]),
])
MANIFEST
cat >> "$work/p/Package.swift" <<'MANIFEST'
package.products = [.library(name: "Both", targets: ["A", "B"])]
MANIFEST
printf 'import A\nimport B\n' > "$work/app/Sources/App/App.swift"
output="$(python3 scripts/import_check.py "$work/app" 2>&1)" || fail "A and B come with the product Both: $output"
printf 'import A\nimport C\n' > "$work/app/Sources/App/App.swift"
status=0
output="$(python3 scripts/import_check.py "$work/app" 2>&1)" || status=$?
[ "$status" -eq 1 ] && grep -q "target App imports C" <<<"$output" || fail "C is not in Both: $status $output"
echo "import_check_test: ok"
