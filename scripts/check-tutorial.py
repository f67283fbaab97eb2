#!/usr/bin/env python3
"""Checks that a DocC article's code blocks still match the files they quote (run by scripts/docs.sh).

    python3 scripts/check-tutorial.py docs/ViewHost.docc/YourFirstFeature.md

A ```swift block whose first line is a comment naming a file (`// Examples/Todo/Sources/…/X.swift`) quotes that
file, whole: the rest of the block is either the whole file, or consecutive lines of it that make whole
declarations (the first line starts one, and every bracket the quote opens it closes). Nothing may be left out
inside a quote: a `// …` line is refused. So a reader can copy any block as it stands, and a block that drifts from
its file (an edited line, a line added or removed in the file) fails.
Blocks without such a first line are not checked (sketches, such as a migration the example does not have).
Exit status 1 and one line per mismatch when a quote no longer matches.
"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# What a quote that is not a whole file begins with: a declaration, or its doc comment or attribute.
DECLARATION = re.compile(
    r"\s*(///|@|(public|private|fileprivate|internal|package|static|final|nonisolated|mutating|override|indirect)\b"
    r"|(func|init|struct|enum|class|actor|protocol|extension|let|var|case|typealias|import)\b)")


def blocks(text):
    for match in re.finditer(r"^```swift\n(.*?)^```", text, re.S | re.M):
        lines = match.group(1).rstrip("\n").split("\n")
        line_number = text.count("\n", 0, match.start()) + 2
        yield line_number, lines


def bracket_depths(lines):
    """The nesting depth of (), [] and {} after each line, outside string literals and // comments; None when a
    bracket closes one the lines did not open."""
    depth, depths, in_string, raw = 0, [], False, 0
    for line in lines:
        index = 0
        while index < len(line):
            char = line[index]
            if in_string:
                if char == "\\" and not raw:
                    index += 2
                    continue
                if char == '"' and line[index + 1:index + 1 + raw] == "#" * raw:
                    in_string = False
                    index += 1 + raw
                    continue
            elif line.startswith("//", index):
                break
            elif char == "#" or char == '"':
                hashes = len(line[index:]) - len(line[index:].lstrip("#"))
                if line[index + hashes:index + hashes + 1] == '"':
                    in_string, raw = True, hashes
                    index += hashes + 1
                    continue
            elif char in "([{":
                depth += 1
            elif char in ")]}":
                depth -= 1
                if depth < 0:
                    return None
            index += 1
        depths.append(depth)
    return depths


def check_block(article, line_number, lines):
    """The failures of one block that names a file (an empty list when it matches)."""
    name = re.fullmatch(r"// (\S+\.swift)", lines[0].strip()).group(1)
    where = f"{article}:{line_number}"
    path = os.path.join(ROOT, name)
    if not os.path.exists(path):
        return [f"{where}: quotes {name}, which does not exist"]
    quote = lines[1:]
    if any(line.strip() == "// …" for line in quote):
        return [f"{where}: leaves lines of {name} out ('// …'): quote the whole file or whole declarations"]
    with open(path, encoding="utf-8") as handle:
        source = handle.read().rstrip("\n").split("\n")
    if quote == source:
        return []
    if not quote:
        return [f"{where}: quotes nothing of {name}"]
    found = next((i for i in range(len(source) - len(quote) + 1) if source[i:i + len(quote)] == quote), None)
    if found is None:
        first = next((i for i, line in enumerate(quote) if line not in source), 0)
        return [f"{where}: no longer matches {name}: {quote[first].strip()!r} is not where the quote has it"]
    if not DECLARATION.match(quote[0]):
        return [f"{where}: quotes {name} from the middle of a declaration: {quote[0].strip()!r}"]
    depths = bracket_depths(quote)
    if depths is None or depths[-1] != 0:
        return [f"{where}: quotes part of a declaration of {name}: its brackets do not close within the quote"]
    return []


def check(article):
    failures = []
    quoted = 0
    with open(article, encoding="utf-8") as handle:
        text = handle.read()
    for line_number, lines in blocks(text):
        if not re.fullmatch(r"// (\S+\.swift)", lines[0].strip()):
            continue
        quoted += 1
        failures += check_block(article, line_number, lines)
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
