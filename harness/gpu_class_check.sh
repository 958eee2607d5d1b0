#!/usr/bin/env bash
# One call on a machine with a GPU: grade a class with `pplab grade --submissions`, as an
# instructor would, and print its gradebook last. The class (built in the grading tree):
#   ref    every reference solution            -> every point (correctness and speed)
#   skel   every untouched skeleton            -> 0
#   slow   lab 02 correct but slow             -> correctness points, no speed points
#          (harness/tests/wrong/02_slow_atomics)
#   host   labs 03 and 10 computed on the host -> "ran on the host"
#          (harness/tests/wrong/03_host_reduce, 10_host_sort)
# Before the class, every reference check runs on the GPU (device work counted by CUPTI).
# Logs, the gradebook and the reports (grades.tar.gz) go to $OUT (default build/gpu-class).
#
#   PPLAB_CMAKE_ARGS   extra configure arguments, e.g. -DCMAKE_PREFIX_PATH=... where the
#                      header-only packages (doctest, CLI11, nlohmann-json) are not installed
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build/gpu-class}
mkdir -p "$OUT"
build=build/gpu-class-build
seconds() { date +%s; }

{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; nvcc --version | tail -1; nproc; } \
  | tee "$OUT/device.txt"

echo "== build the grading tree (labs and solutions, sm_90)"
start=$(seconds)
# shellcheck disable=SC2086  # PPLAB_CMAKE_ARGS is a list of arguments
cmake --preset grading -B "$build" -DPPLAB_BUILD_DOCS=OFF ${PPLAB_CMAKE_ARGS:-} > "$OUT/build.log" 2>&1 ||
  { tail -30 "$OUT/build.log"; exit 1; }
grep -q 'PPLAB_BACKEND=auto chose .gpu.' "$OUT/build.log" || { echo "the grading tree did not choose the GPU"; exit 1; }
cmake --build "$build" -j "$(nproc)" -- -k 0 >> "$OUT/build.log" 2>&1 || grep -m20 -B2 -A8 "error" "$OUT/build.log"
build_seconds=$(( $(seconds) - start ))
echo "built in ${build_seconds} s"

echo "== reference checks on the GPU"
ctest --test-dir "$build" --label-regex 'ref$' -j 8 --output-on-failure > "$OUT/ctest.log" 2>&1
tail -n 3 "$OUT/ctest.log"
not_counted=$(grep -h -m1 "device work is not counted" "$OUT/ctest.log")

echo "== the class"
class=$build/class
rm -rf "$class"
for solution in solutions/[0-9][0-9]_*/; do
  lab=$(basename "$solution")
  mkdir -p "$class/ref/$lab" "$class/skel/$lab"
  cp "$solution"/*.cu "$class/ref/$lab/"
  cp "labs/$lab"/*.cu "$class/skel/$lab/"
done
wrong=harness/tests/wrong
mkdir -p "$class/slow/02_dot_product" "$class/host/03_reduce" "$class/host/10_merge_sort"
cp "$wrong/02_slow_atomics/dot_product.cu" "$class/slow/02_dot_product/"
cp "$wrong/03_host_reduce/reduce.cu" "$class/host/03_reduce/"
cp "$wrong/10_host_sort/merge_sort.cu" "$class/host/10_merge_sort/"
start=$(seconds)
"$build/bin/pplab" grade --submissions "$class" --out "$OUT/grades" > "$OUT/grade.log" 2>&1
grade_status=$?
grade_seconds=$(( $(seconds) - start ))
rm -rf "$OUT/grades/work"
tar -czf "$OUT/grades.tar.gz" -C "$OUT" grades && cp "$OUT/grades/gradebook.csv" "$OUT/gradebook.csv"
rm -rf "$OUT/grades"

echo
echo "== summary ($(date -u +%F), $(head -1 "$OUT/device.txt"))"
echo "grading tree built in ${build_seconds} s; reference checks: $(grep -E 'tests passed' "$OUT/ctest.log")"
[ -n "$not_counted" ] && echo "$not_counted"
echo "class graded in ${grade_seconds} s (pplab exit ${grade_status}):"
grep -E '^(ref|skel|slow|host): ' "$OUT/grade.log"
cat "$OUT/gradebook.csv" | cut -c1-200
