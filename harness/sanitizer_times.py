#!/usr/bin/env python3
"""Where compute-sanitizer's time goes in each lab's reference checks, on a GPU build.

The grader runs a student's checks under memcheck and racecheck side by side while the
GPU gate is held shared, so a slow tool run delays every timing queued behind it. This
runs each lab's reference checks the way the grader does (the tool wraps the runner, the
large-input checks at the lab's `sanitizer_large_n` from labs.json) and prints how long
each check took under each tool, slowest first, and each lab's total.

    harness/sanitizer_times.py [build dir, default build/gpu-class-build] [--labs 09,10]
                               [--limit SECONDS per tool run, default 300]

The marker lines the checks print (PPLAB_CASE_MARKERS) are stamped as they arrive; a
check's time runs from its marker to the next one (or to the end of the run).
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import threading
import time

MARKER = "pplab: check: "
LAB_LINE = "lab> "  # pplab/result_channel.h: kLabLinePrefix
TOOLS = ("memcheck", "racecheck")


def find_sanitizer():
    found = shutil.which("compute-sanitizer")
    for known in (found, "/usr/local/cuda/bin/compute-sanitizer"):
        if known and os.path.exists(known):
            return known
    sys.exit("no compute-sanitizer on PATH or in /usr/local/cuda/bin")


def timed_checks(sanitizer, tool, lab, limit):
    """[(check, seconds)] in the order they ran, and how the run ended."""
    reference = lab.get("reference") or {}
    checks, runner = reference.get("checks"), reference.get("runner")
    env = dict(os.environ, PPLAB_CASE_MARKERS="1", PPLAB_LARGE_N=str(lab["sanitizer_large_n"]),
               PPLAB_RUNNER_COMMAND=json.dumps([sanitizer, "--tool", tool, "--print-limit", "20", runner["file"]]))
    started = time.monotonic()
    stamps = [("(before the first check)", started)]
    child = subprocess.Popen([checks["file"], "--no-version=true"], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, errors="replace")
    timer = threading.Timer(limit, child.kill)
    timer.start()
    for line in child.stdout:
        line = line.rstrip("\n")
        if line.startswith(LAB_LINE):
            line = line[len(LAB_LINE):]
        if line.startswith(MARKER):
            stamps.append((line[len(MARKER):], time.monotonic()))
    status = child.wait()
    timer.cancel()
    ended = time.monotonic()
    ending = f"killed at the {limit} s limit" if ended - started >= limit else f"exit {status}"
    times = [(name, (stamps[i + 1][1] if i + 1 < len(stamps) else ended) - at) for i, (name, at) in enumerate(stamps)]
    return times, ending


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", nargs="?", default="build/gpu-class-build")
    parser.add_argument("--labs", default="", help="lab numbers, e.g. 09,10 (default: every lab)")
    parser.add_argument("--limit", type=float, default=300)
    parser.add_argument("--slowest", type=int, default=4, help="checks listed per lab and tool")
    args = parser.parse_args()
    manifest = json.loads((pathlib.Path(args.build) / "labs.json").read_text())
    wanted = {n.zfill(2) for n in args.labs.split(",") if n}
    sanitizer = find_sanitizer()
    print(f"{'lab':<24} {'tool':<10} {'large n':>8} {'total s':>8}  ending, then the slowest checks (s)")
    for lab in manifest["labs"]:
        if wanted and lab["number"] not in wanted:
            continue
        if not (lab.get("reference") or {}).get("runner"):
            print(f"{lab['folder']:<24} no reference runner in this build")
            continue
        # The two tools side by side, as the grader runs them.
        results = {}
        runs = [threading.Thread(target=lambda t=tool: results.__setitem__(t, timed_checks(sanitizer, t, lab, args.limit)))
                for tool in TOOLS]
        for run in runs:
            run.start()
        for run in runs:
            run.join()
        for tool in TOOLS:
            times, ending = results[tool]
            slowest = sorted(times, key=lambda item: -item[1])[: args.slowest]
            listed = "; ".join(f"{seconds:.1f} {name[:60]}" for name, seconds in slowest)
            total = sum(seconds for _, seconds in times)
            print(f"{lab['folder']:<24} {tool:<10} {lab['sanitizer_large_n']:>8} {total:>8.1f}  {ending}; {listed}",
                  flush=True)


if __name__ == "__main__":
    main()
