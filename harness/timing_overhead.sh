#!/usr/bin/env bash
# What timing the student's code through its runner costs: each lab's reference timed
# in process (labNN_name_ref_bench, CUDA events) and by the checker's timer through the
# reference's runner (labNN_name_ref_bench_split, the way a student's code is timed), at
# one size, and the difference as a share of the in-process time. The target is at most
# 5% at 2^24. Lab 09's quadratic sort is timed at 2^16, its largest benchmark size.
#
#   harness/timing_overhead.sh [build dir, default build/gpu-solutions] [log2 size, default 24]
#
# REPEATS (default 20) sets --repeats; the raw JSON lines go to $OUT (default
# <build dir>/timing-overhead). Exits 1 when a lab is over 5% or a run failed.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/gpu-solutions}
size=${2:-24}
OUT=${OUT:-$build/timing-overhead}
mkdir -p "$OUT"
status=0
shopt -s nullglob
timers=("$build"/bin/lab*_ref_bench)
if [ ${#timers[@]} -eq 0 ]; then
  echo "no labNN_name_ref_bench in $build/bin: build the bench targets first" >&2
  exit 2
fi
for in_process in "${timers[@]}"; do
  lab=$(basename "$in_process" _ref_bench)
  split="$build/bin/${lab}_ref_bench_split"
  lab_size=$size
  [[ $lab == lab09_* && $size -gt 16 ]] && lab_size=16
  args=(--sizes="$lab_size" --repeats="${REPEATS:-20}" --no-compare)
  "$in_process" "${args[@]}" > "$OUT/$lab.in-process.jsonl" 2> "$OUT/$lab.in-process.log" || status=1
  if [ -x "$split" ]; then
    "$split" "${args[@]}" > "$OUT/$lab.through-runner.jsonl" 2> "$OUT/$lab.through-runner.log" || status=1
  else
    echo "$lab: no $split" >&2
    status=1
  fi
done

python3 - "$OUT" <<'PY' || status=1
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
def rows(path):
    found = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.startswith("{"):
                m = json.loads(line)
                found[m["variant"]] = m
    return found
over = []
print(f"{'lab':<28} {'variant':<34} {'n':>10} {'in-process ms':>14} {'through-runner ms':>18} {'overhead %':>10}  verified")
for inp in sorted(out.glob("*.in-process.jsonl")):
    lab = inp.name[: -len(".in-process.jsonl")]
    a, b = rows(inp), rows(out / f"{lab}.through-runner.jsonl")
    total_a = total_b = 0.0
    for variant, m in a.items():
        if variant not in b:
            print(f"{lab:<28} {variant or '-':<34} {m['n']:>10} {m['median_ms']:>14.4f} {'missing':>18}")
            over.append(lab)
            continue
        t = b[variant]
        total_a += m["median_ms"]
        total_b += t["median_ms"]
        pct = 100.0 * (t["median_ms"] - m["median_ms"]) / m["median_ms"] if m["median_ms"] > 0 else float("nan")
        print(f"{lab:<28} {variant or '-':<34} {m['n']:>10} {m['median_ms']:>14.4f} {t['median_ms']:>18.4f} "
              f"{pct:>10.1f}  {m['verified'] and t['verified']}")
        if not t["verified"]:
            over.append(lab)
    if total_a > 0:
        pct = 100.0 * (total_b - total_a) / total_a
        print(f"{lab:<28} {'(all variants)':<34} {'':>10} {total_a:>14.4f} {total_b:>18.4f} {pct:>10.1f}")
        if pct > 5.0:
            over.append(lab)
print()
print("over 5% (or unverified, or missing): " + (", ".join(sorted(set(over))) if over else "none"))

# Through the runner, a repeat that follows a checked one (a download and a comparison,
# the device idle meanwhile) is set beside one that follows a timed repeat: a gap
# between their medians is time a pause costs, which the in-process loop never pays.
def median(values):
    values = sorted(values)
    return values[len(values) // 2] if values else float("nan")
print()
print(f"{'lab':<28} {'variant':<34} {'after a check ms':>17} {'count':>5} {'after a repeat ms':>18} {'count':>5}")
for path in sorted(out.glob("*.through-runner.jsonl")):
    lab = path.name[: -len(".through-runner.jsonl")]
    for variant, t in rows(path).items():
        times, paused = t.get("repeat_ms", []), t.get("after_check", [])
        after = [ms for ms, p in zip(times, paused) if p]
        calm = [ms for ms, p in zip(times, paused) if not p]
        print(f"{lab:<28} {variant or '-':<34} {median(after):>17.4f} {len(after):>5} {median(calm):>18.4f} {len(calm):>5}")
sys.exit(1 if over else 0)
PY
exit $status
