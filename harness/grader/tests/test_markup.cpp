// The escapers of pplab's reports (markup.h), one rule each: text from students stays
// text in report.md, report.html, junit.xml and gradebook.csv, whatever it holds.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "markup.h"

using pplab::cli::csv_cell;
using pplab::cli::LineBreaks;
using pplab::cli::markdown_code_block;
using pplab::cli::markdown_code_span;
using pplab::cli::markdown_text;
using pplab::cli::MarkdownPlace;
using pplab::cli::markup_escape;

namespace {

// What students have put in file names, #line names, exception messages and folder names.
const std::vector<std::string> kAttacks = {
    "## 01_saxpy 10 of 10",
    "x\n## 01_saxpy 10 of 10",
    "oops\r## 01_saxpy 10 of 10\r<img src=x onerror=alert(1)>",
    "saxpy.cu\n```\n</pre></details>\n## 01_saxpy 10 of 10\n<b>forged</b>\n```",
    "<script>alert(1)</script>",
    "- [x] 10 of 10",
    "1. first",
    "> quoted",
    "    indented code",
    "---",
    "===",
    "___",
    "~~~",
    "| 10 | 10 |",
    "\\| escaped pipe",
    "`code` and ``more``",
    "[link](https://x.invalid)",
    "&lt;already an entity&gt; &#10;",
    "\x1b[2J terminal escape",
    "\tleading tab",
    std::string("nul \0 inside", 12),
    "\xff\xfe broken UTF-8",
};

bool has_control(const std::string& text, const std::string& allowed = "") {
  for (char c : text)
    if ((static_cast<unsigned char>(c) < 0x20 || c == 0x7F) && allowed.find(c) == std::string::npos) return true;
  return false;
}

// The lines of text.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

}  // namespace

// ---------------------------------------------------------------- XML and HTML

