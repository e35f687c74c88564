#!/usr/bin/env bash
# scripts/sanitizers/check-tsan-mutex.sh: passes on the toolchain's
# Synchronization library, which exports what tsan-mutex.c wraps, and fails,
# naming each function, on a library that exports none of them (the day a
# toolchain renames them).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
check=$here/scripts/sanitizers/check-tsan-mutex.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$check" >"$work/out" 2>&1 || fail "the toolchain's library: $(cat "$work/out")"

# A library with one exported function of another name.
echo 'int unrelated(void) { return 0; }' >"$work/stand-in.c"
clang -shared -fPIC -o "$work/libstand-in.so" "$work/stand-in.c"
if "$check" "$work/libstand-in.so" >"$work/out" 2>&1; then
  fail "a library without the functions passed"
fi
for name in _lockSlow _tryLockSlow _unlockSlow; do
  grep -q "no longer exports .*$name" "$work/out" || fail "$name is not named: $(cat "$work/out")"
done

if "$check" "$work/missing.so" >"$work/out" 2>&1; then fail "a missing library passed"; fi

[ "$failures" -eq 0 ] && echo "check-tsan-mutex: ok"
exit "$failures"
