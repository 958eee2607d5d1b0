// The correctness points of a lab from its checks' verdicts (score_checks): a skipped
// check, a stretch step not written, neither earns nor costs.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "grading.h"

namespace {

using namespace pplab::cli;
using V = CaseResult::Verdict;

// A lab of three main checks and two stretch checks with these verdicts, graded by one
// group ("*", 10 points) or by a main group and a stretch group of 6 and 4 points.
LabGrade graded(const std::vector<V>& verdicts, bool stretch_group) {
  LabGrade grade;
  grade.lab.folder = "11_radix_sort";
  grade.case_names = {"main a", "main b", "main c", "stretch a", "stretch b"};
  grade.rules.gate = {"first"};
  if (stretch_group) grade.rules.groups = {{"main", 6, {"main"}}, {"stretch", 4, {"stretch"}}};
  else grade.rules.groups = {{"all checks", 10, {"*"}}};
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    CaseResult c;
    c.name = grade.case_names[i];
    c.verdict = verdicts[i];
    if (c.verdict == V::skipped) c.reason = "the stretch steps are not written yet";
    grade.checks.cases.push_back(c);
  }
  score_checks(grade);
  return grade;
}

std::string lost_lines(const LabGrade& grade) {
  std::string text;
  for (const auto& line : grade.lost) text += line + "\n";
  return text;
}

}  // namespace

TEST_CASE("the main steps alone, their stretch checks skipped, earn every point") {
  const auto grade = graded({V::passed, V::passed, V::passed, V::skipped, V::skipped}, false);
  CHECK(grade.correctness == doctest::Approx(10));
  CHECK(grade.correctness_max == doctest::Approx(10));
  CHECK(grade.groups.at(0).passed == 3);
  CHECK(grade.groups.at(0).skipped == 2);
  CHECK(grade.lost.empty());
  CHECK(grade.checks.failed() == 0);
  CHECK(grade.checks.passed() == 3);
}

TEST_CASE("a failed main check costs its share of the checks that ran, not of every check") {
  const auto grade = graded({V::passed, V::passed, V::wrong_answer, V::skipped, V::skipped}, false);
  CHECK(grade.correctness == doctest::Approx(10.0 * 2 / 3));
  CHECK(lost_lines(grade).find("main c: wrong answer") != std::string::npos);
  CHECK(lost_lines(grade).find("stretch") == std::string::npos);
  CHECK(grade.checks.failed() == 1);
}

TEST_CASE("written stretch steps that fail cost points as any check does") {
  const auto grade = graded({V::passed, V::passed, V::passed, V::passed, V::wrong_answer}, false);
  CHECK(grade.correctness == doctest::Approx(8));
}

TEST_CASE("a group whose every check was skipped earns nothing, and says why") {
  const auto grade = graded({V::passed, V::passed, V::passed, V::skipped, V::skipped}, true);
  CHECK(grade.correctness == doctest::Approx(6));
  CHECK(grade.correctness_max == doctest::Approx(10));
  CHECK(lost_lines(grade).find("-4 pts, stretch: every check of this group was skipped") != std::string::npos);
}

TEST_CASE("a skipped check does not open the gate") {
  const auto grade = graded({V::skipped, V::passed, V::passed, V::passed, V::passed}, false);
  CHECK(grade.correctness == 0);
}