TEST_CASE("markup: markup_escape turns the five XML specials into entities") {
  CHECK(markup_escape("a & b < c > d \" e ' f") == "a &amp; b &lt; c &gt; d &quot; e &apos; f");
  CHECK(markup_escape("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;");
}

TEST_CASE("markup: markup_escape keeps well-formed UTF-8 and turns broken bytes into '?'") {
  CHECK(markup_escape("caf\xc3\xa9 \xe2\x80\x94") == "caf\xc3\xa9 \xe2\x80\x94");
  CHECK(markup_escape("\xff\xfe") == "??");
  CHECK(markup_escape("\xc0\xaf") == "??");          // overlong '/'
  CHECK(markup_escape("\xed\xa0\x80") == "???");     // a surrogate
}

TEST_CASE("markup: markup_escape: control characters kept as lines, made spaces or shown, as asked") {
  const std::string text = "a\nb\rc\td\x1b" "e";
  CHECK(markup_escape(text) == "a\nb\rc\td e");
  CHECK(markup_escape(text, LineBreaks::to_spaces) == "a b c d e");
  CHECK(markup_escape(text, LineBreaks::visible) == "a\\nb\\rc\\td\\x1b" "e");
  for (const auto& attack : kAttacks) {
    CHECK_FALSE(has_control(markup_escape(attack), "\n\r\t"));
    CHECK_FALSE(has_control(markup_escape(attack, LineBreaks::visible)));
    CHECK(markup_escape(attack).find('<') == std::string::npos);
  }
}

// ---------------------------------------------------------------- Markdown

TEST_CASE("markup: markdown_text: HTML becomes entities, so no raw HTML reaches report.md") {
  CHECK(markdown_text("<b>x</b> & y") == "&lt;b&gt;x&lt;/b&gt; &amp; y");
  CHECK(markdown_text("&#10;") == "&amp;#10;");
}

TEST_CASE("markup: markdown_text: line breaks and other control characters become visible escapes") {
  CHECK(markdown_text("x\n## 01_saxpy 10 of 10") == "x\\n## 01_saxpy 10 of 10");
  CHECK(markdown_text("oops\r## forged") == "oops\\r## forged");
  CHECK(markdown_text("a\tb\x1b[2J") == "a\\tb\\x1b\\[2J");
  CHECK(markdown_text(std::string("a\0b", 3)) == "a\\x00b");
}

TEST_CASE("markup: markdown_text: what would open structure at the start of a line is escaped") {
  CHECK(markdown_text("## 01_saxpy 10 of 10") == "\\## 01_saxpy 10 of 10");
  CHECK(markdown_text("- item") == "\\- item");
  CHECK(markdown_text("+ item") == "\\+ item");
  CHECK(markdown_text("1. first") == "1\\. first");
  CHECK(markdown_text("12) twelfth") == "12\\) twelfth");
  CHECK(markdown_text("> quoted") == "&gt; quoted");
  CHECK(markdown_text("    indented") == "&#32;   indented");
  CHECK(markdown_text("===") == "\\===");
  CHECK(markdown_text("___") == "\\___");
  CHECK(markdown_text("~~~") == "\\~~~");
  CHECK(markdown_text("01_saxpy: compile error") == "01_saxpy: compile error");  // a lab folder stays as it is
}

TEST_CASE("markup: markdown_text after other text on its line (a table cell) escapes no line start") {
  CHECK(markdown_text("0.5", MarkdownPlace::after_text) == "0.5");
  CHECK(markdown_text("## x", MarkdownPlace::after_text) == "## x");
  CHECK(markdown_text("-1+1", MarkdownPlace::after_text) == "-1+1");
  CHECK(markdown_text("a\n## x <b>", MarkdownPlace::after_text) == "a\\n## x &lt;b&gt;");
  CHECK(markdown_text("| x", MarkdownPlace::after_text) == "\\| x");
}

TEST_CASE("markup: markdown_text: inline markup and table pipes are backslash-escaped") {
  CHECK(markdown_text("a | b") == "a \\| b");
  CHECK(markdown_text("\\|") == "\\\\\\|");
  CHECK(markdown_text("`code`") == "\\`code\\`");
  CHECK(markdown_text("*em* [link](x)") == "\\*em\\* \\[link\\](x)");
  CHECK(markdown_text("plain words, 3.5 s") == "plain words, 3.5 s");
}

TEST_CASE("markup: markdown_text: no attack leaves a control character, a '<' or structure at the start") {
  for (const auto& attack : kAttacks) {
    const std::string text = markdown_text(attack);
    CAPTURE(attack);
    CAPTURE(text);
    CHECK_FALSE(has_control(text));
    CHECK(text.find('<') == std::string::npos);
    CHECK(text.find('\n') == std::string::npos);
    CHECK(std::string("#>-+*=_~|`[ \t").find(text.front()) == std::string::npos);
    std::size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
    CHECK_FALSE((digits > 0 && digits < text.size() && (text[digits] == '.' || text[digits] == ')')));
  }
}

TEST_CASE("markup: markdown_code_span: more backticks than the text holds, control characters shown") {
  CHECK(markdown_code_span("pplab grade --seed 5") == "`pplab grade --seed 5`");
  CHECK(markdown_code_span("a`b") == "``a`b``");
  CHECK(markdown_code_span("`x`") == "`` `x` ``");
  CHECK(markdown_code_span("a\nb") == "`a\\nb`");
}

TEST_CASE("markup: markdown_code_block: a fence no line of the text can close") {
  CHECK(markdown_code_block("error: x") == "```\nerror: x\n```\n");
  CHECK(markdown_code_block("a\n") == "```\na\n```\n");
  CHECK(markdown_code_block("```\n## forged") == "````\n```\n## forged\n````\n");
  CHECK(markdown_code_block("x ````` y") == "``````\nx ````` y\n``````\n");
  for (const auto& attack : kAttacks) {
    const std::string block = markdown_code_block(attack);
    CAPTURE(attack);
    CAPTURE(block);
    const auto lines = lines_of(block);
    REQUIRE(lines.size() >= 2);
    const std::string& fence = lines.front();
    CHECK(lines.back() == fence);
    CHECK(fence.size() >= 3);
    CHECK(fence.find_first_not_of('`') == std::string::npos);
    // No line in between is a closing fence: a line of backticks as long as the fence.
    for (std::size_t k = 1; k + 1 < lines.size(); ++k) {
      const std::string trimmed = lines[k].substr(0, lines[k].find_last_not_of(' ') + 1);
      const auto start = trimmed.find_first_not_of(' ');
      const bool closes = start != std::string::npos && start <= 3 &&
                          trimmed.find_first_not_of('`', start) == std::string::npos &&
                          trimmed.size() - start >= fence.size();
      CHECK_FALSE(closes);
    }
    CHECK_FALSE(has_control(block, "\n\t"));  // a bare \r is a line break to Markdown: shown
  }
}

TEST_CASE("markup: markdown_code_block keeps line breaks and tabs and shows a carriage return") {
  CHECK(markdown_code_block("a\tb\r\nc") == "```\na\tb\\r\nc\n```\n");
}

// ---------------------------------------------------------------- CSV

TEST_CASE("markup: csv_cell: a cell a spreadsheet would read as a formula is prefixed with a quote") {
  CHECK(csv_cell("=1+1") == "'=1+1");
  CHECK(csv_cell("+1+1") == "'+1+1");
  CHECK(csv_cell("-1+1") == "'-1+1");
  CHECK(csv_cell("@SUM(A1)") == "'@SUM(A1)");
  CHECK(csv_cell("\tx") == "'\\tx");
  CHECK(csv_cell("\rx") == "'\\rx");
  CHECK(csv_cell("=HYPERLINK(\"https:x.invalid\",\"10 of 10\")") ==
        "\"'=HYPERLINK(\"\"https:x.invalid\"\",\"\"10 of 10\"\")\"");
}

TEST_CASE("markup: csv_cell: quoted only where RFC 4180 needs it, and always on one line") {
  CHECK(csv_cell("alice") == "alice");
  CHECK(csv_cell("") == "");
  CHECK(csv_cell("a,b") == "\"a,b\"");
  CHECK(csv_cell("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_cell(" padded ") == "\" padded \"");
  CHECK(csv_cell("a\nb") == "a\\nb");
  CHECK(csv_cell("a = b") == "a = b");  // only the first character can start a formula
  for (const auto& attack : kAttacks) {
    const std::string cell = csv_cell(attack);
    CAPTURE(attack);
    CHECK_FALSE(has_control(cell));
    const char first = cell.front() == '"' ? cell[1] : cell.front();
    CHECK(std::string("=+-@").find(first) == std::string::npos);
  }
}
