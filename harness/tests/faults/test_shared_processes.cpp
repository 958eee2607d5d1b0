// Checks that share processes (CheckOptions::shared_processes, how a GPU's checks run):
// every known-wrong lab below gets, check by check, the verdict and reason it gets with a
// process per check, and the reference passes every check. The emulator's binaries stand
// in for a GPU's: what is tested is the grader's reading of the shared runs.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "lab_checks.h"

namespace {

using pplab::cli::CheckOptions;
using pplab::cli::LabResult;
using pplab::cli::run_lab_checks;
using pplab::cli::verdict_name;

CheckOptions options(bool shared, int limit_seconds, const std::vector<std::string>& cases = {}) {
  CheckOptions options;
  options.cases = cases;
  options.jobs = 3;
  options.case_limit = std::chrono::seconds(limit_seconds);
  options.shared_processes = shared;
  options.environment["PPLAB_SEED"] = "7";
  return options;
}

// The same binary both ways; the verdict of each check, and its reason, agree.
void same_verdicts(const char* binary, int limit_seconds = 60, const std::vector<std::string>& cases = {}) {
  const LabResult alone = run_lab_checks("lab", binary, options(false, limit_seconds, cases));
  const LabResult shared = run_lab_checks("lab", binary, options(true, limit_seconds, cases));
  REQUIRE(alone.error.empty());
  REQUIRE(shared.error.empty());
  REQUIRE(alone.cases.size() == shared.cases.size());
  REQUIRE(alone.cases.size() > 1);
  for (std::size_t i = 0; i < alone.cases.size(); ++i) {
    INFO(alone.cases[i].name);
    CHECK(shared.cases[i].name == alone.cases[i].name);
    CHECK(verdict_name(shared.cases[i].verdict) == verdict_name(alone.cases[i].verdict));
    CHECK(shared.cases[i].reason == alone.cases[i].reason);
  }
  CHECK(shared.failed() == alone.failed());
  // The checks that did not pass ran again, each alone, and so did any that a crash or a
  // hang in their group kept from reporting.
  const int groups = std::min(3, int(alone.cases.size()));
  CHECK(alone.processes == int(alone.cases.size()));
  CHECK(shared.processes >= groups + alone.failed());
  CHECK(shared.processes <= groups + int(alone.cases.size()));
}

}  // namespace

TEST_CASE("the reference passes every check in shared processes") {
  const LabResult shared = run_lab_checks("01_saxpy", PPLAB_REFERENCE_CHECKS, options(true, 120));
  REQUIRE(shared.error.empty());
  CHECK(shared.cases.size() > 3);
  CHECK(shared.failed() == 0);
  CHECK(shared.processes == 3);  // one per job, none run again
}

TEST_CASE("a crash gets the verdict of its check run alone") { same_verdicts(PPLAB_WRONG_ABORT); }
TEST_CASE("an exit from lab code gets the verdict of its check run alone") { same_verdicts(PPLAB_WRONG_EXIT); }
TEST_CASE("an exception gets the verdict of its check run alone") { same_verdicts(PPLAB_WRONG_THROWS); }
TEST_CASE("a printed pass is no pass in shared processes") { same_verdicts(PPLAB_WRONG_FAKE_PASS); }
TEST_CASE("wrong answers get the verdicts of their checks run alone") { same_verdicts(PPLAB_WRONG_ANSWER); }
TEST_CASE("a hang ends its shared process and gets the verdict of its check run alone") {
  // The hang and quick checks beside it, so that the short limit fits the others on a
  // loaded machine.
  same_verdicts(PPLAB_WRONG_HANG, 5,
                {"dot product reproduces the seed example (8 threads 8 elements give 52)",
                 "dot product of small integers is exact", "dot product of zero elements is zero",
                 "dot product rejects a block size that is not a power of two"});
}
