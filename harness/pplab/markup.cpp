#include "markup.h"

#include <cstddef>

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

}  // namespace

std::string markup_escape(std::string_view text, LineBreaks breaks) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = xml_character_length(text, at);
    if (length == 0) {
      out += '?';
      ++at;
      continue;
    }
    if (length > 1) {
      out.append(text, at, length);
      at += length;
      continue;
    }
    const char c = text[at++];
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\n':
      case '\r':
      case '\t': out += breaks == LineBreaks::keep ? c : ' '; break;
      default: out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
    }
  }
  return out;
}

}  // namespace pplab::cli
