#!/usr/bin/env python3
"""The report files of a graded class are well-formed, whatever the students put in them.

    check_reports.py --out OUT --class CLASS --honest ada [--honest nell] [--lab 01_saxpy]

Checks, for every student folder of CLASS and OUT/<student>/:
- report.md and OUT/summary.md: outside fenced code blocks every line starts as pplab
  writes its lines (its headings, "- " items, table rows, ...), a list item never opens
  structure of its own, no raw HTML beyond pplab's own <details> folds, every fence is
  closed, and no control character but line breaks and tabs anywhere;
- report.html: only the elements pplab writes, with no event attributes; headings are
  pplab's own;
- junit.xml parses as XML, with only JUnit's elements;
- results.json parses as JSON, and its tests are all the lab's;
- gradebook.csv: one line per row, the same number of cells in each, no cell that a
  spreadsheet reads as a formula, and each student's name cell their folder's name;
- the honest students keep full marks, every other student totals 0.
Exits 1 with every problem found.
"""
import argparse
import csv
import html.parser
import io
import json
import os
import re
import sys
import xml.etree.ElementTree as ElementTree

problems = []


def problem(text):
    problems.append(text)


def visible(text):
    """What pplab's escapers make of control characters (markup.cpp)."""
    out = []
    for c in text:
        if c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append("\\x%02x" % ord(c))
        else:
            out.append(c)
    return "".join(out)


def check_controls(path, text, allowed="\n\t"):
    for c in text:
        if (ord(c) < 0x20 or ord(c) == 0x7F) and c not in allowed:
            problem(f"{path}: holds the control character {ord(c):#04x}")
            return


# ---------------------------------------------------------------- Markdown

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
OWN_TAGS = re.compile(r"<details><summary>|</summary>|</details>")


def markdown_lines_outside_fences(path, text):
    """The lines of `text` outside fenced code blocks, CommonMark's way: a fence closes
    only on a line of the same character, at least as long, and nothing else."""
    outside, fence = [], None
    for number, line in enumerate(text.split("\n"), 1):
        if fence is None:
            opened = FENCE.match(line)
            if opened:
                fence = opened.group(1)
                continue
            outside.append((number, line))
        else:
            if re.fullmatch(r" {0,3}" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}\s*", line):
                fence = None
    if fence is not None:
        problem(f"{path}: a fence ({fence}) is never closed")
    return outside


def check_markdown(path, allowed_starts, headings):
    with open(path, encoding="utf-8", errors="strict") as file:
        text = file.read()
    check_controls(path, text)
    for number, line in markdown_lines_outside_fences(path, text):
        where = f"{path}:{number}: {line[:120]!r}"
        if line == "":
            continue
        if line.startswith("#"):
            if not any(re.fullmatch(h, line) for h in headings):
                problem(f"{where}: a heading pplab does not write")
            continue
        if not any(line.startswith(start) for start in allowed_starts):
            problem(f"{where}: a line pplab does not start this way")
        if line.startswith("- "):
            item = line[2:]
            if re.match(r"[ #>+*=~_<`-]|\d+[.)]", item):
                problem(f"{where}: a list item that opens structure of its own")
        if re.search(r"<[A-Za-z/!?]", OWN_TAGS.sub("", line)):
            problem(f"{where}: raw HTML")


REPORT_STARTS = ["**Score: ", "> Speed was NOT graded", "- ", "| ", "|---", "Status: ", "Lost points:",
                 "<details><summary>", "</details>", "![", "(no plot"]
SUMMARY_STARTS = ["seed ", "| ", "|---"]


# ---------------------------------------------------------------- HTML

HTML_ELEMENTS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "strong", "code", "ul", "li",
                 "table", "tr", "th", "td", "a", "pre", "details", "summary", "img"}


class HtmlCheck(html.parser.HTMLParser):
    def __init__(self, path, lab):
        super().__init__(convert_charrefs=True)
        self.path, self.lab = path, lab
        self.heading = None
        self.headings = []

    def handle_starttag(self, tag, attrs):
        if tag not in HTML_ELEMENTS:
            problem(f"{self.path}: an element pplab does not write: <{tag}>")
        for name, value in attrs:
            if name.startswith("on"):
                problem(f"{self.path}: an event attribute {name}={value!r} on <{tag}>")
        if tag == "img" and not dict(attrs).get("src", "").startswith("plots/"):
            problem(f"{self.path}: an image that is not a plot: {attrs}")
        if tag in ("h1", "h2"):
            self.heading = [tag, ""]

    def handle_endtag(self, tag):
        if tag in ("h1", "h2") and self.heading:
            self.headings.append(tuple(self.heading))
            self.heading = None

    def handle_data(self, data):
        if self.heading:
            self.heading[1] += data


