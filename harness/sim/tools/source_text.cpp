// The text helpers every pass shares (source_text.h says what each is for).
#include "source_text.h"

#include <cctype>
#include <string>

#include "tokens.h"

namespace pplab_sim_rewrite {

std::string blank_non_code(const std::string& s) {
  std::string out = s;
  size_t i = 0, n = s.size();
  auto blank = [&](size_t from, size_t to) {
    for (size_t k = from; k < to && k < n; ++k)
      if (out[k] != '\n') out[k] = ' ';
  };
  while (i < n) {
    char c = s[i];
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      size_t e = s.find('\n', i);
      // A backslash-newline continues a // comment.
      while (e != std::string::npos && e > 0 && s[e - 1] == '\\') e = s.find('\n', e + 1);
      if (e == std::string::npos) e = n;
      blank(i, e);
      i = e;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      size_t e = s.find("*/", i + 2);
      e = e == std::string::npos ? n : e + 2;
      blank(i, e);
      i = e;
    } else if (c == 'R' && i + 1 < n && s[i + 1] == '"' &&
               (i == 0 || !ident_char(s[i - 1]) || s[i - 1] == '8' || s[i - 1] == 'u' || s[i - 1] == 'U' ||
                s[i - 1] == 'L')) {
      size_t open = s.find('(', i + 2);
      if (open == std::string::npos) break;
      std::string delim = ")" + s.substr(i + 2, open - (i + 2)) + "\"";
      size_t e = s.find(delim, open + 1);
      e = e == std::string::npos ? n : e + delim.size();
      blank(i + 2, e - 1);
      i = e;
    } else if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < n && s[j] != c && s[j] != '\n') j += (s[j] == '\\') ? 2 : 1;
      blank(i + 1, j);
      i = j + 1;
    } else if (std::isdigit(static_cast<unsigned char>(c)) && (i == 0 || !ident_char(s[i - 1]))) {
      // pp-number: may contain digit separators (1'000) that are not char literals.
      size_t j = i + 1;
      while (j < n && (ident_char(s[j]) || s[j] == '.' || (s[j] == '\'' && j + 1 < n && ident_char(s[j + 1])) ||
                       ((s[j] == '+' || s[j] == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E' || s[j - 1] == 'p' ||
                                                         s[j - 1] == 'P'))))
        ++j;
      i = j;
    } else if (ident_char(c)) {
      while (i < n && ident_char(s[i])) ++i;
    } else {
      ++i;
    }
  }
  return out;
}

std::string newlines_in(const std::string& s, size_t b, size_t e) {
  std::string nl;
  for (size_t k = b; k < e; ++k)
    if (s[k] == '\n') nl += '\n';
  return nl;
}

std::string collapse_ws(const std::string& s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
    } else {
      if (space) out += ' ';
      space = false;
      out += c;
    }
  }
  return out;
}

size_t skip_ws_back(const std::string& code, size_t i) {  // i: one past; returns one past last non-ws
  while (i > 0 && std::isspace(static_cast<unsigned char>(code[i - 1]))) --i;
  return i;
}

std::string escape_quoted(const std::string& path) {
  std::string escaped;
  for (char ch : path) {
    if (ch == '\\' || ch == '"') escaped += '\\';
    escaped += ch;
  }
  return escaped;
}

}  // namespace pplab_sim_rewrite
