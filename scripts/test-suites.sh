#!/usr/bin/env bash
# The suites `make test` runs after the Swift tests, in two lanes side by side,
# then the load test alone. Two cores are kept busy: one lane is mostly Swift
# builds (a generated client, AddressSanitizer, ThreadSanitizer, the container
# image), the other mostly servers waiting on sockets, PostgreSQL and Chromium
# (README.md, "How make test runs"). The load test times its clients against
# the server's timeouts, so it runs when nothing else does.
#
# Each suite's output goes to its own log, LOGS/NAME.log; a suite that passes
# prints one line with its time and its last line, one that fails prints its
# whole log. A lane stops at its first failure; the other lane runs to its end,
# so that one run shows every failure. The summary lists each suite's time.
# Usage: scripts/test-suites.sh [debug binary] [release binary]
set -uo pipefail
cd "$(dirname "$0")/.."

bin=${1:-.build/debug/webtableview}
release_bin=${2:-.build/release/webtableview}
logs=${WEBTABLEVIEW_TEST_LOGS:-.build/test-logs}
rm -rf "$logs" && mkdir -p "$logs"
started=$SECONDS

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
  fi
  return "$status"
}

# The suites' own scripts take the binaries built before them; each also
# builds what it needs when run alone (the Makefile's targets).
builds() {
  run openapi-client scripts/test-openapi-client.sh "$bin" &&
    run asan scripts/test-sanitizers.sh address &&
    run tsan scripts/test-sanitizers.sh thread &&
    run container scripts/container/test.sh
}

servers() {
  run openapi scripts/test-openapi.sh "$bin" &&
    run redbot scripts/test-redbot.sh "$bin" &&
    run docs sh -c "scripts/check-docs.py && scripts/test-docs.py '$bin'" &&
    run scripts sh -c 'for test in Tests/scripts/*.sh; do echo "$test"; "$test" || exit 1; done' &&
    run schemathesis scripts/test-schemathesis.sh "$bin" &&
    run crash scripts/test-crash.sh "$bin" &&
    run replicas scripts/test-replicas.sh &&
    run browser scripts/test-browser.sh &&
    run fuzz scripts/fuzz.sh 20 &&
    run release swift build -c release ${BUILD_FLAGS:-}
}

builds &
builds_lane=$!
servers &
servers_lane=$!
wait "$builds_lane"
builds_status=$?
wait "$servers_lane"
servers_status=$?

status=1
if [ "$builds_status" -eq 0 ] && [ "$servers_status" -eq 0 ]; then
  run load scripts/test-load.sh "$release_bin" && status=0
fi

echo "suites (seconds; the two lanes ran side by side):"
sed 's/^/    /' "$logs/times"
echo "    all $((SECONDS - started))"
exit "$status"
