#!/usr/bin/env python3
"""The facts the docs state that a script can check against the tree.

- docs/ARCHITECTURE.md's table of targets names every target of Package.swift
  (test targets and the build plugin aside) and no other, and each row's
  "knows of" cell names exactly the row's direct dependencies among this
  package's targets: by the target's name, or for a module map by the library
  it maps (`CMicroHTTPD` is libmicrohttpd, `CZlib` zlib, …), before the first
  `;` (what follows is prose: "JSON; no I/O").
- No doc counts the tests ("310 tests"): a count any commit falsifies.
- No doc speaks of XCTest tests while no test imports XCTest.

Usage: scripts/check-docs.py [PACKAGE_DIR]   (exit 0 clean, 1 with the list)
"""
import json
import os
import re
import subprocess
import sys

# A module map's target, as the docs name what it maps.
LIBRARIES = {"CMicroHTTPD": "libmicrohttpd", "CZlib": "zlib", "CBrotli": "libbrotli", "CLibPQ": "libpq"}
TEST_COUNT = re.compile(r"\b\d[\d,]*\s+(?:Swift\s+)?tests\b")
XCTEST_TESTS = re.compile(r"XCTest tests?\b|and XCTest test")


def dependency_name(dependency):
    for kind in ("byName", "target", "product"):
        if kind in dependency:
            return dependency[kind][0]
    raise ValueError(f"unknown dependency form {dependency}")


def target_rows(text):
    """{target: knows-of cell} from the table whose header is `| target | job | knows of |`."""
    rows = {}
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.replace(" ", "") == "|target|job|knowsof|")
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        for name in re.findall(r"`([\w-]+)`", cells[0]):
            rows[name] = cells[-1]
    return rows


def mentions(cell, name):
    words = {name, LIBRARIES.get(name, name)}
    return any(re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", cell) for word in words)


def check_architecture(package, problems):
    manifest = json.loads(subprocess.run(
        ["swift", "package", "--package-path", package, "dump-package"],
        check=True, capture_output=True, text=True).stdout)
    targets = {t["name"]: t for t in manifest["targets"] if t["type"] not in ("test", "plugin")}
    # The build plugin's own tool is described beside the plugin, not in the table.
    plugin_tools = {dependency_name(d) for t in manifest["targets"] if t["type"] == "plugin" for d in t["dependencies"]}
    documented = set(targets) - plugin_tools
    path = os.path.join(package, "docs", "ARCHITECTURE.md")
    with open(path, encoding="utf-8") as file:
        rows = target_rows(file.read())
    for name in sorted(documented - set(rows)):
        problems.append(f"docs/ARCHITECTURE.md: target {name} of Package.swift has no row in the table of targets")
    for name in sorted(set(rows) - documented):
        problems.append(f"docs/ARCHITECTURE.md: the table of targets has {name}, which Package.swift does not build")
    for name in sorted(set(rows) & documented):
        declared = {dependency_name(d) for d in targets[name]["dependencies"]} & set(targets)
        cell = rows[name].split(";")[0]
        for dependency in sorted(declared):
            if not mentions(cell, dependency):
                problems.append(f"docs/ARCHITECTURE.md: {name} depends on {dependency} (Package.swift), "
                                f"which its \"knows of\" cell does not name: {cell!r}")
        for other in sorted(set(targets) - declared - {name}):
            if mentions(cell, other):
                problems.append(f"docs/ARCHITECTURE.md: {name}'s \"knows of\" cell names {other}, "
                                f"which is not among its dependencies in Package.swift")


def check_claims(package, problems):
    has_xctest = False
    for root, _, files in os.walk(os.path.join(package, "Tests")):
        for name in files:
            if name.endswith(".swift"):
                with open(os.path.join(root, name), encoding="utf-8") as source:
                    has_xctest = has_xctest or re.search(r"^\s*import XCTest", source.read(), re.MULTILINE)
    docs = [os.path.join("docs", name) for name in sorted(os.listdir(os.path.join(package, "docs")))
            if name.endswith(".md")] + ["README.md"]
    for doc in docs:
        with open(os.path.join(package, doc), encoding="utf-8") as file:
            for number, line in enumerate(file, 1):
                for count in TEST_COUNT.findall(line):
                    problems.append(f"{doc}:{number}: counts tests ({count!r}); a commit falsifies that silently")
                if not has_xctest and XCTEST_TESTS.search(line):
                    problems.append(f"{doc}:{number}: speaks of XCTest tests, and no test imports XCTest")


def main():
    package = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    problems = []
    check_architecture(package, problems)
    check_claims(package, problems)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print("check-docs: the table of targets matches Package.swift; no test counts; no phantom XCTest tests")
    return 0


if __name__ == "__main__":
    sys.exit(main())
