#!/usr/bin/env python3
"""CI's proof that a GPU build made device code for every architecture it should.

    check_cuda_architectures.py [--benchmarks "90"] "75;80;86;89;90" BUILD_DIR...

Reads each build's compile_commands.json and checks that every nvcc compile in it (every
.cu file of every target) generates machine code (sm_XX) for each listed architecture:
a target that set its own CUDA_ARCHITECTURES, or a preset that lost one, fails here
instead of on a student's GPU. Run it after the builds, so that it checks what was built.
With --benchmarks, the reference benchmarks' compiles (targets *_bench, built with
PPLAB_BENCH_CUDA_ARCHITECTURES) are held to that list instead.
"""
import json
import re
import sys
from pathlib import Path


def machine_code(command: str) -> set[str]:
    """The sm_XX an nvcc command line generates code for."""
    archs = set()
    for codes in re.findall(r"(?:--generate-code|-gencode)[= ]arch=compute_\w+,code=\[?([\w,]+)\]?", command):
        archs.update(code[3:] for code in codes.split(",") if code.startswith("sm_"))
    archs.update(re.findall(r"(?:^|\s)(?:-arch|--gpu-architecture)[= ]sm_(\w+)", command))
    return archs


def is_benchmark(command: str) -> bool:
    """Whether an nvcc command compiles into a benchmark target (labNN_<name>_ref_bench)."""
    output = re.search(r"(?:^|\s)-o\s+(\S+)", command)
    return bool(output) and "_bench.dir/" in output.group(1)


def arch_list(text: str) -> list[str]:
    return [arch for arch in text.split(";") if arch]


def main() -> int:
    args = sys.argv[1:]
    bench_wanted = None
    if len(args) >= 2 and args[0] == "--benchmarks":
        bench_wanted = arch_list(args[1])
        args = args[2:]
    if len(args) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    wanted = arch_list(args[0])
    failures = 0
    for build in args[1:]:
        path = Path(build) / "compile_commands.json"
        try:
            entries = json.loads(path.read_text())
        except (OSError, ValueError) as error:
            print(f"{path}: cannot read it: {error}")
            failures += 1
            continue
        compiles = [e for e in entries if e["file"].endswith(".cu")]
        if not compiles:
            print(f"{path}: no nvcc compile at all")
            failures += 1
        for entry in compiles:
            needed = wanted
            if bench_wanted is not None and is_benchmark(entry["command"]):
                needed = bench_wanted
            missing = [arch for arch in needed if arch not in machine_code(entry["command"])]
            if missing:
                print(f"{entry['file']} ({build}): no code for " + ", ".join("sm_" + a for a in missing))
                failures += 1
        print(f"{build}: {len(compiles)} nvcc compiles, each for " + ", ".join("sm_" + a for a in wanted)
              + ("" if bench_wanted is None else
                 " (benchmarks: " + ", ".join("sm_" + a for a in bench_wanted) + ")"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
