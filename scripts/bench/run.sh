#!/usr/bin/env bash
# `make bench`: installs what is missing (as root), builds release binaries of
# WebTableView, of the Benchmarks/ package and of the C floor, runs every
# benchmark on loopback and writes docs/PERFORMANCE.md. About 10–15 minutes
# on a fresh 2-core machine, most of it building; a few minutes once built.
#
# Usage: scripts/bench/run.sh [--quick] [--only STEP,…] [--allow-dirty]   (--quick: short
# runs, to try the script; --only: just those steps, printed, no file written;
# --allow-dirty: measure uncommitted changes, marked in the report)
set -euo pipefail
cd "$(dirname "$0")/../.."

# The report names the exact commit its figures are of: a tree with uncommitted
# changes (docs/ aside, which the bench writes) is refused before anything is
# built, unless --allow-dirty. --quick (a trial) and --only (no report) go
# ahead; a report of uncommitted changes says so loudly in its Commit line.
case " $* " in
  *" --allow-dirty "* | *" --quick "* | *" --only "*) ;;
  *)
    if [ -n "$(git status --porcelain -- . ':(exclude)docs')" ]; then
      echo "bench: uncommitted changes (git status -- . ':!docs'); commit them, or pass --allow-dirty" >&2
      exit 1
    fi
    ;;
esac

scripts/install-deps.sh bench

scratch=.build-bench
echo "bench: building (release)" >&2
swift build -c release --scratch-path "$scratch" --product webtableview
(cd Benchmarks && swift build -c release --product ModelBench && swift build -c release --product HummingbirdRow)
mkdir -p "$scratch/c"
flags=$(pkg-config --cflags --libs libmicrohttpd)
# shellcheck disable=SC2086
gcc -O2 -Wall -o "$scratch/c/mhd_floor" Benchmarks/Floor/mhd_floor.c $flags -lpthread
gcc -O2 -Wall -o "$scratch/c/sse_clients" Benchmarks/Floor/sse_clients.c
gcc -O2 -Wall -o "$scratch/c/sse_floor" -I Sources/CSendRing/include Benchmarks/Floor/sse_floor.c Sources/CSendRing/send_ring.c

# 10,000 event streams in one process, and as many in the server.
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

benchmarks=Benchmarks/.build/release
python3 -B scripts/bench/bench.py \
  --product "$scratch/release/webtableview" \
  --floor "$scratch/c/mhd_floor" \
  --hummingbird "$benchmarks/HummingbirdRow" \
  --model-bench "$benchmarks/ModelBench" \
  --sse-clients "$scratch/c/sse_clients" \
  --sse-floor "$scratch/c/sse_floor" \
  --out docs/PERFORMANCE.md \
  --raw "$scratch/bench-results.json" \
  "$@"
# The first page of a selective and of a match-all search over 1,000,000 rows (issue 44).
case " $* " in *" --quick "*) quick=--quick ;; *) quick= ;; esac
python3 -B scripts/bench/search_pages.py --product "$scratch/release/webtableview" ${quick:+"$quick"}

# Keystroke to results in the browser (scripts/bench/search_keystroke.py, run
# alone with that script): its own section of the report; not with --only.
case " $* " in *" --only "*) exit 0 ;; esac
python3 -B scripts/bench/search_keystroke.py --product "$scratch/release/webtableview" --out docs/PERFORMANCE.md ${quick:+"$quick"}
