#!/usr/bin/env bash
# Crash test of `serve --journal`: ≥ 20 SIGKILL/restart cycles under random edits,
# checking that every acknowledged change survives, versions have no gap, and
# every table equals a never-killed reference server given the same requests.
# Installs what it needs (as root), binds 127.0.0.1 port 0 only, and kills
# every process it started. About a minute.
# Usage: scripts/test-crash.sh [path/to/webtableview] [crash-test.py options]
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/debug/webtableview}
shift || true

scripts/install-deps.sh build python
[ -x "$binary" ] || swift build
[ -x "$binary" ] || { echo "no executable at $binary" >&2; exit 1; }

# The test kills its servers itself; this catches an interrupted run too.
python3 scripts/crash-test.py "$binary" "$@" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null' INT TERM
wait $pid
