#include "markup.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>

namespace pplab::cli {
namespace {

// Length of the well-formed UTF-8 sequence at text[at] that XML 1.0 allows, or 0.
std::size_t xml_character_length(std::string_view text, std::size_t at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  if ((lead & 0xE0) == 0xC0) length = 2;
  else if ((lead & 0xF0) == 0xE0) length = 3;
  else if ((lead & 0xF8) == 0xF0) length = 4;
  else return 0;
  char32_t code = lead & (0x7F >> length);  // the lead byte's payload bits
  if (at + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[at + k]);
    if ((next & 0xC0) != 0x80) return 0;
    code = (code << 6) | (next & 0x3F);
  }
  constexpr char32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  const bool overlong = code < kSmallest[length];
  const bool surrogate = code >= 0xD800 && code <= 0xDFFF;
  const bool excluded = code == 0xFFFE || code == 0xFFFF || code > 0x10FFFF;
  return overlong || surrogate || excluded ? 0 : length;
}

bool is_control(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; }

// A control character as an escape a reader sees: \n, \r, \t, else \xHH.
std::string visible(char c) {
  switch (c) {
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    default: {
      char text[8];
      std::snprintf(text, sizeof text, "\\x%02x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      return text;
    }
  }
}

// Walks `text` one character at a time: broken UTF-8 becomes '?', a well-formed
// multi-byte character is copied, and each ASCII byte goes to `ascii`, which appends what
// it becomes.
template <typename Ascii>
std::string transform(std::string_view text, Ascii&& ascii) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = xml_character_length(text, at);
    if (length == 0) {
      out += '?';
      ++at;
    } else if (length > 1) {
      out.append(text, at, length);
      at += length;
    } else {
      ascii(text[at++], out);
    }
  }
  return out;
}

// The longest run of backticks in `text`.
std::size_t longest_backtick_run(std::string_view text) {
  std::size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

}  // namespace

std::string markup_escape(std::string_view text, LineBreaks breaks) {
  return transform(text, [breaks](char c, std::string& out) {
    switch (c) {
      case '&': out += "&amp;"; return;
      case '<': out += "&lt;"; return;
      case '>': out += "&gt;"; return;
      case '"': out += "&quot;"; return;
      case '\'': out += "&apos;"; return;
      default: break;
    }
    if (!is_control(c)) out += c;
    else if (breaks == LineBreaks::visible) out += visible(c);
    else if (breaks == LineBreaks::keep && (c == '\n' || c == '\r' || c == '\t')) out += c;
    else out += ' ';
  });
}

std::string markdown_text(std::string_view text, MarkdownPlace place) {
  std::string out = transform(text, [](char c, std::string& to) {
    switch (c) {
      case '&': to += "&amp;"; return;
      case '<': to += "&lt;"; return;
      case '>': to += "&gt;"; return;
      case '\\': case '`': case '*': case '[': case ']': case '|':
        to += '\\';
        to += c;
        return;
      default: to += is_control(c) ? visible(c) : std::string(1, c);
    }
  });
  // The start of the text may be the start of a line (a paragraph, a list item): nothing
  // there may open a heading, a quote, a list, a rule, a fence or an indented block.
  if (out.empty() || place == MarkdownPlace::after_text) return out;
  if (out[0] == ' ') return "&#32;" + out.substr(1);
  if (std::string_view("#-+=_~").find(out[0]) != std::string_view::npos) return "\\" + out;
  std::size_t digits = 0;
  while (digits < out.size() && out[digits] >= '0' && out[digits] <= '9') ++digits;
  if (digits > 0 && digits < out.size() && (out[digits] == '.' || out[digits] == ')')) out.insert(digits, "\\");
  return out;
}

std::string markdown_code_span(std::string_view text) {
  std::string content = transform(text, [](char c, std::string& out) { out += is_control(c) ? visible(c) : std::string(1, c); });
  const std::string fence(longest_backtick_run(content) + 1, '`');
  const bool pad = !content.empty() && (content.front() == '`' || content.back() == '`' ||
                                        (content.front() == ' ' && content.back() == ' '));
  return pad ? fence + " " + content + " " + fence : fence + content + fence;
}

std::string markdown_code_block(std::string_view text) {
  std::string body = transform(text, [](char c, std::string& out) {
    out += is_control(c) && c != '\n' && c != '\t' ? visible(c) : std::string(1, c);
  });
  if (!body.empty() && body.back() != '\n') body += '\n';
  const std::string fence(std::max<std::size_t>(3, longest_backtick_run(body) + 1), '`');
  return fence + "\n" + body + fence + "\n";
}

std::string csv_cell(std::string_view text) {
  std::string cell = transform(text, [](char c, std::string& out) { out += is_control(c) ? visible(c) : std::string(1, c); });
  if (!text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos) cell = "'" + cell;
  const bool quote = cell.find_first_of(",\"") != std::string::npos ||
                     (!cell.empty() && (cell.front() == ' ' || cell.back() == ' '));
  if (!quote) return cell;
  std::string out = "\"";
  for (char c : cell) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace pplab::cli
