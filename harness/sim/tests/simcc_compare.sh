#!/bin/sh
# Builds a .cu program with simcc, runs it, and compares its stdout with the output a
# GPU gave (or one worked out from CUDA's rules), line by line.
#
#   simcc_compare.sh SIMCC PROGRAM.cu EXPECTED WORK_DIR [KNOWN_DIFFERENCES]
#
# KNOWN_DIFFERENCES lists expected lines the emulator does not reproduce yet; each must
# still differ (a line that starts to match fails the test, so the list stays true) and
# every other line must match exactly. Prints how many lines match.
set -eu
simcc=$1 program=$2 expected=$3 work=$4 known=${5:-/dev/null}
mkdir -p "$work"
name=$(basename "$program" .cu)
"$simcc" -O2 "$program" -o "$work/$name"
"$work/$name" > "$work/$name.out"

expected_lines=$(wc -l < "$expected")
actual_lines=$(wc -l < "$work/$name.out")
if [ "$expected_lines" != "$actual_lines" ]; then
  echo "$name: $actual_lines lines of output, expected $expected_lines"
  diff "$expected" "$work/$name.out" | head -20
  exit 1
fi
# Expected and actual side by side (neither has tabs); the known lines first.
paste -d '\t' "$expected" "$work/$name.out" | awk -F '\t' -v name="$name" -v known_file="$known" '
  FILENAME == known_file { known[$0] = 1; next }
  $1 == $2 && ($1 in known) { print "now matches (remove it from the known differences): " $1; bad = 1 }
  $1 == $2 { same++ }
  $1 != $2 && ($1 in known) { listed++ }
  $1 != $2 && !($1 in known) { print "line " FNR ":\n  expected: " $1 "\n  got:      " $2; bad = 1 }
  END {
    printf "%s: %d of %d lines match", name, same, FNR
    if (listed) printf " (%d known differences)", listed
    printf "\n"
    exit bad
  }' "$known" -
