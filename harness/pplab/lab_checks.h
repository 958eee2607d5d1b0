/// \file
/// \brief Running one lab's check binary, one test case per process, and judging each.
#pragma once
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace pplab::cli {

/// The verdict on one test case.
struct CaseResult {
  enum class Verdict { passed, wrong_answer, fault, crashed, timed_out, no_result };
  std::string name;
  Verdict verdict = Verdict::no_result;
  std::string reason;  ///< one line: why it did not pass
  std::string output;  ///< what the case printed
  double seconds = 0;
  bool passed() const { return verdict == Verdict::passed; }
};

/// Short text for a verdict: "passed", "wrong answer", "fault", "crashed", ...
std::string verdict_name(CaseResult::Verdict verdict);

/// All test cases of one lab binary.
struct LabResult {
  std::string lab;            ///< "02_dot_product"
  std::string error;          ///< set when the binary could not even list its tests
  std::vector<CaseResult> cases;
  int passed() const;
  int failed() const;
};

/// Options for a run of a lab's checks.
struct CheckOptions {
  std::map<std::string, std::string> environment;  ///< e.g. PPLAB_SEED
  std::chrono::seconds case_limit{300};            ///< per test case
  /// Called before each case with (index, count, name), for progress display.
  std::function<void(std::size_t, std::size_t, const std::string&)> on_case;
};

/// The test case names a doctest binary reports with --list-test-cases.
std::vector<std::string> list_test_cases(const std::filesystem::path& binary, std::string& error);

/// Runs every test case of `binary` in its own process and judges each.
LabResult run_lab_checks(const std::string& lab, const std::filesystem::path& binary,
                         const CheckOptions& options);

}  // namespace pplab::cli
