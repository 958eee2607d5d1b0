#!/usr/bin/env python3
"""The generated site, after Doxygen and as a reader meets it.

  site.py fix   HTML_DIR   run after Doxygen (docs/CMakeLists.txt)
  site.py check HTML_DIR   the `docs` test: exit 1 listing every problem found

fix:
  - Doxygen 1.9.4 writes an empty "README.md File Reference" page for every Markdown
    page and autolinks a path such as `labs/02_dot_product/README.md` to it. Those
    links are pointed at the page made from that file, and the empty pages removed.
  - An SVG \\dot figure is written as an <iframe> of the figure's natural size, which
    no style sheet can scale; it becomes an <img>, which pplab.css fits to the column.
    (The directory graphs keep their <iframe>: their nodes are links.)
check:
  - every href/src inside the site names a file that exists, and an #anchor that it has;
  - no page is empty (a title and nothing under it);
  - no raw Markdown or HTML shows as text: `**`, backticks, <tt>, <b>, ... outside code.
"""
import html
import os
import re
import sys
from html.parser import HTMLParser

# Doxygen names a file's page after its path: "_" -> "__", "/" -> "_2", "." -> "_8".
_UNESCAPE = {"_": "_", "2": "/", "8": "."}


def doxygen_file_path(page_name):
    """labs_202__dot__product_2README_8md.html -> labs/02_dot_product/README.md"""
    stem = page_name[: -len(".html")]
    out, i = [], 0
    while i < len(stem):
        if stem[i] == "_" and i + 1 < len(stem) and stem[i + 1] in _UNESCAPE:
            out.append(_UNESCAPE[stem[i + 1]])
            i += 2
        else:
            out.append(stem[i])
            i += 1
    return "".join(out)


def pages(html_dir):
    return sorted(f for f in os.listdir(html_dir) if f.endswith(".html"))


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def fix(html_dir):
    names = pages(html_dir)
    texts = {n: read(os.path.join(html_dir, n)) for n in names}
    # Markdown file pages, and the page that each Markdown file became (its
    # first section carries id="md_<path with / as _, without .md>").
    redirect = {}
    for name in names:
        if not name.endswith("_8md.html"):
            continue
        # The page's name holds the file's path from where it is unique
        # (docs/student_guide.md: student_guide.md), the section id the whole path.
        stem = doxygen_file_path(name)[: -len(".md")].replace("/", "_")
        found = [(n, m.group(1)) for n in names if n != name
                 for m in re.finditer(r'id="(md_(?:[^"]*_)?' + re.escape(stem) + ')"', texts[n])]
        exact = [f for f in found if f[1] == "md_" + stem]
        if exact:
            found = exact
        if len(found) != 1:
            continue  # no page (or no single page) made from that file: keep its file page
        target, anchor = found[0]
        redirect[name] = f"{target}#{anchor}" if target != "index.html" else target
    names_alt = "|".join(re.escape(n) for n in redirect)
    link = re.compile(r'(href|src)="(' + names_alt + r')(#[^"]*)?"') if redirect else None
    # The search index and navigation data name pages in quotes, often as '../page.html'.
    quoted = re.compile(r"""(['"/])(""" + names_alt + r""")(#[^'"]*)?(?=['"])""") if redirect else None
    figure = re.compile(
        r'<iframe scrolling="no" frameborder="0" src="(dot_inline_dotgraph_\d+\.svg)" width="(\d+)" height="(\d+)">'
        r'.*?</iframe>',
        re.S)
    others = [f for f in os.listdir(html_dir) if f.endswith(".js")]
    others += [os.path.join("search", f) for f in os.listdir(os.path.join(html_dir, "search"))
               if f.endswith(".js")] if os.path.isdir(os.path.join(html_dir, "search")) else []
    for name in names + others:
        if name in redirect:
            continue
        path = os.path.join(html_dir, name)
        text = texts.get(name) if name in texts else read(path)
        new = text
        if link and name.endswith(".html"):
            new = link.sub(lambda m: f'{m.group(1)}="{redirect[m.group(2)]}"', new)
        elif quoted:
            new = quoted.sub(lambda m: m.group(1) + redirect[m.group(2)], new)
        if name.endswith(".html"):
            new = figure.sub(lambda m: f'<img class="dotfigure" src="{m.group(1)}" width="{m.group(2)}" '
                                       f'height="{m.group(3)}" alt="figure"/>', new)
        if new != text:
            write(path, new)
    for name in redirect:
        for extra in (name, name[: -len(".html")] + ".js", name[: -len(".html")] + "_source.html"):
            if os.path.exists(os.path.join(html_dir, extra)):
                os.remove(os.path.join(html_dir, extra))
    print(f"site.py: {len(redirect)} Markdown file pages pointed at their pages")


