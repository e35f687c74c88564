#!/usr/bin/env bash
# Builds the libFuzzer harnesses in Fuzz/ with AddressSanitizer and runs each
# for the given time, one per core at a time, starting from its seed corpus in
# Fuzz/Corpus/<harness>/.
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
for harness in "${harnesses[@]}"; do
  : "${names[$harness]:?unknown harness $harness (decode, batch, diff, http, framing)}"
done

# fuzz_one HARNESS: runs one harness for its time; its exit status, 0 or not,
# goes to $scratch/HARNESS.status and its output to $scratch/HARNESS.log.
fuzz_one() {
  local harness=$1 name=${names[$1]} corpus=$scratch/corpus/$1 dictionary=() status=0
  mkdir -p "$corpus" "$scratch/crashes"
  case "$harness" in
    decode|batch) dictionary=(-dict=Fuzz/json.dict) ;;
    framing) dictionary=(-dict=Fuzz/http.dict) ;;
  esac
  "$scratch/debug/$name" "${dictionary[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$scratch/crashes/$harness-" "$corpus" "Fuzz/Corpus/$harness" \
    >"$scratch/$harness.log" 2>&1 || status=$?
  echo "$status" >"$scratch/$harness.status"
}

# One harness per core at a time: each is one process on one thread.
jobs=$(nproc)
for harness in "${harnesses[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  echo "fuzz: $harness for $seconds s"
  fuzz_one "$harness" &
done
wait

summary=()
failed=()
for harness in "${harnesses[@]}"; do
  log=$scratch/$harness.log
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  line=$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' || true)
  summary+=("$(printf '%-7s %10s executions in %4s s  %s' "$harness" "${runs:-?}" "$seconds" "$line")")
  status=$(cat "$scratch/$harness.status")
  if [ "$status" -ne 0 ]; then
    tail -n 40 "$log" >&2
    echo "fuzz: $harness FAILED (exit $status); log $log, input in $scratch/crashes/" >&2
    failed+=("$harness")
  fi
done
printf '%s\n' "${summary[@]}"
[ ${#failed[@]} -eq 0 ] || exit 1
echo "fuzz: no crash in $((SECONDS - start)) s"
