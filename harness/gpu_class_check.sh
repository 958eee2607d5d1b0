#!/usr/bin/env bash
# One call on a machine with a GPU: grade a class with `pplab grade --submissions`, as an
# instructor would, and print its gradebook last. The class is harness/make_test_class.sh's
# (references, skeletons, a slow solution, host work, races, a logic error); pplab grade
# runs each lab's GPU checks under compute-sanitizer too.
# Before the class, every reference check runs on the GPU (device work counted by CUPTI;
# REFERENCE_CHECKS=0 leaves this out).
# Logs, the gradebook and the reports (grades.tar.gz) go to $OUT (default build/gpu-class).
# REDTEAM=1 grades the red-team suite first (redteam.log, its gradebook), and only that
# unless CLASS_ARGS is set. CLASS_ARGS="--students 100 --labs 02" grades a class from
# harness/make_class.py instead of make_test_class.sh's; CLASS_COMMAND="script" has that
# script write the class into the folder it is given (e.g. the red team's
# make_memo_class.py). CLASS_LIMIT=300 stops the batch after 300 s as a time limit's
# SIGTERM would, keeping what it finished. BENCH_WALL=1 first times each
# lab's reference as grading times a student (the checker's timer through its runner, the
# points file's sizes and repeats) and prints each one's wall time and verdict.
#
#   PPLAB_CMAKE_ARGS   extra configure arguments, e.g. -DCMAKE_PREFIX_PATH=... where the
#                      header-only packages (doctest, CLI11, nlohmann-json) are not installed
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build/gpu-class}
mkdir -p "$OUT"
build=build/gpu-class-build
seconds() { date +%s; }
# What an attack could leave behind on the host: processes, memory, /tmp and disk.
host_state() {
  # User processes only: the kernel's own threads (children of kthreadd, pid 2) come and
  # go with the build's I/O (an H100 run: +69 kworkers, no process of the grader's).
  echo "processes $(ps -e -o pid= -o ppid= | awk '$1 != 2 && $2 != 2' | wc -l), memory available $(awk '/MemAvailable/ {print int($2 / 1024)}' /proc/meminfo) MiB," \
       "/tmp $(du -sm /tmp 2>/dev/null | cut -f1) MiB, disk free $(df -m --output=avail . | tail -1 | tr -d ' ') MiB"
}

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

touch "$OUT/ctest.log"
if [ "${REFERENCE_CHECKS:-1}" = 1 ]; then
  echo "== reference checks on the GPU"
  ctest --test-dir "$build" --label-regex 'ref$' -j 8 --output-on-failure > "$OUT/ctest.log" 2>&1
  tail -n 3 "$OUT/ctest.log"
fi
not_counted=$(grep -h -m1 "device work is not counted" "$OUT/ctest.log")

if [ "${BENCH_WALL:-0}" = 1 ]; then
  echo "== each lab's timing as grading takes it (--sizes=16,20,24 --repeats=20 --spread=2, through the runner; lab 09 grades at 2^10-2^14)"
  for timer in "$build"/bin/lab*_ref_bench_split; do
    lab=$(basename "$timer" _ref_bench_split)
    runner="$build/bin/${lab}_ref_runner"
    start_ns=$(date +%s%N)
    PPLAB_RUNNER_COMMAND="[\"$runner\"]" "$timer" --sizes=16,20,24 --repeats=20 --spread=2 --no-compare \
      > "$OUT/bench-$lab.jsonl" 2> "$OUT/bench-$lab.log"
    status=$?
    wall_ms=$(( ($(date +%s%N) - start_ns) / 1000000 ))
    rows=$(grep -c '^{' "$OUT/bench-$lab.jsonl")
    verified=$(grep -c '"verified":true' "$OUT/bench-$lab.jsonl")
    printf '%-28s exit %d  %6d ms  %2d of %2d rows verified\n' "$lab" "$status" "$wall_ms" "$verified" "$rows" |
      tee -a "$OUT/bench-wall.txt"
  done
fi

