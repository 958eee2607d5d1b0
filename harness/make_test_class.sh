#!/usr/bin/env bash
# Writes a class folder for `pplab grade --submissions`, one folder per student:
#   ref    every reference solution            -> every point
#   skel   every untouched skeleton            -> 0
#   slow   lab 02 correct but slow (02_slow_atomics)          -> no speed points on a GPU
#   host   labs 03 and 10 computed on the host (03_host_reduce, 10_host_sort) -> "ran on the host"
#   race   labs 02, 05 and 12 with races a GPU usually hides
#          (02_unrolled_last_warp, 05_in_place, 12_missing_syncwarp) -> they fail on the emulator
#   logic  lab 03 with an off-by-one in the main-steps kernel, which a GPU's aligned
#          allocations never reach (03_main_steps_off_by_one) -> fails at both alignments
# The broken files come from the known-wrong suite, harness/labs/NN_name/wrong/<case>/.
#
#   harness/make_test_class.sh DIR
set -euo pipefail
cd "$(dirname "$0")/.."
class=${1:?usage: make_test_class.sh DIR}
rm -rf "$class"
for solution in solutions/[0-9][0-9]_*/; do
  lab=$(basename "$solution")
  mkdir -p "$class/ref/$lab" "$class/skel/$lab"
  cp "$solution"/*.cu "$class/ref/$lab/"
  cp "labs/$lab"/*.cu "$class/skel/$lab/"
done
# student case...: each known-wrong case into the student's folder for its lab
add() {
  local student=$1 case lab
  shift
  for case in "$@"; do
    lab=$(basename "$(dirname "$(ls solutions/"${case:0:2}"_*/*.cu)")")
    mkdir -p "$class/$student/$lab"
    cp harness/labs/"$lab"/wrong/"${case:3}"/*.cu "$class/$student/$lab/"
  done
}
add slow 02_slow_atomics
add host 03_host_reduce 10_host_sort
add race 02_unrolled_last_warp 05_in_place 12_missing_syncwarp
add logic 03_main_steps_off_by_one
