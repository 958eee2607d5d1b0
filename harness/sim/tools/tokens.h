// Identifier tests shared by the rewriter's passes, over code whose comments and
// literals are blanked (source_text.h's blank_non_code).
#pragma once
#include <cctype>
#include <cstddef>
#include <cstring>
#include <string>

namespace pplab_sim_rewrite {
inline bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Whether `word` stands whole (not inside a longer identifier) in code[from, to).
inline bool has_word(const std::string& code, std::size_t from, std::size_t to, const char* word) {
  const std::size_t len = std::strlen(word);
  for (std::size_t p = code.find(word, from); p != std::string::npos && p + len <= to; p = code.find(word, p + 1))
    if ((p == 0 || !ident_char(code[p - 1])) && (p + len >= code.size() || !ident_char(code[p + len]))) return true;
  return false;
}
}  // namespace pplab_sim_rewrite
