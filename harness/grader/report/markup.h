/// \file
/// \brief Text made safe for the files pplab writes: the one owner of each escaping rule
/// of its reports and charts. XML and HTML (report.html, junit.xml, the SVG plots),
/// Markdown (report.md, summary.md) and CSV (gradebook.csv, the plots' numbers).
///
/// Text in reports comes from students: file and folder names, compiler output (with
/// `#line` file names), exception messages, what lab code printed. Whatever it holds, it
/// stays text: it never closes a block it was put in, never starts a line of Markdown with
/// structure, never carries markup of its own, and never becomes a spreadsheet formula.
/// results.json and batch.json are written by nlohmann::json, which escapes on its own.
#pragma once
#include <string>
#include <string_view>

namespace pplab::cli {

/// What becomes of line breaks, tabs and other control characters in markup_escape.
enum class LineBreaks {
  keep,       ///< a block of text (a `<pre>`, a JUnit failure's body): line breaks and tabs kept
  to_spaces,  ///< a label on one line (a chart's): every control character a space
  visible,    ///< a field on one line (a table cell, an attribute): control characters as `\n`, `\r`, `\x1b`
};

/// `text` as XML/HTML character data or an attribute value. `& < > " '` become entities, a
/// byte that does not start a well-formed UTF-8 character that XML 1.0 allows becomes `?`,
/// and a control character what `breaks` says (with `keep`, the others a space).
std::string markup_escape(std::string_view text, LineBreaks breaks = LineBreaks::keep);

/// Where Markdown text goes on its line.
enum class MarkdownPlace {
  line_start,  ///< it starts the line (a paragraph, a list item, a heading)
  after_text,  ///< other text comes before it on the line (a table cell, a later span)
};

/// `text` as one line of Markdown inline text: it renders as exactly these characters and
/// nothing else. `& < >` become entities (so no raw HTML), `` \ ` * [ ] | `` are
/// backslash-escaped (no code span, emphasis, link or table cell of its own), line breaks
/// and other control characters become visible escapes (`\n`, `\r`, `\x1b`), broken UTF-8
/// `?`; at the start of a line, what would open structure there (`#`, `>`, `-`, `+`, `=`,
/// `_`, `~`, `1.`, indentation) is escaped too.
std::string markdown_text(std::string_view text, MarkdownPlace place = MarkdownPlace::line_start);

/// `text` as a Markdown code span: in backticks that outnumber every run of backticks in
/// it, control characters visible. For text on one line.
std::string markdown_code_span(std::string_view text);

/// `text` as a fenced Markdown code block, the fence and its closing line included
/// (ending in a line break): the fence is longer than any run of backticks in `text`, so no
/// line of it can close the block. Line breaks and tabs are kept; a bare `\r` and other
/// control characters become visible escapes, broken UTF-8 `?`.
std::string markdown_code_block(std::string_view text);

/// `text` as one CSV cell (RFC 4180): quoted when it holds a comma, a quote or spaces at
/// its ends, quotes doubled; control characters become visible escapes, so each row stays
/// one line; and a cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is
/// prefixed with `'` (OWASP's rule against CSV injection), so no spreadsheet reads it as a
/// formula.
std::string csv_cell(std::string_view text);

}  // namespace pplab::cli
