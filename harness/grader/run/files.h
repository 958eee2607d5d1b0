/// \file
/// \brief Writing the grader's own files (reports, requests, plans, gradebooks) whole.
#pragma once
#include <filesystem>
#include <string>

namespace pplab::cli {

/// Writes `text` to `path` (its folders made): beside it first, then renamed over it, so a
/// reader never sees half a file and a file lab code planted at the path is replaced.
/// Throws std::runtime_error when it cannot.
void write_text_file(const std::filesystem::path& path, const std::string& text);

}  // namespace pplab::cli
