#!/usr/bin/env python3
"""Every module a Swift file imports is a dependency its target declares in Package.swift.

    scripts/import_check.py [PACKAGE_DIR ...]      (default: the repository, Examples/Todo and Examples/SharedList)

Why our own: SwiftPM's `--explicit-target-dependency-import-check error` is the tool for this, but on this toolchain
(Swift 6.3 on Linux, either build system) it reports nothing: a three-target package whose A imports C through B
builds with no error (swiftlang/swift-package-manager#9620 for the new build system). A module reached only through
another target's dependencies builds today and breaks the day that target drops it, and "Package.swift enforces the
layers" is only true when every edge is written there.

The package's own description comes from `swift package dump-package` (no build, no network). A target's imports are
its files' `import` lines (any attribute or access level, `import struct M.T` too); a module counts as declared when
it is a target the target names, or the module of a product it names (a product's module bears its name: every
package this one uses is so). Modules of the toolchain (Foundation, Glibc, Testing, ...) are exempt.
Exit status: 0 when every import is declared, 1 with one line per missing edge, 2 when the package cannot be read.
"""
import json
import os
import re
import subprocess
import sys

# Modules the toolchain brings, never declared in Package.swift.
TOOLCHAIN = {
    "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking", "FoundationXML",
    "Glibc", "Musl", "Darwin", "Android", "WinSDK", "ucrt", "Bionic", "Dispatch", "Swift", "SwiftShims",
    "_Concurrency", "_StringProcessing", "RegexBuilder", "Synchronization", "Observation", "Distributed",
    "Testing", "XCTest", "os", "CoreFoundation", "Combine", "SwiftUI", "UIKit", "AppKit", "PackageDescription",
}

IMPORT = re.compile(
    r"^\s*(?:@[\w]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
    r"import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z0-9_]*)")


def target_dir(package_dir, target):
    if target.get("path"):
        return os.path.join(package_dir, target["path"])
    base = {"test": "Tests", "plugin": "Plugins"}.get(target["type"], "Sources")
    return os.path.join(package_dir, base, target["name"])


def imports(directory, excluded):
    found = {}
    for root, dirs, files in os.walk(directory):
        dirs[:] = [d for d in dirs if os.path.join(root, d) not in excluded]
        for name in files:
            if not name.endswith(".swift"):
                continue
            path = os.path.join(root, name)
            if path in excluded:
                continue
            with open(path, encoding="utf-8", errors="replace") as handle:
                for number, line in enumerate(handle, 1):
                    match = IMPORT.match(line)
                    if match:
                        found.setdefault(match.group(1), f"{path}:{number}")
    return found


def describe(package_dir):
    return json.loads(subprocess.run(
        ["swift", "package", "--package-path", package_dir, "dump-package"],
        check=True, capture_output=True, text=True).stdout)


def product_modules(package_dir, description):
    """(package identity, product) -> the modules it brings, for the packages whose manifests are here (a local
    path, or a checkout SwiftPM made); a product of any other package brings the module of its name."""
    modules = {}
    for dependency in description.get("dependencies", []):
        for kind, entries in dependency.items():
            for entry in entries:
                identity = entry.get("identity", "")
                if kind == "fileSystem":
                    directory = os.path.join(package_dir, entry.get("path", ""))
                else:
                    directory = os.path.join(package_dir, ".build", "checkouts", identity)
                try:
                    products = describe(directory)["products"] if os.path.isdir(directory) else []
                except (subprocess.CalledProcessError, json.JSONDecodeError):
                    products = []
                names = {identity.lower(), (entry.get("nameForTargetDependencyResolutionOnly") or "").lower()}
                for product in products:
                    for name in names - {""}:
                        modules[(name, product["name"])] = set(product.get("targets", []))
    return modules


def check(package_dir):
    try:
        description = describe(package_dir)
    except (subprocess.CalledProcessError, json.JSONDecodeError) as error:
        print(f"import_check: {package_dir}: cannot read the package: {error}", file=sys.stderr)
        return None
    products = product_modules(package_dir, description)
    own = {target["name"] for target in description["targets"]}
    missing = []
    for target in description["targets"]:
        if target["type"] in ("system", "binary", "plugin", "macro"):
            continue
        declared = {target["name"]}
        for dependency in target["dependencies"]:
            for kind in ("byName", "target", "product"):
                if kind in dependency:
                    declared.add(dependency[kind][0])
            if "product" in dependency:
                name, package = dependency["product"][0], (dependency["product"][1] or "").lower()
                declared |= products.get((package, name), set())
        directory = target_dir(package_dir, target)
        excluded = {os.path.join(directory, path) for path in target.get("exclude", [])}
        for module, where in sorted(imports(directory, excluded).items()):
            if module in declared or module in TOOLCHAIN:
                continue
            what = "a target of the package" if module in own else "a module"
            missing.append(f"{os.path.relpath(where)}: target {target['name']} imports {module} ({what}) "
                           "without declaring it a dependency")
    return missing


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    packages = sys.argv[1:] or [root, os.path.join(root, "Examples", "Todo"), os.path.join(root, "Examples", "SharedList")]
    problems = []
    for package in packages:
        missing = check(package)
        if missing is None:
            return 2
        problems += missing
    for line in problems:
        print(line)
    if problems:
        print(f"import_check: {len(problems)} import(s) not declared in Package.swift", file=sys.stderr)
        return 1
    print(f"import_check: every import is declared ({len(packages)} packages)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
