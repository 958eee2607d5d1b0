#include "compiler_output.h"

#include <regex>
#include <sstream>

namespace pplab::cli {
namespace {

// The file a line of a compiler's output is about, when it names one where a diagnostic
// or its context starts: g++'s `file:12:3: error:` and `file: In function ...`, nvcc's
// `file(12): error:`, and the include chain `In file included from file:3`.
std::string located_file(const std::string& line) {
  static const std::regex gcc(R"(^(\S[^:]*):\d+(:\d+)?: )");
  static const std::regex context(R"(^(\S[^:]*): (In |At |In instantiation))");
  static const std::regex nvcc(R"(^(\S[^(]*)\(\d+\): )");
  static const std::regex included(R"(^(?:In file included from|\s+from) (\S[^:]*):\d+)");
  // A location is at the start of its line; libstdc++'s regex recurses once per
  // character, so a long line (a student's macro, a minified header) is read in part.
  const std::string start = line.substr(0, 1024);
  std::smatch match;
  for (const std::regex* pattern : {&included, &gcc, &context, &nvcc})
    if (std::regex_search(start, match, *pattern)) return match[1].str();
  return {};
}

// ninja's own lines: its status line for each step ("[3/7] Building ...") and its messages.
bool ninja_noise(const std::string& line) {
  if (line.rfind("ninja: ", 0) == 0) return true;
  static const std::regex status(R"(^\[\d+/\d+\] )");
  return line.size() > 3 && line[0] == '[' && std::regex_search(line.substr(0, 32), status);
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

}  // namespace

std::string compiler_messages(const std::string& output, const std::filesystem::path& submission, std::size_t limit) {
  // The compiler names the submission's files by absolute path, as CMake gives them.
  const std::string root =
      submission.empty() ? std::string() : (std::filesystem::absolute(submission).lexically_normal() / "").string();
  std::istringstream lines(output);
  std::string line, kept;
  bool skip_command = false;
  // Whether the quoted lines that follow belong to a diagnostic in the submission (or,
  // before any located line, to a tool's own message such as CMake's or the linker's).
  bool quotes_shown = true;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (skip_command) {  // ninja prints the failed command on the line after FAILED:
      skip_command = false;
      continue;
    }
    if (line.rfind("FAILED: ", 0) == 0) {
      skip_command = true;
      continue;
    }
    if (ninja_noise(line)) continue;
    if (!root.empty()) {
      const bool indented = !line.empty() && (line[0] == ' ' || line[0] == '\t');
      const std::string file = located_file(line);
      if (!file.empty()) quotes_shown = file.rfind(root, 0) == 0;
      else if (indented && !quotes_shown) continue;
      else if (!indented) quotes_shown = true;
      replace_all(line, root, "");
    }
    kept += line + "\n";
    if (kept.size() > limit) return kept.substr(0, limit) + "\n... (cut)\n";
  }
  return kept;
}

}  // namespace pplab::cli
