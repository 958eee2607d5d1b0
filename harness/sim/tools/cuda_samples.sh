#!/bin/sh
# Build and run NVIDIA cuda-samples with simcc, unmodified, and print one line per
# sample: name, result, wall seconds, CPU seconds (user + sys). The samples are not
# part of this project: fetch github.com/NVIDIA/cuda-samples somewhere else first.
#
#   cuda_samples.sh SAMPLES_DIR SIMCC WORK_DIR [LIMIT_SECONDS] [sample ...]
#
# SAMPLES_DIR is the repository's root (holding Common/ and Samples/), WORK_DIR a
# scratch folder for the programs and logs (WORK_DIR/<sample>.build.log, .run.log).
# Each sample is built as `simcc -O2 -I Common <its .cu and .cpp files> -o prog` and
# run from its own folder (eigenvalues reads data/ there) with at most LIMIT_SECONDS
# of CPU time (user + sys of all its threads; default 120, i.e. 60 s on 2 cores):
# on a shared machine the wall clock measures the neighbours. The wall clock is
# capped at ten times that. "pass" means it exited with status 0 and printed no failure.
set -u
[ $# -ge 3 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
root=$(cd "$1" && pwd); simcc=$2; work=$3; limit=${4:-120}
shift 3; [ $# -gt 0 ] && shift
mkdir -p "$work"; work=$(cd "$work" && pwd)

# The 28 samples of the compatibility yardstick (harness/sim/README.md).
all="vectorAdd matrixMul reduction scan shfl_scan histogram mergeSort sortingNetworks
transpose convolutionSeparable eigenvalues BlackScholes simpleStreams asyncAPI
simpleVoteIntrinsics simpleAtomicIntrinsics threadFenceReduction radixSortThrust
UnifiedMemoryPerf simpleCooperativeGroups reductionMultiBlockCG simpleTemplates
simplePrintf clock simpleAssert simpleZeroCopy simpleOccupancy scalarProd"
[ $# -gt 0 ] && all="$*"

printf '%-24s %-12s %9s %9s\n' sample result wall_s cpu_s
for s in $all; do
  dir=$(ls -d "$root"/Samples/*/"$s" 2>/dev/null | head -n 1)
  if [ -z "$dir" ]; then printf '%-24s %-12s\n' "$s" "not-found"; continue; fi
  prog="$work/$s"
  srcs=$(cd "$dir" && ls ./*.cu ./*.cpp 2>/dev/null)
  if ! (cd "$dir" && "$simcc" -O2 -I "$root/Common" $srcs -o "$prog") > "$work/$s.build.log" 2>&1; then
    printf '%-24s %-12s\n' "$s" "build-fails"; continue
  fi
  (cd "$dir" && ulimit -t "$limit" && /usr/bin/time -f '%e %U %S' -o "$work/$s.time" \
     timeout "$((limit * 10))" "$prog") > "$work/$s.run.log" 2>&1
  rc=$?
  # /usr/bin/time appends "Command exited with non-zero status N" before the figures.
  set -- $(tail -n 1 "$work/$s.time")
  cpu=$(echo "$2 + $3" | bc)
  # The CPU limit ends it with SIGXCPU or SIGKILL (128 + 24, 128 + 9), the wall-clock cap with 124.
  if [ $rc -eq 152 ] || [ $rc -eq 137 ] || [ $rc -eq 124 ]; then result=over-limit
  elif [ $rc -ne 0 ]; then result="fails($rc)"
  elif grep -q -E 'Test failed|FAILED|FAIL$' "$work/$s.run.log"; then result=fails
  else result=pass; fi
  printf '%-24s %-12s %9s %9s\n' "$s" "$result" "$1" "$cpu"
done
