// The text helpers every pass of the rewriter shares: the copy of a file that the
// passes search (comments and literals blanked, offsets kept), and the whitespace
// handling that lets a rewrite keep each line where it was.
#pragma once
#include <cstddef>
#include <string>

namespace pplab_sim_rewrite {
/// Copy of `s` with comments and literal contents replaced by spaces (newlines kept),
/// so searches see only code. Quote characters themselves are kept.
std::string blank_non_code(const std::string& s);

/// The newlines of s[b, e): what a replacement of that span emits after itself, so that
/// the lines after it keep their numbers.
std::string newlines_in(const std::string& s, std::size_t b, std::size_t e);

/// `s` with each run of whitespace made one space, none at either end.
std::string collapse_ws(const std::string& s);

/// One past the last non-whitespace character before `i` (itself one past).
std::size_t skip_ws_back(const std::string& code, std::size_t i);

/// `path` as it goes between the quotes of an #include or #line: backslashes and quotes escaped.
std::string escape_quoted(const std::string& path);
}  // namespace pplab_sim_rewrite
