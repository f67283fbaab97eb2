#!/usr/bin/env python3
"""scripts/check-tutorial.py passes the walk-through as it is, and fails, naming the block, when a quoted file or a
quote drifts: a line of the file edited, a line added to a file quoted whole, a quote that leaves lines out with
`// …`, a quote that stops inside a declaration. Each case runs the script on a copy of the repository's article and
quoted files in a temporary directory, changed in one place.

    python3 Tests/Scripts/check_tutorial_test.py     # prints "check_tutorial_test: passed", or what failed (exit 1)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
ARTICLE = "docs/ViewHost.docc/YourFirstFeature.md"


def copy_tree(work):
    """The script, the article and every file it quotes, copied under `work`."""
    with open(os.path.join(REPO, ARTICLE), encoding="utf-8") as handle:
        text = handle.read()
    quoted = set(re.findall(r"^```swift\n// (\S+\.swift)$", text, re.M))
    for path in [ARTICLE, "scripts/check-tutorial.py", *quoted]:
        os.makedirs(os.path.dirname(os.path.join(work, path)), exist_ok=True)
        shutil.copy(os.path.join(REPO, path), os.path.join(work, path))
    return quoted


def run(work):
    result = subprocess.run(
        [sys.executable, os.path.join(work, "scripts/check-tutorial.py"), os.path.join(work, ARTICLE)],
        capture_output=True, text=True, check=False)
    return result.returncode, result.stderr


def edit(work, path, old, new):
    full = os.path.join(work, path)
    with open(full, encoding="utf-8") as handle:
        text = handle.read()
    if old not in text:
        raise AssertionError(f"{path} no longer holds {old!r}: update this test")
    with open(full, "w", encoding="utf-8") as handle:
        handle.write(text.replace(old, new, 1))


# (what is changed, the file, the text replaced, its replacement, what the failure must say)
CASES = [
    ("a line of a quoted declaration edited", "Examples/Todo/Sources/TodoFeature/TodoApp.swift",
     "state.nextID += 1", "state.nextID += 2", "no longer matches Examples/Todo/Sources/TodoFeature/TodoApp.swift"),
    ("a line added to a file quoted whole", "Examples/Todo/Package.swift",
     "    platforms: [.macOS(.v15), .iOS(.v17)],\n", "    platforms: [.macOS(.v15), .iOS(.v17)],\n    // a note\n",
     "no longer matches Examples/Todo/Package.swift"),
    ("a line removed from a file quoted whole", "Examples/Todo/Sources/TodoFeature/TodoState.swift",
     "    case undo\n", "", "no longer matches Examples/Todo/Sources/TodoFeature/TodoState.swift"),
    ("a quote that leaves lines out", ARTICLE,
     "        case .undoExpired:\n            state.undo = nil\n", "// …\n", "leaves lines of"),
    ("a quote that stops inside a declaration", ARTICLE,
     "        return kinds\n    }\n```", "        return kinds\n```", "its brackets do not close"),
    ("a quote from the middle of a declaration", ARTICLE,
     "    public static func check(_ event: TodoEvent, in state: TodoState) throws(EventRefusal) {\n        switch event {",
     "        switch event {", "from the middle of a declaration"),
]


def main():
    failures = []
    with tempfile.TemporaryDirectory(prefix="check-tutorial.") as work:
        copy_tree(work)
        status, errors = run(work)
        if status != 0:
            failures.append(f"the article as it is: status {status}: {errors.strip()}")
    for name, path, old, new, expected in CASES:
        with tempfile.TemporaryDirectory(prefix="check-tutorial.") as work:
            copy_tree(work)
            edit(work, path, old, new)
            status, errors = run(work)
            if status != 1 or expected not in errors or ARTICLE not in errors:
                failures.append(f"{name}: status {status}, expected 1 and {expected!r}; said {errors.strip()!r}")
    for failure in failures:
        print(f"check_tutorial_test: FAILED: {failure}", file=sys.stderr)
    if failures:
        return 1
    print(f"check_tutorial_test: passed ({len(CASES) + 1} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
