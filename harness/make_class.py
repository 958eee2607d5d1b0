#!/usr/bin/env python3
"""Writes a class folder of any size for `pplab grade --submissions`, to measure grading.

Each student's file for each lab is a reference with a small edit, taken in turn:
  right    the reference, with a comment naming the student (every file differs, so
           nothing a build caches by content helps)
  slow     a known-wrong case that is correct but slow (its expect.txt says "passed")
  wrong    a known-wrong case that fails its checks
  hang     a known-wrong case that loops or deadlocks (only with --hangs: each one costs
           up to the case limit)
The cases are harness/labs/NN_name/wrong/<case>/. The mix is given as weights, e.g.
--mix right=6,slow=2,wrong=2 (the default): of every ten students six are right.
DIR/kinds.csv records what each student got (student,lab,kind,case).

  harness/make_class.py DIR --students 100 --labs 02
"""
import argparse
import csv
import pathlib
import re
import shutil
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
HANGS = re.compile(r"endless|deadlock|watchdog|never ends|spins", re.IGNORECASE)


def lab_folders(wanted):
    folders = sorted(p.name for p in (ROOT / "solutions").iterdir() if re.fullmatch(r"\d\d_[a-z0-9_]+", p.name))
    if not wanted:
        return folders
    chosen = []
    for item in wanted.split(","):
        match = [f for f in folders if f == item or f.startswith(item.zfill(2) + "_")]
        if not match:
            sys.exit(f"make_class.py: no lab '{item}'; the labs are {', '.join(folders)}")
        chosen.append(match[0])
    return chosen


def cases_by_kind(folder):
    """The lab's known-wrong cases, sorted into slow, wrong and hang."""
    kinds = {"slow": [], "wrong": [], "hang": []}
    for case in sorted((ROOT / "harness" / "labs" / folder / "wrong").glob("*/expect.txt")):
        text = case.read_text()
        verdict = re.search(r"^verdict:\s*(\S+)", text, re.MULTILINE)
        if verdict and verdict.group(1) == "passed":
            kinds["slow"].append(case.parent)
        elif HANGS.search(text):
            kinds["hang"].append(case.parent)
        elif case.parent.name != "skeleton":
            kinds["wrong"].append(case.parent)
    return kinds


def parse_mix(text, hangs):
    mix = []
    for item in text.split(","):
        kind, _, weight = item.partition("=")
        if kind not in ("right", "slow", "wrong", "hang") or not weight.isdigit():
            sys.exit(f"make_class.py: --mix takes kind=weight items (right, slow, wrong, hang), not '{item}'")
        if kind == "hang" and not hangs:
            sys.exit("make_class.py: hang in --mix needs --hangs (each one costs up to the case limit)")
        mix += [kind] * int(weight)
    if not mix:
        sys.exit("make_class.py: --mix gives no student a kind")
    return mix


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", type=pathlib.Path)
    parser.add_argument("--students", type=int, required=True)
    parser.add_argument("--labs", default="", help="e.g. 02 or 01,02 (default: every lab)")
    parser.add_argument("--mix", default="right=6,slow=2,wrong=2")
    parser.add_argument("--hangs", action="store_true", help="allow hang in --mix")
    args = parser.parse_args()
    if args.students < 1:
        sys.exit("make_class.py: --students must be at least 1")
    mix = parse_mix(args.mix, args.hangs)
    folders = lab_folders(args.labs)
    if args.dir.exists():
        shutil.rmtree(args.dir)
    rows = []
    width = len(str(args.students))
    for folder in folders:
        kinds = cases_by_kind(folder)
        reference = next((ROOT / "solutions" / folder).glob("*.cu"))
        taken = {kind: 0 for kind in kinds}
        for i in range(args.students):
            student = f"student{i + 1:0{width}d}"
            kind = mix[i % len(mix)]
            if kind != "right" and not kinds[kind]:
                kind = "right"  # this lab has no case of that kind
            target = args.dir / student / folder / reference.name
            target.parent.mkdir(parents=True, exist_ok=True)
            if kind == "right":
                target.write_text(reference.read_text() + f"// {student}\n")
                rows.append((student, folder, kind, ""))
                continue
            case = kinds[kind][taken[kind] % len(kinds[kind])]
            taken[kind] += 1
            shutil.copyfile(case / reference.name, target)
            rows.append((student, folder, kind, case.name))
    with open(args.dir / "kinds.csv", "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["student", "lab", "kind", "case"])
        writer.writerows(rows)
    print(f"{args.dir}: {args.students} students, labs {', '.join(folders)}")


if __name__ == "__main__":
    main()
