#!/usr/bin/env python3
"""Checks that a DocC article's code blocks still match the files they quote (run by scripts/docs.sh).

    python3 scripts/check-tutorial.py docs/ViewHost.docc/YourFirstFeature.md

A ```swift block whose first line is a comment naming a file (`// Examples/Todo/Sources/…/X.swift`) quotes that
file: each run of lines between `// …` lines must appear in the file as consecutive lines, in the block's order.
Blocks without such a first line are not checked (sketches, such as a migration the example does not have).
Exit status 1 and one line per mismatch when a quote no longer matches.
"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def blocks(text):
    for match in re.finditer(r"^```swift\n(.*?)^```", text, re.S | re.M):
        lines = match.group(1).rstrip("\n").split("\n")
        line_number = text.count("\n", 0, match.start()) + 2
        yield line_number, lines


def check(article):
    failures = []
    quoted = 0
    with open(article, encoding="utf-8") as handle:
        text = handle.read()
    for line_number, lines in blocks(text):
        first = re.fullmatch(r"// (\S+\.swift)", lines[0].strip())
        if not first:
            continue
        path = os.path.join(ROOT, first.group(1))
        if not os.path.exists(path):
            failures.append(f"{article}:{line_number}: quotes {first.group(1)}, which does not exist")
            continue
        with open(path, encoding="utf-8") as handle:
            source = handle.read().split("\n")
        quoted += 1
        position = 0
        runs, run = [], []
        for line in lines[1:]:
            if line.strip() == "// …":
                runs.append(run)
                run = []
            else:
                run.append(line)
        runs.append(run)
        for run in (r for r in runs if r):
            found = next((i for i in range(position, len(source) - len(run) + 1) if source[i:i + len(run)] == run), None)
            if found is None:
                failures.append(f"{article}:{line_number}: no longer matches {first.group(1)}: {run[0].strip()!r}…")
                break
            position = found + len(run)
    return quoted, failures


def main():
    total, failures = 0, []
    for article in sys.argv[1:]:
        quoted, found = check(article)
        total += quoted
        failures += found
    for failure in failures:
        print(failure, file=sys.stderr)
    print(f"check-tutorial: {total} quoted blocks, {len(failures)} out of date")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
