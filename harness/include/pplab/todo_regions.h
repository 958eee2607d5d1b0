/// \file
/// \brief The TODO regions of a lab's kernel file, for the `step:` line of a fault.
///
/// A fault (a deadlock, an invalid access) is reported by the emulator while the kernel
/// runs, naming the source line; the check never gets to say which step it grades. The
/// report's note therefore lists where each TODO region of the kernel file lies, so the
/// line in the report leads to its step:
///   step: the TODO whose lines hold the line named above (dot_product.cu: 02.1 lines 37-42, ...)
#pragma once
#include <fstream>
#include <regex>
#include <string>

namespace pplab::detail {

/// "02.1 lines 37-42, 02.2 lines 44-48, 02.4 (stretch) lines 29-35" for the file at
/// `path`, in file order; empty when the file cannot be read or has no regions.
inline std::string todo_regions(const std::string& path) {
  std::ifstream file(path);
  if (!file) return {};
  static const std::regex begin(R"(TODO\(([0-9]{2}\.[0-9]+)\) begin( \(stretch\))?)");
  static const std::regex end(R"(TODO\(([0-9]{2}\.[0-9]+)\) end)");
  std::string line, text, open_id, open_stretch;
  int number = 0, open_line = 0;
  while (std::getline(file, line)) {
    ++number;
    std::smatch m;
    if (std::regex_search(line, m, begin)) {
      open_id = m[1];
      open_stretch = m[2].matched ? " (stretch)" : "";
      open_line = number;
    } else if (std::regex_search(line, m, end) && m[1] == open_id) {
      if (!text.empty()) text += ", ";
      text += open_id + open_stretch + " lines " + std::to_string(open_line) + "-" + std::to_string(number);
      open_id.clear();
    }
  }
  return text;
}

/// The `step:` line of a fault in the kernel file at `path` (PPLAB_KERNEL_FILE). A check
/// binary asks before every lab call, always for its one file: the last answer is kept.
inline std::string fault_step_line(const char* path) {
  static std::string last_path = "\n", last_line;
  const std::string file = path ? path : "";
  if (file == last_path) return last_line;
  const std::string regions = file.empty() ? std::string() : todo_regions(file);
  std::string text = "  step: the TODO whose lines hold the kernel line named above";
  if (!regions.empty()) text += " (" + file.substr(file.find_last_of('/') + 1) + ": " + regions + ")";
  last_path = file;
  last_line = text + "\n";
  return last_line;
}

}  // namespace pplab::detail
