#!/usr/bin/env bash
# scripts/apt-retry.sh against a stand-in apt-get: it waits while another apt
# holds a lock (the lists lock, which DPkg::Lock::Timeout does not cover), gives
# up after its limit, and fails at once, with apt's message, on any other error.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/apt-retry.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The stand-in fails with apt's lock message while $work/held exists (counting
# its calls), fails with another error when $work/broken exists, else succeeds.
cat >"$work/apt-get" <<'FAKE'
#!/usr/bin/env bash
dir=$(dirname "$0")
echo "$*" >>"$dir/calls"
if [ -e "$dir/broken" ]; then echo "E: The repository is not signed." >&2; exit 100; fi
if [ -e "$dir/held" ]; then
  count=$(cat "$dir/held"); echo $((count - 1)) >"$dir/held"
  [ "$count" -le 1 ] && rm -f "$dir/held"
  echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2
  exit 100
fi
exit 0
FAKE
chmod +x "$work/apt-get"
export APT_GET="$work/apt-get" APT_LOCK_RETRY_SECONDS=0

# Held for three tries, then free: the fourth try succeeds.
echo 3 >"$work/held"
if apt_get update -qq 2>"$work/err"; then
  [ "$(wc -l <"$work/calls")" -eq 4 ] || fail "expected 4 tries, got $(wc -l <"$work/calls")"
  grep -q "waiting for it" "$work/err" || fail "no word about waiting: $(cat "$work/err")"
  grep -q -- "-o DPkg::Lock::Timeout=600 update -qq" "$work/calls" || fail "arguments: $(head -1 "$work/calls")"
else
  fail "apt_get gave up while the lock was only held for a while: $(cat "$work/err")"
fi

# Held for good: gives up after the limit with apt's own message.
rm -f "$work/calls"; echo 1000 >"$work/held"
if APT_LOCK_WAIT_SECONDS=0 apt_get update -qq 2>"$work/err"; then
  fail "apt_get succeeded while the lock stayed held"
else
  grep -q "Could not get lock" "$work/err" || fail "apt's message is not shown: $(cat "$work/err")"
fi
rm -f "$work/held"

# Another error: no retry, apt's message, its status.
rm -f "$work/calls"; touch "$work/broken"
status=0; apt_get update -qq 2>"$work/err" || status=$?
[ "$status" -eq 100 ] || fail "status $status, expected apt's 100"
[ "$(wc -l <"$work/calls")" -eq 1 ] || fail "retried an error that is not a lock"
grep -q "not signed" "$work/err" || fail "apt's message is not shown"

[ "$failures" -eq 0 ] && echo "apt-retry: 3 passed, 0 failed"
[ "$failures" -eq 0 ]
