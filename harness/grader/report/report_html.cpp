#include "report_formats.h"

#include <sstream>

#include "markup.h"
#include "report_document.h"

namespace pplab::cli::reporting {
namespace {

std::string html_spans(const Spans& spans) {
  std::string out;
  for (const auto& span : spans) {
    switch (span.style) {
      case Span::Style::plain: out += field(span.text); break;
      case Span::Style::strong: out += "<strong>" + field(span.text) + "</strong>"; break;
      case Span::Style::code: out += "<code>" + field(span.text) + "</code>"; break;
    }
  }
  return out;
}

}  // namespace

std::string html(const GradeReport& report) {
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << field(title(report))
    << "</title>\n<style>body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;"
       "color:#222}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;"
       "text-align:left;vertical-align:top}th{background:#f3f3f3}.num{text-align:right}.passed{color:#17692d}"
       ".failed{color:#a61b1b;font-weight:600}.skipped{color:#666}.banner{background:#fff4d6;border:1px solid #e0b84c;padding:.7em}"
       "pre{background:#f6f6f6;padding:.6em;overflow-x:auto;max-height:30em}img{max-width:100%}</style></head><body>\n";
  for (const Block& b : document(report)) {
    switch (b.kind) {
      case Block::Kind::heading:
        h << "<h" << b.level << (b.id.empty() ? "" : " id=\"" + field(b.id) + "\"") << ">"
          << html_spans(b.spans) << "</h" << b.level << ">\n";
        break;
      case Block::Kind::paragraph: h << "<p>" << html_spans(b.spans) << "</p>\n"; break;
      case Block::Kind::banner: h << "<p class=\"banner\">" << html_spans(b.spans) << "</p>\n"; break;
      case Block::Kind::list:
        h << "<ul>";
        for (const auto& item : b.items) h << "<li>" << html_spans(item) << "</li>";
        h << "</ul>\n";
        break;
      case Block::Kind::table:
        h << "<table><tr>";
        for (const auto& column : b.columns) h << "<th>" << field(column.heading) << "</th>";
        h << "</tr>\n";
        for (const auto& row : b.rows) {
          h << "<tr>";
          for (std::size_t k = 0; k < row.size(); ++k) {
            const Cell& cell = row[k];
            std::string css = k < b.columns.size() && b.columns[k].numeric ? "num" : "";
            if (!cell.css.empty()) css += (css.empty() ? "" : " ") + cell.css;
            h << "<td" << (css.empty() ? "" : " class=\"" + css + "\"") << ">";
            if (cell.anchor.empty()) h << field(cell.text);
            else h << "<a href=\"#" << field(cell.anchor) << "\">" << field(cell.text) << "</a>";
            h << "</td>";
          }
          h << "</tr>\n";
        }
        h << "</table>\n";
        break;
      case Block::Kind::pre: h << "<pre>" << markup_escape(b.text) << "</pre>\n"; break;
      case Block::Kind::image:
        h << "<p><img src=\"" << field(b.text) << "\" alt=\"" << field(b.summary) << "\"></p>\n";
        break;
      case Block::Kind::details:
        h << "<details><summary>" << field(b.summary) << "</summary><pre>" << markup_escape(b.text)
          << "</pre></details>\n";
        break;
    }
  }
  h << "</body></html>\n";
  return h.str();
}

}  // namespace pplab::cli::reporting
