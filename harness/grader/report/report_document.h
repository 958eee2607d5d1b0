/// \file
/// \brief The grade report as one document: the blocks report.md and report.html are
/// written from (document()), and the few phrasings every report file shares, so that
/// each format's writer (report_formats.h) only says how a block is written.
#pragma once
#include <string>
#include <vector>

#include "grade.h"

namespace pplab::cli::reporting {

// report.md and report.html are one document rendered twice: document() builds its
// blocks once, and the writers only say how each kind of block is written, so the two
// files always hold the same sections, rows and words.

struct Span {
  std::string text;
  enum class Style { plain, strong, code } style = Style::plain;
};
using Spans = std::vector<Span>;

struct Cell {
  std::string text;
  std::string css;     // the HTML cell's class beyond alignment ("passed", "failed")
  std::string anchor;  // the cell links to the section with this id
};
struct Column {
  std::string heading;
  bool numeric = false;  // right-aligned
};

struct Block {
  enum class Kind { heading, paragraph, banner, list, table, pre, image, details } kind;
  Spans spans;                         // heading, paragraph, banner
  int level = 1;                       // heading
  std::string id;                      // heading: the anchor a summary row links to
  std::vector<Spans> items;            // list
  std::vector<Column> columns;         // table
  std::vector<std::vector<Cell>> rows;  // table
  std::string text;                    // pre, details: the text; image: its file
  std::string summary;                 // details: the line shown folded; image: its alt text
};

/// The report's blocks, in order.
std::vector<Block> document(const GradeReport& report);

/// `value` with `digits` decimals.
std::string fixed(double value, int digits);
/// The last `bytes` of `text`, after "...\n" when it was cut.
std::string tail(const std::string& text, std::size_t bytes);
/// The seed and where it came from ("12 (given with --seed)").
std::string seed_text(const GradeReport& report);
/// "pplab grade report: <student>".
std::string title(const GradeReport& report);
/// Why speed was not graded, or nothing on a GPU.
std::string speed_banner(const GradeReport& report);
/// Text on one line of report.html or an attribute of junit.xml: its control characters
/// shown as escapes (a file name's line break reads \n, as in report.md).
std::string field(const std::string& text);

}  // namespace pplab::cli::reporting
