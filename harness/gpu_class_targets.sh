#!/usr/bin/env bash
# On a machine with a GPU: the grading figures the instructor guide quotes, from one
# grading tree (harness/gpu_class_check.sh builds it once, the later classes reuse it):
#   redteam    the red-team suite (lab 01 attacks beside two honest students)
#   memo       lab 11: the reference beside the sort memoised by a hash of its input
#   class100   100 students of lab 02 (make_class.py's default mix)
#   one        one student with all twelve labs (the references)
#   refs       the references as a class of ten, all twelve labs (ten regrades)
# Each class has a time limit (LIMIT_<name>, seconds); a class that reaches it is stopped
# as a time limit's SIGTERM would, and keeps what it finished. WHAT="memo one" runs some.
# A table last; each class's logs and reports under $OUT/<name>.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build/gpu-targets}
mkdir -p "$OUT"
what=${WHAT:-redteam memo class100 one refs}

run_class() {  # name, then the environment for gpu_class_check.sh
  local name=$1
  shift
  local start
  start=$(date +%s)
  env "$@" OUT="$OUT/$name" bash harness/gpu_class_check.sh > "$OUT/$name.log" 2>&1
  echo "$name: exit $? after $(( $(date +%s) - start )) s" | tee -a "$OUT/table.txt"
}

first=1
for name in $what; do
  # Only the first class runs the reference checks; the tree is built by then.
  checks=$([ $first = 1 ] && echo "${REFERENCE_CHECKS:-0}" || echo 0)
  first=0
  case $name in
    redteam) run_class redteam REDTEAM=1 REFERENCE_CHECKS="$checks" ;;
    memo) run_class memo REFERENCE_CHECKS="$checks" LABS=11 CLASS_LIMIT="${LIMIT_memo:-240}" \
            CLASS_COMMAND=harness/tests/redteam/timing/make_memo_class.py ;;
    class100) run_class class100 REFERENCE_CHECKS="$checks" CLASS_LIMIT="${LIMIT_class100:-480}" \
                CLASS_ARGS="--students 100 --labs 02" ;;
    one) run_class one REFERENCE_CHECKS="$checks" CLASS_LIMIT="${LIMIT_one:-300}" \
           CLASS_ARGS="--students 1 --mix right=1" ;;
    refs) run_class refs REFERENCE_CHECKS="$checks" CLASS_LIMIT="${LIMIT_refs:-600}" \
            CLASS_ARGS="--students 10 --mix right=1" ;;
    *) echo "unknown class $name" >&2; exit 2 ;;
  esac
done

echo
echo "== grading targets ($(date -u +%F), $(head -1 "$OUT"/*/device.txt 2>/dev/null | grep -v '^==' | head -1))"
cat "$OUT/table.txt"
for name in $what; do
  echo "-- $name"
  sed -n '/^== summary/,$p' "$OUT/$name.log" | grep -v "^== summary" | cut -c1-160 | head -40
done
