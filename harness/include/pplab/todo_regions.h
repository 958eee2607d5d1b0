/// \file
/// \brief The TODO regions of a lab's kernel file, for the `step:` line of a fault.
///
/// A fault (a deadlock, an invalid access) is reported by the emulator while the kernel
/// runs, naming the source line; the check never gets to say which step it grades. The
/// report's note therefore lists where each TODO region of the kernel file lies, so the
/// line in the report leads to its step:
///   step: the TODO whose lines hold the line named above (dot_product.cu: 02.1 lines 37-42, ...)
#pragma once
#include <exception>
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

/// How a fault's `step:` line begins before the fault is known; name_fault_step() then
/// names the one step.
inline constexpr const char* kFaultStepLead = "  step: the TODO whose lines hold the kernel line named above";

/// The `step:` line of a fault in the kernel file at `path` (PPLAB_KERNEL_FILE). A check
/// binary asks before every lab call, always for its one file: the last answer is kept.
inline std::string fault_step_line(const char* path) {
  static std::string last_path = "\n", last_line;
  const std::string file = path ? path : "";
  if (file == last_path) return last_line;
  const std::string regions = file.empty() ? std::string() : todo_regions(file);
  std::string text = kFaultStepLead;
  if (!regions.empty()) text += " (" + file.substr(file.find_last_of('/') + 1) + ": " + regions + ")";
  last_path = file;
  last_line = text + "\n";
  return last_line;
}

/// The note under an emulator fault report with its step: line made exact: the first line
/// of the kernel file the report names (not a launch site, which is host code, nor where a
/// __shared__ array is declared) picks the
/// TODO region that holds it ("step: TODO(02.2), saxpy.cu lines 44-48, holds line 46 named
/// above"), or the line is said to lie outside every region, followed by
/// `given_code_advice`. A note without the regions, or a report that names no line of the
/// file, is returned as it was.
inline std::string name_fault_step(const std::string& report, const std::string& note,
                                   const std::string& given_code_advice) try {
  const std::size_t lead = note.find(std::string(kFaultStepLead) + " (");
  if (lead == std::string::npos) return note;
  const std::size_t line_end = note.find('\n', lead);
  const std::size_t open = lead + std::string(kFaultStepLead).size() + 2;
  const std::size_t colon = note.find(": ", open);
  if (line_end == std::string::npos || colon == std::string::npos || colon > line_end) return note;
  const std::string file = note.substr(open, colon - open);
  const std::string regions = note.substr(colon + 2, line_end - 1 - (colon + 2));  // without the ')'
  // The report's first line number of `file` that is not where a kernel was launched.
  long named = -1;
  for (std::size_t at = report.find(file + ":"); at != std::string::npos && named < 0;
       at = report.find(file + ":", at + 1)) {
    const bool whole_name = at == 0 || report[at - 1] == '/' || report[at - 1] == ' ' || report[at - 1] == '(';
    const std::size_t digits = at + file.size() + 1;
    std::size_t end = digits;
    while (end < report.size() && report[end] >= '0' && report[end] <= '9') ++end;
    if (!whole_name || end == digits) continue;
    const std::size_t word = report.rfind(' ', at);
    const std::string before = report.substr(0, word == std::string::npos ? 0 : word);
    const auto ends_with = [&](const std::string& tail) {
      return before.size() >= tail.size() && before.compare(before.size() - tail.size(), tail.size(), tail) == 0;
    };
    if (ends_with("launched at") || ends_with("declared at")) continue;  // host code, a declaration
    named = std::stol(report.substr(digits, end - digits));
  }
  if (named < 0) return note;
  // "02.1 lines 37-42, 02.4 (stretch) lines 29-35": the region whose lines hold it.
  std::string step;
  std::size_t from = 0;
  while (from < regions.size() && step.empty()) {
    std::size_t next = regions.find(", ", from);
    if (next == std::string::npos) next = regions.size();
    const std::string entry = regions.substr(from, next - from);
    const std::size_t lines = entry.find(" lines ");
    const std::size_t dash = entry.find('-', lines == std::string::npos ? 0 : lines);
    if (lines != std::string::npos && dash != std::string::npos) {
      const long first = std::stol(entry.substr(lines + 7, dash - lines - 7));
      const long last = std::stol(entry.substr(dash + 1));
      if (first <= named && named <= last)
        step = "  step: TODO(" + entry.substr(0, entry.find(' ')) + ")" +
               (entry.find("(stretch)") != std::string::npos ? " (stretch)" : "") + ", " + file + " lines " +
               std::to_string(first) + "-" + std::to_string(last) + ", holds line " + std::to_string(named) +
               " named above";
    }
    from = next + 2;
  }
  if (step.empty())
    step = "  step: line " + std::to_string(named) + " named above is given code, outside every TODO (" + file + ": " +
           regions + "): " + given_code_advice;
  return note.substr(0, lead) + step + note.substr(line_end);
} catch (const std::exception&) {  // a note not in fault_step_line's form
  return note;
}

/// name_fault_step() for a fault: a faulting line in given code was handed a bad value.
inline std::string name_fault_step(const std::string& report, const std::string& note) {
  return name_fault_step(report, note, "look at what the step that calls it passes it");
}

}  // namespace pplab::detail
