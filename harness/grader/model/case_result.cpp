#include "case_result.h"

#include <sstream>

#include "pplab/result_channel.h"

namespace pplab::cli {

std::string checker_lines(const std::string& output) {
  std::istringstream lines(output);
  std::string line, kept;
  std::size_t dropped = 0;
  while (std::getline(lines, line)) {
    if (line.rfind(pplab::channel::kLabLinePrefix, 0) == 0) {
      ++dropped;
      continue;
    }
    kept += line + "\n";
  }
  if (dropped > 0) kept += "(" + std::to_string(dropped) + " lines the lab's code printed are left out of reports)\n";
  return kept;
}

std::string verdict_name(CaseResult::Verdict verdict) {
  switch (verdict) {
    case CaseResult::Verdict::passed: return "passed";
    case CaseResult::Verdict::skipped: return "skipped";
    case CaseResult::Verdict::wrong_answer: return "wrong answer";
    case CaseResult::Verdict::host_work: return "ran on the host";
    case CaseResult::Verdict::memory_error: return "memory error";
    case CaseResult::Verdict::race_hazard: return "race hazard";
    case CaseResult::Verdict::data_race: return "data race";
    case CaseResult::Verdict::uninit_shared: return "uninitialised shared read";
    case CaseResult::Verdict::shared_oob: return "shared out of bounds";
    case CaseResult::Verdict::fault: return "fault";
    case CaseResult::Verdict::crashed: return "crashed";
    case CaseResult::Verdict::threw: return "threw";
    case CaseResult::Verdict::timed_out: return "timed out";
    case CaseResult::Verdict::exited_early: return "exited early";
    case CaseResult::Verdict::tampered: return "tampered";
    case CaseResult::Verdict::no_result: return "no result";
  }
  return "?";
}

int LabResult::passed() const {
  int count = 0;
  for (const auto& c : cases) count += c.passed();
  return count;
}
int LabResult::skipped() const {
  int count = 0;
  for (const auto& c : cases) count += c.skipped();
  return count;
}
int LabResult::failed() const { return int(cases.size()) - passed() - skipped(); }

}  // namespace pplab::cli
