#!/usr/bin/env bash
# The suites `make test` runs after the Swift tests, in two lanes side by side,
# then the load test alone. Two cores are kept busy: one lane is Swift builds
# (the release server first, then a generated client, AddressSanitizer,
# ThreadSanitizer, the fuzzers), the other mostly servers and clients waiting on
# sockets, PostgreSQL, podman and Chromium (the Swift client's tests among
# them, and the container image made around the release binary, which the
# other lane built by then; README.md, "How make test runs"). Nothing but
# builds is left for the end, when one lane has finished: a suite that waits
# (the container's) would leave a core idle there. The load test times its
# clients against the server's timeouts, so it runs when nothing else does.
#
# Each suite's output goes to its own log, LOGS/NAME.log; a suite that passes
# prints one line with its time and its last line, one that fails prints its
# whole log. A lane stops at its first failure; the other lane runs to its end,
# so that one run shows every failure. The summary lists each suite's time and,
# last (where a CI page that shows only the end of a run still has them), the
# lines of each failed suite's log that name a failure. Before those, the
# table of the lanes (scripts/test-lanes.sh): make test's own, these two and
# the load test, each with its seconds and its outcome, and the whole run's.
# Usage: scripts/test-suites.sh   (from make test, after its debug build)
set -uo pipefail
cd "$(dirname "$0")/.."

logs=${WEBTABLEVIEW_TEST_LOGS:-.build/test-logs}
rm -rf "$logs" && mkdir -p "$logs"
started=$SECONDS
# Run alone, not from make test: the lanes' table is this script's own.
if [ -z "${WEBTABLEVIEW_TEST_LANES:-}" ]; then
  export WEBTABLEVIEW_TEST_LANES=$logs/lanes
  scripts/test-lanes.sh start
fi

# run NAME COMMAND...: runs one suite with its output in its log.
run() {
  local name=$1 start=$SECONDS status
  shift
  printf '%s\n' "$*" >"$logs/$name.log"
  "$@" >>"$logs/$name.log" 2>&1
  status=$?
  printf '%s %d\n' "$name" $((SECONDS - start)) >>"$logs/times"
  if [ "$status" -eq 0 ]; then
    printf 'passed  %-20s %4d s  %s\n' "$name" $((SECONDS - start)) "$(tail -n 1 "$logs/$name.log" | cut -c1-120)"
  else
    printf 'FAILED  %-20s %4d s  (exit %d); its log, %s:\n' "$name" $((SECONDS - start)) "$status" "$logs/$name.log"
    sed 's/^/    /' "$logs/$name.log"
    failures "$name" >>"$logs/failures"
  fi
  return "$status"
}

# failures NAME: the first lines of a failed suite's log that name a failure —
# a failed Swift test or expectation, a sanitizer's report, a failed pytest
# case, a compiler error — each prefixed with the suite's name.
failures() {
  grep -aE '✘|error:|ERROR|WARNING: ThreadSanitizer|^FAILED|Error [0-9]+$' "$logs/$1.log" |
    grep -av '✘ Test run with' | cut -c1-300 | head -n 40 | sed "s/^/    $1: /"
}

# lane NAME COMMAND...: runs one lane and records its time and exit status.
lane() {
  local name=$1 start=$SECONDS status
  shift
  "$@"
  status=$?
  scripts/test-lanes.sh record "$name" $((SECONDS - start)) "$status"
  return "$status"
}

# Each suite is its Makefile target, so that `make test` runs exactly what
# `make test-NAME` does (their `build` step finds the debug build done).
suite() {
  ${MAKE:-make} -s --no-print-directory "$@"
}

builds() {
  run release suite release-server &&
    run openapi-client suite test-openapi-client &&
    run sanitizers suite test-sanitizers &&
    run fuzz suite test-fuzz
}

servers() {
  run openapi suite test-openapi &&
    run redbot suite test-redbot &&
    run docs suite test-docs &&
    run csv-reference suite test-csv-reference &&
    run scripts suite test-scripts &&
    run schemathesis suite test-schemathesis &&
    run crash suite test-crash &&
    run client suite test-client &&
    run replicas suite test-replicas &&
    run container suite container-test &&
    run browser suite test-browser
}

lane builds builds &
builds_lane=$!
lane servers servers &
servers_lane=$!
wait "$builds_lane"
builds_status=$?
wait "$servers_lane"
servers_status=$?

status=1
if [ "$builds_status" -eq 0 ] && [ "$servers_status" -eq 0 ]; then
  lane load run load suite test-load && status=0
else
  scripts/test-lanes.sh record load 0 -
fi

echo "suites (seconds; the two lanes ran side by side):"
sed 's/^/    /' "$logs/times"
echo "    all $((SECONDS - started))"
scripts/test-lanes.sh table
if [ -s "$logs/failures" ]; then
  echo "what failed (from each failed suite's log; the whole log is above):"
  cat "$logs/failures"
fi
exit "$status"
