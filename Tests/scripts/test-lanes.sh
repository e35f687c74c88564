#!/usr/bin/env bash
# scripts/test-lanes.sh: a lane's step keeps its output and its exit status, a
# failed step prints the lanes' table before make stops, a lane of several
# steps is one row that fails if one step did, a lane that did not run says so,
# and the table's own status says whether every lane passed.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
lanes="$here/scripts/test-lanes.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export WEBTABLEVIEW_TEST_LANES="$work/lanes"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# row LANE: the table's row of LANE in $work/out, its cells split by spaces.
row() { grep -E "^    $1 " "$work/out" | tr -s ' ' | sed 's/^ //'; }

# Passing steps: their output as it comes, status 0, one row for two steps of a lane.
"$lanes" start
"$lanes" run swift echo "built" >"$work/out" || fail "a passing step failed"
grep -qx "built" "$work/out" || fail "the step's output is not passed on: $(cat "$work/out")"
"$lanes" run swift true >"$work/out" || fail "a passing step failed"
[ ! -s "$work/out" ] || fail "a passing step printed the table: $(cat "$work/out")"
status=0; "$lanes" table >"$work/out" || status=$?
[ "$status" -eq 0 ] || fail "the table of passed lanes exits $status"
[ "$(grep -c '^    swift ' "$work/out")" -eq 1 ] || fail "two steps of one lane are not one row: $(cat "$work/out")"
row swift | grep -Eq '^swift [0-9]+ passed$' || fail "swift's row: $(row swift)"
row total | grep -Eq '^total [0-9]+ passed$' || fail "total's row: $(row total)"

# A failing step: its own status, and the table printed, the lane and the total failed.
status=0; "$lanes" run checks sh -c 'echo checking; exit 3' >"$work/out" || status=$?
[ "$status" -eq 3 ] || fail "status $status, expected the step's 3"
grep -qx "checking" "$work/out" || fail "the failed step's output is not passed on"
row checks | grep -Eq '^checks [0-9]+ FAILED$' || fail "checks' row: $(row checks)"
row swift | grep -Eq '^swift [0-9]+ passed$' || fail "swift's row after a failure elsewhere: $(row swift)"
row total | grep -Eq '^total [0-9]+ FAILED$' || fail "total's row after a failure: $(row total)"

# A lane of a passing and a failing step fails; a lane that did not run says so.
"$lanes" start
"$lanes" record builds 12 0
"$lanes" record builds 30 1
"$lanes" record load 0 -
status=0; "$lanes" table >"$work/out" || status=$?
[ "$status" -eq 1 ] || fail "the table of a failed lane exits $status"
row builds | grep -Eq '^builds 42 FAILED$' || fail "builds' row: $(row builds)"
row load | grep -Eq '^load - not run$' || fail "load's row: $(row load)"
[ "$(grep -c '^    ' "$work/out")" -eq 4 ] || fail "start did not empty the table: $(cat "$work/out")"

[ "$failures" -eq 0 ] && echo "test-lanes: 3 passed, 0 failed"
[ "$failures" -eq 0 ]
