#!/usr/bin/env python3
"""Every module a target imports is one of its own declared dependencies.

SwiftPM's `--explicit-target-dependency-import-check error` (which `make test`
also turns on) accepts an import of any target in the importer's dependency
CLOSURE: TableRendering could import JSON because TableModel depends on it. This
check is the strict one: an import of a module this package builds or a product
it depends on must be a DIRECT dependency in Package.swift. Imports of the
toolchain's modules (Foundation, Glibc, Testing, …) are not checked.

Usage: scripts/check-imports.py [PACKAGE_DIR]   (exit 0 clean, 1 with the list)
"""
import json
import os
import re
import subprocess
import sys

IMPORT = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
    r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)",
    re.MULTILINE,
)


def dependency_name(dependency):
    """The module a manifest dependency entry names (products are named like their module here)."""
    for kind in ("byName", "target", "product"):
        if kind in dependency:
            return dependency[kind][0]
    raise ValueError(f"unknown dependency form {dependency}")


def imports(folder):
    """{module: first file importing it} for every Swift file under `folder`."""
    found = {}
    for root, _, files in os.walk(folder):
        for name in sorted(files):
            if name.endswith(".swift"):
                path = os.path.join(root, name)
                with open(path, encoding="utf-8") as source:
                    for module in IMPORT.findall(source.read()):
                        found.setdefault(module, path)
    return found


def main():
    package = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    manifest = json.loads(subprocess.run(
        ["swift", "package", "--package-path", package, "dump-package"],
        check=True, capture_output=True, text=True).stdout)
    targets = manifest["targets"]
    ours = {target["name"] for target in targets}
    products = {dependency_name(d) for t in targets for d in t["dependencies"] if "product" in d}
    checked = ours | products
    problems = []
    for target in targets:
        if target["type"] in ("system", "binary", "plugin"):
            continue
        default = "Tests" if target["type"] == "test" else "Sources"
        folder = os.path.join(package, target.get("path") or os.path.join(default, target["name"]))
        declared = {dependency_name(d) for d in target["dependencies"]}
        for module, path in sorted(imports(folder).items()):
            if module in checked and module != target["name"] and module not in declared:
                problems.append(f"{os.path.relpath(path, package)}: target {target['name']} imports "
                                f"{module} without declaring it in Package.swift")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print(f"check-imports: every import of the {len(targets)} targets is a declared dependency")
    return 0


if __name__ == "__main__":
    sys.exit(main())