if [ "${REDTEAM:-0}" = 1 ]; then
  # The red-team suite (harness/tests/redteam) against this GPU grader, instead of the
  # class: every attack earns nothing, the two honest students keep every point.
  echo "== the red-team suite on the GPU"
  before=$(host_state)
  start=$(seconds)
  cmake -DPPLAB="$build/bin/pplab" -DROOT="$PWD" -DATTACKS="$PWD/harness/tests/redteam" -DWORK="$PWD/$build/redteam" \
    -DBACKEND=gpu -P harness/tests/redteam/redteam_grade.cmake > "$OUT/redteam.log" 2>&1
  redteam_status=$?
  cp "$build/redteam/out/gradebook.csv" "$OUT/redteam-gradebook.csv" 2>/dev/null
  echo "red team: exit ${redteam_status} after $(( $(seconds) - start )) s ($(date -u +%F), $(head -1 "$OUT/device.txt"))"
  sleep 5  # a process an attack left behind has had time to show itself
  echo "host before: $before" | tee "$OUT/host.txt"
  echo "host after:  $(host_state)" | tee -a "$OUT/host.txt"
  grep -E 'FAILED|expected' "$OUT/redteam.log" | head -20
  cat "$OUT/redteam-gradebook.csv" 2>/dev/null | cut -c1-120
  [ -z "${CLASS_ARGS:-}${CLASS_COMMAND:-}" ] && exit $redteam_status
fi

echo "== the class"
class=$build/class
rm -rf "$class"
if [ -n "${CLASS_COMMAND:-}" ]; then
  $CLASS_COMMAND "$class" > "$OUT/make_class.log"
elif [ -n "${CLASS_ARGS:-}" ]; then
  # shellcheck disable=SC2086  # CLASS_ARGS is a list of arguments
  python3 harness/make_class.py "$class" $CLASS_ARGS > "$OUT/make_class.log"
else
  harness/make_test_class.sh "$class"
fi
start=$(seconds)
# LABS=02,05 and STUDENTS=ref,race grade a part of the class, for a short call.
# Each line of grade.log starts with the second it was printed, to see where time goes.
timeout --signal=TERM "${CLASS_LIMIT:-0}" "$build/bin/pplab" grade --submissions "$class" --out "$OUT/grades" --keep-work \
  ${LABS:+--labs "$LABS"} ${STUDENTS:+--students "$STUDENTS"} 2>&1 |
  while IFS= read -r line; do printf '%(%s)T %s\n' -1 "$line"; done > "$OUT/grade.log"
grade_status=${PIPESTATUS[0]}
grade_seconds=$(( $(seconds) - start ))

rm -rf "$OUT/grades/work"
# Where each student's time went, small enough to bring back without the tarball: each
# part of each lab ("02_dot_product: checks (8 in 1 processes) done in 4 s", "timed in
# 3 s: the student's cases 0.8 s with the GPU to itself ...").
grep -H -E "done in [0-9]+ s|timed in [0-9.]+ s" "$OUT"/grades/*/grade.log 2>/dev/null |
  sed "s|^$OUT/grades/||; s|/grade.log:| |" > "$OUT/lab_parts.txt"
tar -czf "$OUT/grades.tar.gz" -C "$OUT" grades && cp "$OUT/grades/gradebook.csv" "$OUT/gradebook.csv"

echo
echo "== summary ($(date -u +%F), $(head -1 "$OUT/device.txt"))"
[ -f "$OUT/bench-wall.txt" ] && cat "$OUT/bench-wall.txt"
echo "grading tree built in ${build_seconds} s; reference checks: $(grep -E 'tests passed' "$OUT/ctest.log")"
[ -n "$not_counted" ] && echo "$not_counted"
echo "class graded in ${grade_seconds} s (pplab exit ${grade_status}):"
grep -E "^[0-9]+ \[[0-9]+/[0-9]+\] [^ ]+: [0-9]" "$OUT/grade.log" | cut -d" " -f2- | tail -15
echo "each lab's timing, and its turns alone on the GPU:"
grep -ho "[0-9][0-9]_[a-z_]*: timed in [0-9.]* s: the student's cases .*" "$OUT"/grades/*/grade.log | sort | head -40
echo "speed points and noise:"
grep -ho "[0-9.]*x the reference's time at n = 2^[0-9]*, +-[0-9.]*% noise" "$OUT"/grades/*/report.md | sort | uniq -c | head -40
echo "compute-sanitizer verdicts in the reports:"
grep -ho 'race hazard | [0-9.]* | compute-sanitizer [a-z]*: [^|]\{0,120\}\|memory error | [0-9.]* | compute-sanitizer [a-z]*: [^|]\{0,120\}' "$OUT"/grades/*/report.md | sort | uniq -c | head -20
grep -h 'did not finish\|did not run under compute-sanitizer' "$OUT"/grades/*/report.md | sort | uniq -c | head -5
cat "$OUT/gradebook.csv" | cut -c1-200
rm -rf "$OUT/grades"  # kept in grades.tar.gz
