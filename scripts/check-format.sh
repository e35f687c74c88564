#!/usr/bin/env bash
# Checks that every Swift file in git is formatted as .swift-format says
# (swift-format, which ships with the toolchain: `swift format`). A few seconds.
# Fix with `make format`.
# Usage: scripts/check-format.sh
set -euo pipefail
cd "$(dirname "$0")/.."
git ls-files -z '*.swift' | xargs -0 swift format lint --strict --parallel
echo "check-format: every Swift file is formatted as .swift-format says"
