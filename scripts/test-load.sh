#!/usr/bin/env bash
# Load and fault tests (Tests/load/loadtest.py) against a release build:
#   readers  1,000 concurrent readers and 20 writers on one table, run twice:
#            no error answer, no stall, no lost write, server RSS steady
#   slow     200 slowloris clients while ordinary requests are served; idle,
#            silent and stalled connections closed after --connection-timeout
#   sse      2,000 subscribers get every change in order; readers that stop
#            reading are dropped without slowing the others; RSS bounded
# Loopback only, about three minutes on 2 cores; every server the tests start
# is stopped when they end.
#
# Usage: scripts/test-load.sh [path/to/webtableview] [readers|slow|sse|all]
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/webtableview}
scenario=${2:-all}
[ -x "$binary" ] || { echo "no binary at $binary (swift build -c release first)" >&2; exit 2; }
scripts/install-deps.sh python
# 1,000 readers or 2,000 subscribers need more descriptors than the usual 1,024,
# in this shell, in the client and in the server it starts.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt 4200 ]; then
  echo "the open-files limit is $(ulimit -n); 4,200 are needed (raise the hard limit)" >&2
  exit 2
fi
# The client stops every server it started, on any exit and on SIGTERM.
exec timeout -k 10 420 python3 Tests/load/loadtest.py "$binary" "$scenario"