def check_html(path, lab):
    with open(path, encoding="utf-8") as file:
        text = file.read()
    check_controls(path, text, "\n\t\r")  # a <pre> keeps a carriage return: it is only whitespace there
    parser = HtmlCheck(path, lab)
    parser.feed(text)
    parser.close()
    for tag, words in parser.headings:
        if tag == "h1" and not words.startswith("pplab grade report"):
            problem(f"{path}: an h1 pplab does not write: {words!r}")
        if tag == "h2" and words not in ("Submission", "Summary", lab):
            problem(f"{path}: an h2 pplab does not write: {words!r}")
    if sum(1 for tag, _ in parser.headings if tag == "h1") != 1:
        problem(f"{path}: not exactly one h1")


# ---------------------------------------------------------------- JUnit, JSON

def check_junit(path):
    try:
        root = ElementTree.parse(path).getroot()
    except ElementTree.ParseError as error:
        problem(f"{path}: not well-formed XML: {error}")
        return
    allowed = {"testsuites", "testsuite", "properties", "property", "testcase", "failure", "error", "skipped"}
    for element in root.iter():
        if element.tag not in allowed:
            problem(f"{path}: an element JUnit does not have: <{element.tag}>")


def check_results(path, lab):
    try:
        with open(path, encoding="utf-8") as file:
            results = json.load(file)
    except (ValueError, UnicodeDecodeError) as error:
        problem(f"{path}: not JSON: {error}")
        return None
    for test in results.get("tests", []):
        if not test["name"].startswith(lab + ": "):
            problem(f"{path}: a test not of {lab}: {test['name']!r}")
    return results


# ---------------------------------------------------------------- the gradebook

def check_gradebook(path, students):
    with open(path, encoding="utf-8", newline="") as file:
        text = file.read()
    check_controls(path, text, "\n")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if len(lines) != len(students) + 1:
        problem(f"{path}: {len(lines)} lines for {len(students)} students and a header (a cell broke a row)")
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    names = {}
    for row in rows[1:]:
        if len(row) != len(header):
            problem(f"{path}: a row of {len(row)} cells under a header of {len(header)}: {row!r}")
        for cell in row:
            if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
                problem(f"{path}: a cell a spreadsheet reads as a formula: {cell!r}")
        if row:
            names[row[0]] = row
    totals = {}
    for student in students:
        cell = visible(student)
        if student[:1] in ("=", "+", "-", "@", "\t", "\r"):
            cell = "'" + cell
        if cell not in names:
            problem(f"{path}: no row names {student!r} as {cell!r}")
        else:
            totals[student] = float(names[cell][1]), float(names[cell][2])
    return totals


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--class", dest="klass", required=True)
    parser.add_argument("--honest", action="append", default=[])
    parser.add_argument("--lab", default="01_saxpy")
    args = parser.parse_args()

    students = sorted(name for name in os.listdir(args.klass) if not name.startswith("."))
    for student in students:
        folder = os.path.join(args.out, student)
        missing = [name for name in ("report.md", "report.html", "results.json", "junit.xml")
                   if not os.path.isfile(os.path.join(folder, name))]
        for name in missing:
            problem(f"{student!r}: no {name}")
        if missing:
            continue
        check_markdown(os.path.join(folder, "report.md"), REPORT_STARTS,
                       [r"# pplab grade report: .*", r"## Submission", r"## Summary", "## " + re.escape(args.lab)])
        check_html(os.path.join(folder, "report.html"), args.lab)
        check_junit(os.path.join(folder, "junit.xml"))
        results = check_results(os.path.join(folder, "results.json"), args.lab)
        expected = None if student in args.honest else 0
        if results is not None and expected == 0 and results["score"] != 0:
            problem(f"{student!r}: results.json scores {results['score']}, not 0")
    check_markdown(os.path.join(args.out, "summary.md"), SUMMARY_STARTS, [r"# pplab grade: .*"])
    totals = check_gradebook(os.path.join(args.out, "gradebook.csv"), students)
    for student, (total, maximum) in totals.items():
        if student in args.honest and not (maximum > 0 and total == maximum):
            problem(f"{student!r} (honest) has {total} of {maximum}, not every point")
        if student not in args.honest and total != 0:
            problem(f"{student!r} (an attack) earns {total}, not 0")
    for text in problems:
        print("problem:", visible(text))
    print(f"checked the reports of {len(students)} students in {args.out}: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