class Page(HTMLParser):
    """Collects a page's links, anchors, the text of its contents and raw markup."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
    CODE = {"code", "pre", "script", "style", "tt", "kbd", "samp"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.links = []
        self.anchors = set()
        self.contents_text = []
        self.contents_media = 0
        self.raw = []

    def _in(self, pred):
        return any(pred(tag, cls) for tag, cls in self.stack)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("id", "name"):
            if a.get(key):
                self.anchors.add(a[key])
        for key in ("href", "src", "data"):
            if a.get(key):
                self.links.append(a[key])
        if tag in ("img", "iframe", "object", "svg") and self._in(lambda t, c: "contents" in c.split()):
            self.contents_media += 1
        if tag not in self.VOID:
            self.stack.append((tag, a.get("class") or ""))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if not data.strip():
            return
        in_contents = self._in(lambda t, c: "contents" in c.split())
        if in_contents:
            self.contents_text.append(data.strip())
        if self._in(lambda t, c: t in self.CODE or "fragment" in c.split() or "line" in c.split()):
            return
        # Prose: the pages' text and tables of contents, the API's doc comments, titles.
        # (Signatures are C++ and may say `char **argv`.)
        if not self._in(lambda t, c: bool({"textblock", "toc", "title"} & set(c.split())) or t == "title"):
            return
        for pattern, what in RAW_MARKUP:
            m = pattern.search(data)
            if m:
                start = max(0, m.start() - 30)
                self.raw.append(f"{what}: ...{data[start:m.end() + 30].strip()}...")


RAW_MARKUP = [
    (re.compile(r"\*\*"), "Markdown bold shown as text"),
    (re.compile(r"`"), "a Markdown backtick shown as text"),
    (re.compile(r"(?:^|[\s(])\*[^\s*][^*]*\*(?=$|[\s.,;:)])"), "Markdown emphasis shown as text"),
    (re.compile(r"</?(tt|b|i|em|strong|code|kbd|sub|sup|br|p|div|span|a)( [^>]*)?>", re.I), "an HTML tag shown as text"),
]


def check(html_dir):
    problems = []
    parsed = {}
    for name in pages(html_dir):
        page = Page()
        page.feed(read(os.path.join(html_dir, name)))
        parsed[name] = page
    for name, page in parsed.items():
        for target in page.links:
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) and not target.startswith("file:"):
                continue  # https:, mailto:, javascript:
            path, _, anchor = html.unescape(target).partition("#")
            file = os.path.normpath(os.path.join(html_dir, path)) if path else os.path.join(html_dir, name)
            if not os.path.exists(file):
                problems.append(f"{name}: link to {target}: no such file")
                continue
            rel = os.path.relpath(file, html_dir)
            if anchor and rel in parsed and anchor not in parsed[rel].anchors:
                problems.append(f"{name}: link to {target}: {rel} has no anchor '{anchor}'")
        # A page's title is outside div.contents; a page with nothing in it is empty.
        if not page.contents_text and not page.contents_media:
            problems.append(f"{name}: an empty page")
        if name.endswith("_8md.html"):
            problems.append(f"{name}: a Markdown file's 'File Reference' page")
        for raw in page.raw:
            problems.append(f"{name}: {raw}")
    # What the search box and the navigation tree offer must exist too.
    for folder in (html_dir, os.path.join(html_dir, "search")):
        for js in sorted(f for f in os.listdir(folder) if f.endswith(".js")) if os.path.isdir(folder) else []:
            for target in re.findall(r"""['"]((?:\.\./)?[A-Za-z0-9_.-]+\.html)(?:#[^'"]*)?['"]""", read(os.path.join(folder, js))):
                if not os.path.exists(os.path.normpath(os.path.join(folder, target))):
                    problems.append(f"{os.path.relpath(os.path.join(folder, js), html_dir)}: names {target}, which does not exist")
    for name in pages(html_dir):
        if re.search(r'<iframe[^>]*dot_inline_dotgraph', read(os.path.join(html_dir, name))):
            problems.append(f"{name}: an SVG figure in an <iframe>, which cannot scale to the column")
    if problems:
        print(f"site.py: {len(problems)} problems in {html_dir}:")
        for p in problems:
            print("  " + p)
        return 1
    print(f"site.py: {len(parsed)} pages, every link resolves, none empty, no raw markup")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("fix", "check"):
        sys.exit(__doc__)
    if sys.argv[1] == "fix":
        fix(sys.argv[2])
    else:
        sys.exit(check(sys.argv[2]))
