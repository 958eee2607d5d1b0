#include "sanitizer.h"

#include <cstdlib>
#include <cstring>
#include <future>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "pplab/result_channel.h"
#include "process.h"

namespace pplab::cli {
namespace fs = std::filesystem;

namespace {

const std::string kMarker = "pplab: check: ";
const std::string kTool = "========= ";

// A report line of the tool (not its banner, summary or a "saved host backtrace" line).
bool is_report_start(const std::string& line) {
  if (line.rfind(kTool, 0) != 0) return false;
  const std::string text = line.substr(kTool.size());
  // A runner that made no CUDA call (a check that only expects an exception) is no hazard.
  if (text.find("terminated before first instrumented API call") != std::string::npos) return false;
  return text.rfind("Invalid ", 0) == 0 || text.rfind("Error", 0) == 0 || text.rfind("Warning", 0) == 0 ||
         text.rfind("Race ", 0) == 0 || text.rfind("Misaligned", 0) == 0 ||
         text.rfind("Barrier", 0) == 0 || text.rfind("Out-of-range", 0) == 0;
}

}  // namespace

fs::path find_sanitizer() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':'))
    if (!dir.empty() && fs::exists(fs::path(dir) / "compute-sanitizer")) return fs::path(dir) / "compute-sanitizer";
  for (const char* known : {"/usr/local/cuda/bin/compute-sanitizer", "/usr/local/cuda/compute-sanitizer/compute-sanitizer"})
    if (fs::exists(known)) return known;
  return {};
}

SanitizerResult run_sanitizer(const fs::path& sanitizer, const fs::path& binary, const std::vector<std::string>& tools,
                              const std::map<std::string, std::string>& environment, std::size_t large_n,
                              std::chrono::seconds limit,
                              const fs::path& working_directory,
                              const std::function<std::vector<std::string>(const std::string& tool)>& runner_under) {
  SanitizerResult result;
  auto env = environment;
  env["PPLAB_CASE_MARKERS"] = "1";
  env["PPLAB_LARGE_N"] = std::to_string(large_n);
  // The tools run side by side, each one process over every check (racecheck is the
  // slow one); their reports are read in the order the tools were given.
  std::vector<std::future<ProcessResult>> runs;
  for (const auto& tool : tools) {
    std::vector<std::string> argv = {sanitizer.string(), "--tool", tool, "--print-limit", "20", binary.string(),
                                     "--no-version=true"};
    auto tool_env = env;
    if (runner_under) {
      tool_env["PPLAB_RUNNER_COMMAND"] = nlohmann::json(runner_under(tool)).dump();
      argv = {binary.string(), "--no-version=true"};
    }
    runs.push_back(std::async(std::launch::async, [argv, tool_env, limit, working_directory] {
      return run_process(argv, tool_env, limit, std::size_t(8) << 20, working_directory.string());
    }));
  }
  for (std::size_t t = 0; t < tools.size(); ++t) {
    const std::string& tool = tools[t];
    const auto run = runs[t].get();
    std::istringstream lines(run.output);
    std::string line, check = "(before the first check)";
    std::set<std::string> reported;
    bool summary = false;
    SanitizerFinding* open = nullptr;
    int kept = 0;
    while (std::getline(lines, line)) {
      // The tool's lines come relayed from the runner, marked as the lab's output.
      if (line.rfind(pplab::channel::kLabLinePrefix, 0) == 0) line.erase(0, std::strlen(pplab::channel::kLabLinePrefix));
      if (line.rfind(kMarker, 0) == 0) {
        check = line.substr(kMarker.size());
        open = nullptr;
        continue;
      }
      if (line.find("ERROR SUMMARY:") != std::string::npos || line.find("RACECHECK SUMMARY:") != std::string::npos) {
        summary = true;
        open = nullptr;
        continue;
      }
      if (is_report_start(line) && !reported.count(check)) {
        reported.insert(check);
        result.findings.push_back({tool, check, line.substr(kTool.size())});
        open = &result.findings.back();
        kept = 1;
        continue;
      }
      if (open && line.rfind(kTool, 0) == 0 && kept < 4 && line.size() > kTool.size()) {
        open->first_lines += "\n" + line.substr(kTool.size());
        ++kept;
      }
    }
    if (!summary && runner_under && run.succeeded() && run.output.find(kTool) == std::string::npos)
      continue;  // no check started the runner: nothing ran under the tool
    if (!summary)
      result.problems.push_back("compute-sanitizer --tool " + tool + " did not finish (" + run.describe() +
                                "): its reports may be incomplete");
  }
  return result;
}

}  // namespace pplab::cli
