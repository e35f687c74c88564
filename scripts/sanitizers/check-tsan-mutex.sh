#!/usr/bin/env bash
# Fails loudly when the Swift toolchain's Synchronization library no longer
# exports a function tsan-mutex.c wraps (by mangled name): the shim would then
# wrap nothing, and ThreadSanitizer would again report every contended Mutex
# as a data race (docs/ARCHITECTURE.md, Concurrency: "ThreadSanitizer and Synchronization.Mutex").
# The names are read from the #define lines of tsan-mutex.c, the one place
# they are written.
# Usage: scripts/sanitizers/check-tsan-mutex.sh [LIBRARY]
#   LIBRARY defaults to libswiftSynchronization.so of the toolchain `swiftc` runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
library=${1:-}
if [ -z "$library" ]; then
  runtime=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["paths"]["runtimeLibraryPaths"][0])')
  library=$runtime/libswiftSynchronization.so
fi
if [ ! -r "$library" ]; then
  echo "check-tsan-mutex: no Synchronization library at $library" >&2
  exit 1
fi
names=$(sed -n 's/^#define [A-Z_]* "\(\$s15Synchronization[^"]*\)"$/\1/p' "$here/tsan-mutex.c")
if [ "$(echo "$names" | grep -c .)" -ne 3 ]; then
  echo "check-tsan-mutex: expected the 3 mangled names in tsan-mutex.c, found: $names" >&2
  exit 1
fi
exported=$(nm -D --defined-only "$library" | awk '{print $NF}')
missing=0
for name in $names; do
  if ! grep -qxF -- "$name" <<<"$exported"; then
    echo "check-tsan-mutex: $library no longer exports $name ($(swift demangle --compact "$name" 2>/dev/null || echo '?'))" >&2
    missing=$((missing + 1))
  fi
done
if [ "$missing" -gt 0 ]; then
  echo "check-tsan-mutex: scripts/sanitizers/tsan-mutex.c wraps functions this toolchain does not have;" \
    "update its names to the ones Synchronization's Mutex calls now (nm -D $library | grep MutexHandle)" >&2
  exit 1
fi
echo "check-tsan-mutex: $library exports the 3 functions tsan-mutex.c wraps"
