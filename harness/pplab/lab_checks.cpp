#include "lab_checks.h"

#include <sstream>

#include "process.h"

namespace pplab::cli {

std::string verdict_name(CaseResult::Verdict verdict) {
  switch (verdict) {
    case CaseResult::Verdict::passed: return "passed";
    case CaseResult::Verdict::wrong_answer: return "wrong answer";
    case CaseResult::Verdict::fault: return "fault";
    case CaseResult::Verdict::crashed: return "crashed";
    case CaseResult::Verdict::timed_out: return "timed out";
    case CaseResult::Verdict::no_result: return "no result";
  }
  return "?";
}

int LabResult::passed() const {
  int count = 0;
  for (const auto& c : cases) count += c.passed();
  return count;
}
int LabResult::failed() const { return int(cases.size()) - passed(); }

std::vector<std::string> list_test_cases(const std::filesystem::path& binary, std::string& error) {
  const auto listing = run_process({binary.string(), "--list-test-cases", "--no-version=true"}, {},
                                   std::chrono::seconds(60));
  std::vector<std::string> names;
  if (!listing.succeeded()) {
    error = "could not list the checks of " + binary.filename().string() + ": " + listing.describe() +
            "\n" + listing.output;
    return names;
  }
  std::istringstream lines(listing.output);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line.rfind("[doctest]", 0) == 0 || line.rfind("=====", 0) == 0) continue;
    names.push_back(line);
  }
  return names;
}

namespace {

// The first line that explains a failure: the sim's diagnostic, else doctest's message.
std::string first_reason(const std::string& output) {
  std::istringstream lines(output);
  std::string line, fallback;
  while (std::getline(lines, line)) {
    if (line.find("pplab-sim: error:") != std::string::npos) return line;
    if (fallback.empty() && (line.rfind("check failed:", 0) == 0 ||
                             line.find("ERROR:") != std::string::npos ||
                             line.find("CUDA error") != std::string::npos))
      fallback = line;
  }
  return fallback;
}

// doctest closes every completed run with a status line; a process that exits 0
// without it ended before its checks finished (e.g. called exit(0) from lab code).
bool finished_with_success(const std::string& output) {
  return output.find("[doctest] Status: SUCCESS!") != std::string::npos &&
         output.find("| 0 failed") != std::string::npos;
}

CaseResult judge(const std::string& name, const ProcessResult& run) {
  CaseResult result;
  result.name = name;
  result.output = run.output;
  result.seconds = run.seconds;
  using V = CaseResult::Verdict;
  switch (run.ending) {
    case ProcessResult::Ending::timed_out:
      result.verdict = V::timed_out;
      result.reason = "timed out after " + std::to_string(int(run.seconds)) +
                      " s: an endless loop, or a thread waiting for something that never happens";
      break;
    case ProcessResult::Ending::signalled:
      result.verdict = V::crashed;
      result.reason = "crashed: " + run.describe();
      break;
    case ProcessResult::Ending::failed_to_start:
      result.verdict = V::no_result;
      result.reason = "the check binary could not be started";
      break;
    case ProcessResult::Ending::exited:
      if (run.exit_code == 0 && finished_with_success(run.output)) {
        result.verdict = V::passed;
      } else if (run.exit_code == 0) {
        result.verdict = V::no_result;
        result.reason = "exited with status 0 before its checks finished (exit() called from lab code?)";
      } else if (run.output.find("pplab-sim: error:") != std::string::npos) {
        result.verdict = V::fault;
        result.reason = first_reason(run.output);
      } else if (run.exit_code == 1 && run.output.find("[doctest] Status: FAILURE!") != std::string::npos) {
        result.verdict = V::wrong_answer;
        result.reason = first_reason(run.output);
      } else {
        result.verdict = V::crashed;
        result.reason = "ended with " + run.describe() + " before its checks finished";
        if (auto why = first_reason(run.output); !why.empty()) result.reason += ": " + why;
      }
      break;
  }
  return result;
}

}  // namespace

LabResult run_lab_checks(const std::string& lab, const std::filesystem::path& binary,
                         const CheckOptions& options) {
  LabResult result;
  result.lab = lab;
  const auto names = list_test_cases(binary, result.error);
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (options.on_case) options.on_case(i, names.size(), names[i]);
    const auto run = run_process({binary.string(), "--test-case=" + names[i], "--no-version=true"},
                                 options.environment, options.case_limit);
    result.cases.push_back(judge(names[i], run));
  }
  return result;
}

}  // namespace pplab::cli
