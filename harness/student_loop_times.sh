#!/usr/bin/env bash
# The student loop as the README states it, timed on this machine from a fresh clone:
#   1. the first command, `cmake --workflow --preset sim` (configure, build, every lab's
#      checks on its skeleton);
#   2. for each lab, the edit-recheck loop `cmake --build --preset sim && ctest --preset
#      sim -L labNN`, once after a comment is appended to the untouched skeleton (its
#      checks fail fast) and once with the reference solution copied in (a finished lab:
#      every check runs and passes).
# Prints a Markdown table (wall seconds; user CPU seconds of the finished lab) and the
# load average before each part, since the figures mean little on a busy machine.
#
#   harness/student_loop_times.sh [WORKDIR]   (default: a new folder under /tmp)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d /tmp/pplab-loop.XXXXXX)}
clone=$work/workbook
rm -rf "$clone"
git clone -q "$root" "$clone"
cd "$clone"
commit=$(git rev-parse --short HEAD)

# seconds(command...): runs the command, its output to loop.log, and prints "wall user"
# (the exit status is ignored: a skeleton's checks fail on purpose).
seconds() {
  /usr/bin/time -f "%e %U" -o "$work/time.txt" "$@" >> "$work/loop.log" 2>&1 || true
  tail -n 1 "$work/time.txt"  # after "Command exited with non-zero status N", when it did
}
load() { cut -d' ' -f1 /proc/loadavg; }

echo "# The student loop, $(date -u +%F), commit $commit, $(nproc) cores"
echo
echo "Load average before the first command: $(load)"
read -r wall user < <(seconds cmake --workflow --preset sim)
# The build's step count: the largest "[k/N]" total ninja printed.
steps=$(grep -o '^\[[0-9]*/[0-9]*\]' "$work/loop.log" | tr -d '[]' | cut -d/ -f2 | sort -n | tail -1)
echo "First command, \`cmake --workflow --preset sim\`: ${wall} s wall, ${user} s user CPU (${steps} build steps)"
echo
echo "Load average before the rechecks: $(load)"
echo
echo "| lab | skeleton edited, wall s | finished, wall s | finished, user CPU s |"
echo "|---|---:|---:|---:|"
for lab_dir in labs/[0-9][0-9]_*/; do
  lab=$(basename "$lab_dir")
  number=${lab%%_*}
  file=$(ls "$lab_dir"*.cu | head -1)
  recheck=(bash -c "cmake --build --preset sim && ctest --preset sim -L lab$number")
  echo "// edited" >> "$file"
  read -r edited_wall _ < <(seconds "${recheck[@]}")
  cp "solutions/$lab/$(basename "$file")" "$file"
  read -r done_wall done_user < <(seconds "${recheck[@]}")
  git checkout -q -- "$file"
  echo "| $lab | $edited_wall | $done_wall | $done_user |"
done
# The skeletons are back: leave the tree built as a student would have it.
cmake --build --preset sim >> "$work/loop.log" 2>&1 || true
echo
echo "Log: $work/loop.log"
