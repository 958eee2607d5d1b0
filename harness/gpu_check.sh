#!/usr/bin/env bash
# One call on a machine with a GPU: build the reference solutions (and the student
# files) for sm_90, run every check on the GPU, run compute-sanitizer over each
# lab's checks, time every lab beside CUB/Thrust and the device copy, measure what
# timing through the runner costs (harness/timing_overhead.sh; OVERHEAD=0 skips it),
# and print a short table last. Logs go to $OUT (default build/gpu-check).
#
#   harness/gpu_check.sh [--no-sanitizer] [--sizes=16,20,24,28] [--labs=01_saxpy;02_dot_product]
#
# --labs limits what is built; ONLY=0[12] (a glob on the lab number) limits the
# sanitizer and the benchmarks to some of the built labs, for a short call.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build/gpu-check}
mkdir -p "$OUT"
sanitize=1 sizes=16,20,24,28 labs=""
for arg in "$@"; do
  case $arg in
    --no-sanitizer) sanitize=0 ;;
    --sizes=*) sizes=${arg#--sizes=} ;;
    --labs=*) labs=${arg#--labs=} ;;
    *) echo "unknown option $arg" >&2; exit 2 ;;
  esac
done
build=build/gpu-check-build
jobs=$(nproc)

{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; nvcc --version | tail -1; } \
  | tee "$OUT/device.txt"

echo "== build (sm_90)"
# The preset builds for every supported GPU; this machine's H200 needs sm_90 alone.
cmake --preset gpu-solutions -B "$build" -DPPLAB_SOURCES="labs;solutions" -DPPLAB_LABS="$labs" \
  -DCMAKE_CUDA_ARCHITECTURES=90 ${PPLAB_CMAKE_ARGS:-} > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
# Keep going past a lab that fails to build: the others are still checked and timed.
cmake --build "$build" -j "$jobs" -- -k 0 >> "$OUT/build.log" 2>&1 || grep -m20 -B2 -A8 "error" "$OUT/build.log"

echo "== reference checks on the GPU"
ctest --test-dir "$build" --label-regex "ref$" -j 8 --output-on-failure > "$OUT/ctest.log" 2>&1
checks_status=$?
tail -n 4 "$OUT/ctest.log"

sanitizer_rows=""
if [ "$sanitize" = 1 ] && command -v compute-sanitizer > /dev/null; then
  echo "== compute-sanitizer (memcheck, racecheck, synccheck) over the reference checks"
  for binary in "$build"/bin/lab${ONLY:-}*_ref; do
    lab=$(basename "$binary")
    for tool in memcheck racecheck synccheck; do
      # Large inputs are slow under the sanitizer; the edge sizes are what it needs.
      PPLAB_LARGE_N=65536 timeout 300 compute-sanitizer --tool "$tool" --error-exitcode 99 \
        "$binary" > "$OUT/sanitizer-$lab-$tool.log" 2>&1
      status=$?
      errors=$(grep -c "========= .*\(Error\|Invalid\|Race\|Barrier\)" "$OUT/sanitizer-$lab-$tool.log")
      sanitizer_rows+="$lab $tool status=$status errors=$errors"$'\n'
    done
  done
  cat "$OUT"/sanitizer-*.log > "$OUT/sanitizer.log"; rm -f "$OUT"/sanitizer-*.log
fi

echo "== benchmarks (reference beside CUB/Thrust and the copy)"
# One JSON line per measurement in bench.jsonl; each lab gets a time limit so one slow
# lab cannot use up the whole call.
bench_status=0
for binary in "$build"/bin/lab${ONLY:-}*_ref_bench; do
  echo "-- $(basename "$binary")" >> "$OUT/bench.log"
  timeout "${BENCH_LIMIT:-120}" "$binary" --sizes="$sizes" --repeats="${REPEATS:-10}" \
    >> "$OUT/bench.jsonl" 2>> "$OUT/bench.log" || { bench_status=1; echo "   (failed or timed out)" >> "$OUT/bench.log"; }
done

overhead_status=0
if [ "${OVERHEAD:-1}" = 1 ]; then
  echo "== the runner's overhead on the timing (reference in process vs through its runner, 2^24)"
  OUT="$OUT/timing-overhead" harness/timing_overhead.sh "$build" 24 > "$OUT/timing_overhead.txt" 2>&1
  overhead_status=$?
fi

echo
echo "== summary ($(date -u +%F), $(head -1 "$OUT/device.txt"))"
echo "checks: $(grep -E 'tests passed' "$OUT/ctest.log")"
[ -n "$sanitizer_rows" ] && printf "%s" "$sanitizer_rows"
grep -v "^ *$" "$OUT/bench.log" | grep -E "^--|GB/s|failed" | cut -c1-110
[ -f "$OUT/timing_overhead.txt" ] && grep -E "all variants|^lab +variant|over 5%" "$OUT/timing_overhead.txt"
[ $checks_status -eq 0 ] && [ $bench_status -eq 0 ] && [ $overhead_status -eq 0 ]
