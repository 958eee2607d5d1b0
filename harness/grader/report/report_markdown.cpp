#include "report_formats.h"

#include <sstream>

#include "markup.h"
#include "report_document.h"

namespace pplab::cli::reporting {
namespace {

// The spans of a block that starts its line: the first span is at the line's start.
std::string markdown_spans(const Spans& spans) {
  std::string out;
  for (const auto& span : spans) {
    const auto place = out.empty() ? MarkdownPlace::line_start : MarkdownPlace::after_text;
    switch (span.style) {
      case Span::Style::plain: out += markdown_text(span.text, place); break;
      case Span::Style::strong: out += "**" + markdown_text(span.text, MarkdownPlace::after_text) + "**"; break;
      case Span::Style::code: out += markdown_code_span(span.text); break;
    }
  }
  return out;
}

}  // namespace

std::string markdown(const GradeReport& report) {
  std::ostringstream md;
  for (const Block& b : document(report)) {
    switch (b.kind) {
      case Block::Kind::heading: md << std::string(b.level, '#') << " " << markdown_spans(b.spans) << "\n\n"; break;
      case Block::Kind::paragraph: md << markdown_spans(b.spans) << "\n\n"; break;
      case Block::Kind::banner: md << "> " << markdown_spans(b.spans) << "\n\n"; break;
      case Block::Kind::list:
        for (const auto& item : b.items) md << "- " << markdown_spans(item) << "\n";
        md << "\n";
        break;
      case Block::Kind::table:
        md << "|";
        for (const auto& column : b.columns) md << " " << markdown_text(column.heading, MarkdownPlace::after_text) << " |";
        md << "\n|";
        for (const auto& column : b.columns) md << (column.numeric ? "---:|" : "---|");
        md << "\n";
        for (const auto& row : b.rows) {
          md << "|";
          for (const auto& cell : row) md << " " << markdown_text(cell.text, MarkdownPlace::after_text) << " |";
          md << "\n";
        }
        md << "\n";
        break;
      case Block::Kind::pre: md << markdown_code_block(b.text) << "\n"; break;
      case Block::Kind::image: md << "![" << markdown_text(b.summary, MarkdownPlace::after_text) << "](" << b.text << ")\n\n"; break;
      case Block::Kind::details:
        // GitHub and most viewers show HTML folds in Markdown; the summary is HTML there
        // (one line: a blank line would end the HTML block), the text a code block it
        // cannot close.
        md << "<details><summary>" << markup_escape(b.summary, LineBreaks::visible) << "</summary>\n\n"
           << markdown_code_block(b.text) << "</details>\n\n";
        break;
    }
  }
  return md.str();
}

}  // namespace pplab::cli::reporting
