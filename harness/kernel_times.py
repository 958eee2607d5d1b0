#!/usr/bin/env python3
"""Where a benchmark's GPU time goes, kernel by kernel, on a machine with a GPU.

Runs each benchmark once under Nsight Compute (`ncu --clock-control none`, one metric:
each kernel's duration) at one size, and prints for every kernel, the references' and the
library's side by side, how many times it ran and its time in all and per launch. The
benchmarks' own timing is not used: ncu serialises the launches, so the sum is the
device's busy time without launch gaps.

    harness/kernel_times.py BENCH [BENCH ...] [--size 24] [--top 12]

BENCH is an in-process benchmark (build/<preset>/bin/labNN_<name>_ref_bench), which runs
the reference's rows and then the library's, each with one warm-up, one timed repeat and
its checks (so the launch counts are the benchmark's; the time per launch is the figure).
"""
import argparse
import collections
import csv
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

UNITS = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3, "s": 1e6, "second": 1e6}  # to µs


def short_name(demangled):
    """The kernel's name without its return type and parameters, template arguments cut short."""
    name = re.sub(r"\b\w+::", "", demangled.split("(", 1)[0])  # namespaces off
    head, _, arguments = name.partition("<")
    head = head.split()[-1]
    if not arguments:
        return head
    arguments = arguments.rsplit(">", 1)[0]
    return f"{head}<{arguments[:70]}{'...' if len(arguments) > 70 else ''}>"


def kernel_durations(ncu, bench, size):
    """[(kernel name, µs)] for every launch the benchmark made, in order."""
    with tempfile.NamedTemporaryFile(suffix=".csv") as log:
        command = [ncu, "--clock-control", "none", "--csv", "--log-file", log.name, "--print-kernel-base",
                   "demangled", "--metrics", "gpu__time_duration.sum", str(bench), f"--sizes={size}",
                   "--repeats=1", "--warmup=1"]
        run = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace")
        if run.returncode != 0:
            sys.exit(f"{bench.name} under ncu exited {run.returncode}:\n{run.stderr[-2000:]}")
        rows = [line for line in pathlib.Path(log.name).read_text(errors="replace").splitlines() if line.startswith('"')]
    launches = []
    for row in csv.DictReader(rows):
        if row.get("Metric Name") != "gpu__time_duration.sum":
            continue
        unit = row["Metric Unit"]
        if unit not in UNITS:
            sys.exit(f"{bench.name}: ncu gave a duration in {unit!r}, a unit this script does not know")
        value = float(row["Metric Value"].replace(",", ""))
        launches.append((short_name(row["Kernel Name"]), value * UNITS[unit]))
    return launches


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("benches", nargs="+", type=pathlib.Path)
    parser.add_argument("--size", type=int, default=24, help="log2 of the benchmark size")
    parser.add_argument("--top", type=int, default=12, help="kernels listed per benchmark")
    args = parser.parse_args()
    ncu = shutil.which("ncu") or "/usr/local/cuda/bin/ncu"
    for bench in args.benches:
        totals = collections.defaultdict(lambda: [0, 0.0])
        for name, micros in kernel_durations(ncu, bench, args.size):
            totals[name][0] += 1
            totals[name][1] += micros
        print(f"\n{bench.name} at 2^{args.size}")
        print(f"{'launches':>8} {'total µs':>10} {'µs each':>9}  kernel")
        ranked = sorted(totals.items(), key=lambda item: -item[1][1])
        for name, (count, micros) in ranked[:args.top]:
            print(f"{count:>8} {micros:>10.1f} {micros / count:>9.2f}  {name}")
        if len(ranked) > args.top:
            rest = ranked[args.top:]
            print(f"{sum(c for _, (c, _) in rest):>8} {sum(m for _, (_, m) in rest):>10.1f} {'':>9}  "
                  f"({len(rest)} more kernels)")


if __name__ == "__main__":
    main()
