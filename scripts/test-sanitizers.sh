#!/usr/bin/env bash
# Runs the Swift tests under one sanitizer, in its own build folder (the suites
# each runs: Package.swift leaves the others out of its build):
#   address  AddressSanitizer with LeakSanitizer (.build-asan)
#   thread   ThreadSanitizer (.build-tsan)
# Any report fails the run. Extra arguments go to `swift test` (e.g. --filter X);
# BUILD_FLAGS (e.g. "-j 1") go to `swift build`.
# Usage: scripts/test-sanitizers.sh address|thread [swift test arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."

sanitizer=${1:-}
case "$sanitizer" in
  address) scratch=.build-asan ;;
  thread)  scratch=.build-tsan ;;
  *) echo "usage: $0 address|thread [swift test arguments...]" >&2; exit 2 ;;
esac
shift
# TableDatabaseTests start a private PostgreSQL cluster: installed here, so
# they must run (a plain swift test skips them where PostgreSQL is missing).
scripts/install-deps.sh build replicas
export WEBTABLEVIEW_REQUIRE_POSTGRES=1

# The package then has only the targets whose tests this sanitizer runs
# (Package.swift says which, and why).
export WEBTABLEVIEW_SANITIZER=$sanitizer

start=$SECONDS
swift build ${BUILD_FLAGS:-} --build-tests --sanitize="$sanitizer" --scratch-path "$scratch"
built=$SECONDS

# An instrumented server is several times slower: the test helpers' waits
# for it are stretched (MicroHTTPTesting's TestTimeouts), and the model's
# random property tests run a quarter of their seeds (SeededRandom's
# PropertyRuns; all of them run in make test's plain swift test).
export WEBTABLEVIEW_TEST_TIMEOUT_SCALE=${WEBTABLEVIEW_TEST_TIMEOUT_SCALE:-4}
export WEBTABLEVIEW_PROPERTY_SCALE=${WEBTABLEVIEW_PROPERTY_SCALE:-0.25}
# The Swift runtime's own crash backtracer reads other threads' stacks, which
# ASan reports as an error of its own; let the sanitizer report crashes.
export SWIFT_BACKTRACE=enable=no
# Every process the tests start writes its reports to files here too (the
# servers' own standard error is often not kept): any file found fails the run.
reports=$PWD/$scratch/sanitizer-reports
rm -rf "$reports" && mkdir -p "$reports"
preload=
case "$sanitizer" in
  address)
    # XCTest's runner leaks a few objects of its own when a test bundle has no
    # XCTest cases; the suppressions name that library only.
    export ASAN_OPTIONS="detect_leaks=1:log_path=$reports/asan:${ASAN_OPTIONS:-}"
    export LSAN_OPTIONS="suppressions=$PWD/scripts/sanitizers/lsan-suppressions.txt:print_suppressions=0:${LSAN_OPTIONS:-}"
    ;;
  thread)
    # Synchronization.Mutex hands contended locks over where TSan cannot see
    # it; tsan-mutex.c tells TSan (see there), wrapping the toolchain's
    # functions by mangled name: the run stops here if they are gone.
    scripts/sanitizers/check-tsan-mutex.sh
    preload=$PWD/$scratch/tsan-mutex.so
    clang -shared -fPIC -O2 -o "$preload" scripts/sanitizers/tsan-mutex.c
    export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:log_path=$reports/tsan:${TSAN_OPTIONS:-}"
    ;;
esac
status=0
LD_PRELOAD="$preload${LD_PRELOAD:+:$LD_PRELOAD}" \
  swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" "$@" ||
  status=$?
if compgen -G "$reports/*" >/dev/null; then
  for report in "$reports"/*; do
    echo "test-sanitizers: $sanitizer report of a process, $report:"
    cat "$report"
  done
  exit 1
fi
[ "$status" -eq 0 ] || exit "$status"
echo "test-sanitizers: $sanitizer clean; build $((built - start)) s, tests $((SECONDS - built)) s"
