#include "sanitizer.h"

#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "parallel_for.h"
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

namespace {

// Reads one tool process's output into `result`: each report is attributed to the check
// that was running (the checker marks each one), at most one finding per check.
// Returns whether the tool printed its summary, that is, finished.
bool read_reports(const std::string& tool, const std::string& output, SanitizerResult& result) {
  std::istringstream lines(output);
  std::string line, check = "(before the first check)";
  std::set<std::string> reported;
  for (const auto& finding : result.findings)
    if (finding.tool == tool) reported.insert(finding.check);
  bool summary = false;
  std::size_t open = SIZE_MAX;  // the finding whose report lines are being read
  int kept = 0;
  while (std::getline(lines, line)) {
    // The tool's lines come relayed from the runner, marked as the lab's output.
    if (line.rfind(pplab::channel::kLabLinePrefix, 0) == 0) line.erase(0, std::strlen(pplab::channel::kLabLinePrefix));
    if (line.rfind(kMarker, 0) == 0) {
      check = line.substr(kMarker.size());
      open = SIZE_MAX;
      continue;
    }
    if (line.find("ERROR SUMMARY:") != std::string::npos || line.find("RACECHECK SUMMARY:") != std::string::npos) {
      summary = true;
      open = SIZE_MAX;
      continue;
    }
    if (is_report_start(line) && !reported.count(check)) {
      reported.insert(check);
      result.findings.push_back({tool, check, line.substr(kTool.size())});
      open = result.findings.size() - 1;
      kept = 1;
      continue;
    }
    if (open != SIZE_MAX && line.rfind(kTool, 0) == 0 && kept < 4 && line.size() > kTool.size()) {
      result.findings[open].first_lines += "\n" + line.substr(kTool.size());
      ++kept;
    }
  }
  return summary;
}

// One process of a tool: the checks from `first` to `last` (doctest's 1-based range;
// 0 and 0 for all of them, `last` 0 for every check from `first` on).
struct ToolRun {
  std::string tool;
  std::size_t first = 0, last = 0;
};

// The processes to run: racecheck, whose time is in the kernel launches of each check,
// gets one process per check, `processes` of them at a time; every other tool one
// process over all checks.
std::vector<ToolRun> plan_runs(const std::vector<std::string>& tools, const SanitizerSpread& spread) {
  std::vector<ToolRun> runs;
  for (const auto& tool : tools) {
    if (tool != "racecheck" || spread.processes < 2 || spread.checks < 2) {
      runs.push_back({tool});
      continue;
    }
    // The last process runs every check from its first on: a check list shorter than the
    // binary's (a crash ended the GPU run early) still covers every check.
    for (std::size_t i = 1; i <= spread.checks; ++i) runs.push_back({tool, i, i == spread.checks ? 0 : i});
  }
  return runs;
}

}  // namespace

SanitizerResult run_sanitizer(const fs::path& sanitizer, const fs::path& binary, const std::vector<std::string>& tools,
                              const std::map<std::string, std::string>& environment, std::size_t large_n,
                              std::chrono::seconds limit,
                              const fs::path& working_directory,
                              const std::function<std::vector<std::string>(const std::string& tool)>& runner_under,
                              const SanitizerSpread& spread) {
  SanitizerResult result;
  auto env = environment;
  env["PPLAB_CASE_MARKERS"] = "1";
  env["PPLAB_LARGE_N"] = std::to_string(large_n);
  const std::vector<ToolRun> planned = plan_runs(tools, spread);
  // The tools run side by side; racecheck's checks, when spread, `processes` at a time
  // beside the other tools. Reports are read in the order the tools were given.
  std::vector<ProcessResult> outputs(planned.size());
  const int workers = int(tools.size()) + std::max(1, spread.processes) - 1;
  parallel_for(planned.size(), workers, [&](std::size_t i) {
    const ToolRun& run = planned[i];
    std::vector<std::string> argv = {sanitizer.string(), "--tool", run.tool, "--print-limit", "20", binary.string(),
                                     "--no-version=true"};
    auto tool_env = env;
    if (runner_under) {
      tool_env["PPLAB_RUNNER_COMMAND"] = nlohmann::json(runner_under(run.tool)).dump();
      argv = {binary.string(), "--no-version=true"};
    }
    if (run.first) argv.push_back("--first=" + std::to_string(run.first));
    if (run.last) argv.push_back("--last=" + std::to_string(run.last));
    const auto process = [&] {
      outputs[i] = run_process(argv, tool_env, limit, std::size_t(8) << 20, working_directory.string());
    };
    spread.guard ? spread.guard(process) : process();
  });
  for (const auto& tool : tools) {
    bool every_run_finished = true;
    std::string why;
    for (std::size_t i = 0; i < planned.size(); ++i) {
      if (planned[i].tool != tool) continue;
      const ProcessResult& run = outputs[i];
      const bool summary = read_reports(tool, run.output, result);
      if (!summary && runner_under && run.succeeded() && run.output.find(kTool) == std::string::npos)
        continue;  // no check started the runner: nothing ran under the tool
      if (!summary && every_run_finished) {
        every_run_finished = false;
        why = run.describe();
      }
    }
    if (!every_run_finished)
      result.problems.push_back("compute-sanitizer --tool " + tool + " did not finish (" + why +
                                "): its reports may be incomplete");
  }
  return result;
}

}  // namespace pplab::cli
