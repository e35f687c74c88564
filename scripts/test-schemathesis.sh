#!/usr/bin/env bash
# Property-based API testing with schemathesis (PyPI) against the served
# /api/openapi.json: every operation, positive and negative cases, every check
# (no 5xx, documented status codes, content types and headers, response bodies
# that conform to their schema, invalid input refused, valid input accepted,
# 405 for undeclared methods). The event stream never ends, so it is checked
# here by hand instead (its 200, 400 and 404 answers). Bounded in time (about
# two minutes); the server started here is stopped on every exit, and must
# still be alive at the end and stop cleanly.
#
# Usage: scripts/test-schemathesis.sh [path/to/webtableview]
#   MAX_EXAMPLES=N  cases per operation and phase (default 15)
#   SEED=N          hypothesis seed (default: random, printed)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/debug/webtableview}
max_examples=${MAX_EXAMPLES:-15}
seed=${SEED:-$RANDOM}
[ -x "$binary" ] || { echo "no binary at $binary (build first)" >&2; exit 2; }
command -v curl >/dev/null || scripts/install-deps.sh build
if ! command -v st >/dev/null || ! python3 -c 'import schemathesis' 2>/dev/null; then
  python3 -m pip install -q --disable-pip-version-check 'schemathesis>=4,<5'
fi

work=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
"$binary" serve --port 0 --log-level warning >"$work/out" 2>"$work/err" &
pid=$!
for _ in $(seq 100); do grep -q listening "$work/out" && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$work/out")
[ -n "$url" ] || { echo "server did not start"; cat "$work/err"; exit 1; }

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The event stream, by hand: documented answers and content types.
status_type() { curl -s -o /dev/null -m 3 -w '%{http_code} %{content_type}' "$@" || true; }
got=$(status_type "$url/api/tables/countries/events")
[[ $got == "200 text/event-stream"* ]] || fail "GET events: $got"
got=$(curl -sN -m 2 "$url/api/tables/countries/events?since=0" | head -c 200 || true)
# A stream says it is connected at once (docs/API.md); an unchanged table sends nothing more.
[[ $got == ": connected"$'\n'"retry: "* ]] || fail "GET events?since=0 began with: ${got:0:80}"
got=$(status_type "$url/api/tables/no-such-table/events")
[[ $got == "404 application/problem+json"* ]] || fail "GET events of an unknown table: $got"
got=$(status_type "$url/api/tables/countries/events?since=x")
[[ $got == "400 application/problem+json"* ]] || fail "GET events?since=x: $got"
got=$(status_type -X TRACE "$url/api/tables/countries/events")
[[ $got == "405 application/problem+json"* ]] || fail "TRACE events: $got"
stream_cases=5

echo "schemathesis: seed $seed, $max_examples examples per operation and phase"
set +e
# Run from the scratch folder: schemathesis leaves a .schemathesis/ cache where it runs.
here=$PWD
(cd "$work" && SCHEMATHESIS_HOOKS=schemathesis_hooks PYTHONPATH="$here/Tests/load${PYTHONPATH:+:$PYTHONPATH}" \
timeout 420 st --config-file "$here/Tests/load/schemathesis.toml" run "$url/api/openapi.json" \
  --checks all --exclude-checks positive_data_acceptance,negative_data_rejection --exclude-operation-id streamEvents \
  --max-examples "$max_examples" --seed "$seed" --request-timeout 10 \
  --max-response-time 5 --no-color --output-truncate true >"$work/st.txt" 2>&1)
st_status=$?
set -e
sed -n '/^=* FAILURES =*$/,$p' "$work/st.txt" | head -300
[ "$st_status" -eq 0 ] || fail "schemathesis exited with $st_status"

operations=$(sed -n 's/^ *Tested: *\([0-9]*\).*/\1/p' "$work/st.txt" | tail -1)
cases=$(sed -n 's/^ *\([0-9]*\) generated.*/\1/p' "$work/st.txt" | tail -1)
found=$(sed -n 's/.* found \([0-9]*\) unique failures.*/\1/p' "$work/st.txt" | tail -1)
[ -n "$operations" ] && [ -n "$cases" ] || { tail -40 "$work/st.txt"; fail "cannot read the schemathesis summary"; }

# No crash: the server still answers, then stops cleanly on SIGTERM.
curl -fsS -m 5 "$url/healthz" >/dev/null || fail "the server no longer answers /healthz"
kill -TERM "$pid"
stopped=
for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || { stopped=1; break; }; sleep 0.1; done
if [ -n "$stopped" ]; then
  wait "$pid"; code=$?; pid=
  [ "$code" -eq 0 ] || fail "the server exited with $code after SIGTERM"
else
  fail "the server did not stop within 15 s of SIGTERM"
fi
if grep -iE "fatal|crash|assertion" "$work/err"; then fail "the server logged the above"; fi

total_failures=$((failures + ${found:-0}))
echo "schemathesis: $((operations + 1)) operations, $((cases + stream_cases)) cases, $total_failures failures"
[ "$failures" -eq 0 ]
