/// \file
/// \brief Text made safe for XML and HTML: the one escaper of pplab's reports (report.html,
/// junit.xml) and charts (the SVG plots).
#pragma once
#include <string>
#include <string_view>

namespace pplab::cli {

/// Whether line breaks survive escaping: kept in a block of text (a `<pre>`, a JUnit
/// failure's body), turned into spaces where the text must stay on one line (a label).
enum class LineBreaks { keep, to_spaces };

/// `text` as XML/HTML character data or an attribute value. Text in reports comes from lab
/// code and what it printed, so whatever could make the document ill-formed is replaced:
/// `& < > " '` become entities, a byte that does not start a well-formed UTF-8 character
/// that XML 1.0 allows becomes `?`, and a control character a space (line breaks and tabs
/// as `breaks` says).
std::string markup_escape(std::string_view text, LineBreaks breaks = LineBreaks::keep);

}  // namespace pplab::cli
