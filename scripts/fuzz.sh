#!/usr/bin/env bash
# Builds the libFuzzer harnesses in Fuzz/ with AddressSanitizer and runs each
# for the given time, starting from its seed corpus in Fuzz/Corpus/<harness>/.
# What a run discovers is kept in Fuzz/.build/corpus/<harness>/ for the next
# run; a crash, leak, timeout or broken invariant fails the script and leaves
# the input in Fuzz/.build/crashes/ (replay: Fuzz/.build/debug/Fuzz<Name> FILE).
# Usage: scripts/fuzz.sh [seconds-per-harness (300)] [harness...]
#        harnesses: decode batch diff http framing (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-300}
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=(decode batch diff http framing)
scripts/install-deps.sh build

scratch=Fuzz/.build
start=$SECONDS
# The coverage -sanitize=fuzzer gives, on everything; libFuzzer itself is linked
# into the harnesses only (Fuzz/Package.swift), not into the build plugin's tool
# (docs/RELIABILITY.md, Fuzzing).
swift build --package-path Fuzz --scratch-path "$scratch" -Xswiftc -sanitize=address \
  -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp -Xswiftc -use-ld=lld
echo "fuzz: built in $((SECONDS - start)) s"

# Let libFuzzer report crashes: the Swift runtime's own backtracer would read
# other threads' stacks, which ASan reports as an error of its own.
export SWIFT_BACKTRACE=enable=no
declare -A names=([decode]=FuzzDecode [batch]=FuzzBatch [diff]=FuzzDiff [http]=FuzzHTTP [framing]=FuzzFraming)
summary=()
for harness in "${harnesses[@]}"; do
  name=${names[$harness]:?unknown harness $harness (decode, batch, diff, http, framing)}
  corpus=$scratch/corpus/$harness
  mkdir -p "$corpus" "$scratch/crashes"
  dictionary=()
  case "$harness" in
    decode|batch) dictionary=(-dict=Fuzz/json.dict) ;;
    framing) dictionary=(-dict=Fuzz/http.dict) ;;
  esac
  log=$scratch/$harness.log
  echo "fuzz: $harness for $seconds s"
  status=0
  "$scratch/debug/$name" "${dictionary[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$scratch/crashes/$harness-" "$corpus" "Fuzz/Corpus/$harness" \
    >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  line=$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' || true)
  summary+=("$(printf '%-7s %10s executions in %4s s  %s' "$harness" "${runs:-?}" "$seconds" "$line")")
  if [ "$status" -ne 0 ]; then
    tail -n 40 "$log" >&2
    echo "fuzz: $harness FAILED (exit $status); log $log, input in $scratch/crashes/" >&2
    printf '%s\n' "${summary[@]}"
    exit 1
  fi
done
printf '%s\n' "${summary[@]}"
echo "fuzz: no crash in $((SECONDS - start)) s"
