#!/usr/bin/env bash
# The lanes of `make test` and their times. Each lane is a run of steps: the
# Makefile's own (system packages, the format and import checks, the Swift
# build and tests), then scripts/test-suites.sh's two lanes side by side and
# the load test. Every lane's time and outcome go to one file, and the table of
# them, with the time since `start`, is printed at the end of the run, whether
# it passed or failed (a failed step prints it before make stops).
#
# Usage (the file is $WEBTABLEVIEW_TEST_LANES, .build/test-lanes by default):
#   scripts/test-lanes.sh start                    a new run: the file emptied, the clock started
#   scripts/test-lanes.sh run LANE COMMAND...      runs COMMAND as a step of LANE, its output
#                                                  as it comes; exits with its status, and on a
#                                                  failure prints the table first
#   scripts/test-lanes.sh record LANE SECONDS STATUS   a step timed elsewhere (STATUS: its exit
#                                                  status, or "-" for a lane that did not run)
#   scripts/test-lanes.sh table                    prints the table; exits 1 if a lane failed
#                                                  or did not run
# A lane of several steps shows their seconds added up; it fails if one did.
set -uo pipefail

file=${WEBTABLEVIEW_TEST_LANES:-.build/test-lanes}

table() {
  local now
  now=$(date +%s)
  awk -v now="$now" '
    $1 == "start" { start = $2; next }
    {
      if (!($1 in seconds)) { order[++count] = $1; seconds[$1] = 0; result[$1] = "passed" }
      if ($3 == "-") { result[$1] = "not run"; next }
      seconds[$1] += $2
      if ($3 != 0) result[$1] = "FAILED"
    }
    END {
      failed = 0
      print "lanes (builds and servers run side by side; the total is the whole run):"
      printf "    %-10s %8s  %s\n", "lane", "seconds", "result"
      for (i = 1; i <= count; i++) {
        lane = order[i]
        if (result[lane] != "passed") failed = 1
        shown = result[lane] == "not run" ? "-" : seconds[lane]
        printf "    %-10s %8s  %s\n", lane, shown, result[lane]
      }
      printf "    %-10s %8s  %s\n", "total", start == "" ? "-" : now - start, failed ? "FAILED" : "passed"
      exit failed
    }' "$file"
}

case "${1:-}" in
  start)
    mkdir -p "$(dirname "$file")"
    echo "start $(date +%s)" >"$file"
    ;;
  run)
    [ $# -ge 3 ] || { echo "usage: $0 run LANE COMMAND..." >&2; exit 2; }
    lane=$2
    shift 2
    started=$(date +%s)
    "$@"
    status=$?
    echo "$lane $(($(date +%s) - started)) $status" >>"$file"
    if [ "$status" -ne 0 ]; then
      table
    fi
    exit "$status"
    ;;
  record)
    [ $# -eq 4 ] || { echo "usage: $0 record LANE SECONDS STATUS" >&2; exit 2; }
    echo "$2 $3 $4" >>"$file"
    ;;
  table)
    table
    ;;
  *)
    echo "usage: $0 start | run LANE COMMAND... | record LANE SECONDS STATUS | table" >&2
    exit 2
    ;;
esac
