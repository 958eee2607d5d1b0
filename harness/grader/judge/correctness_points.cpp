// A lab's correctness points from its checks' verdicts (score_checks in grading.h): each
// check in its points-file group, the gate, skipped checks, the points lost.
#include <algorithm>
#include <string>
#include <vector>

#include "correctness_points.h"

namespace pplab::cli {
namespace {

bool matches(const std::string& pattern, const std::string& name) {
  return pattern == "*" || name.rfind(pattern, 0) == 0;
}

// Puts every case in the first group that names it (listed prefixes before "*").
void assign_groups(LabGrade& grade) {
  grade.groups.clear();
  for (const auto& rule : grade.rules.groups) grade.groups.push_back({rule.name, 0, rule.points, {}, 0});
  std::vector<bool> taken(grade.case_names.size(), false);
  for (int pass = 0; pass < 2; ++pass) {  // explicit prefixes first, then catch-alls
    for (std::size_t g = 0; g < grade.rules.groups.size(); ++g) {
      for (const auto& pattern : grade.rules.groups[g].match) {
        if ((pattern == "*") != (pass == 1)) continue;
        for (std::size_t c = 0; c < grade.case_names.size(); ++c) {
          if (taken[c] || !matches(pattern, grade.case_names[c])) continue;
          taken[c] = true;
          grade.groups[g].cases.push_back(c);
        }
      }
    }
  }
  std::vector<std::string> unmatched;
  for (std::size_t c = 0; c < taken.size(); ++c)
    if (!taken[c]) unmatched.push_back(grade.case_names[c]);
  if (!unmatched.empty()) {
    GroupScore extra{"checks without points", 0, 0, {}, 0};
    for (std::size_t c = 0; c < taken.size(); ++c)
      if (!taken[c]) extra.cases.push_back(c);
    grade.groups.push_back(extra);
    grade.notes.push_back(std::to_string(unmatched.size()) +
                          " check(s) match no group of the points file and earn no points (they still "
                          "count for speed eligibility); first: '" + unmatched.front() + "'");
  }
  for (auto& group : grade.groups)
    if (group.cases.empty() && group.max > 0 && !grade.case_names.empty())
      grade.notes.push_back("points file: group '" + group.name +
                            "' matches no check of this lab; its points are not counted");
  // A group that matches nothing is not part of the max (the test was renamed, say).
  if (!grade.case_names.empty())
    for (auto& group : grade.groups)
      if (group.cases.empty()) group.max = 0;
}

// The student's verdict for case name `name`, if it ran.
const CaseResult* find_case(const LabGrade& grade, const std::string& name) {
  for (const auto& c : grade.checks.cases)
    if (c.name == name) return &c;
  return nullptr;
}

// The gate's checks that did not pass (empty when the gate is open).
std::vector<std::string> closed_gate(const LabGrade& grade) {
  std::vector<std::string> failed;
  for (const auto& pattern : grade.rules.gate) {
    for (std::size_t c = 0; c < grade.case_names.size(); ++c) {
      const std::string& name = grade.case_names[c];
      if (pattern == "first" ? c != 0 : !matches(pattern, name)) continue;
      const auto* result = find_case(grade, name);
      if (!result || !result->passed()) failed.push_back(name);
    }
  }
  return failed;
}

void score_correctness(LabGrade& grade) {
  grade.correctness = 0;
  grade.correctness_max = 0;
  const auto gate = grade.status == LabStatus::graded ? closed_gate(grade) : std::vector<std::string>{};
  for (auto& group : grade.groups) {
    grade.correctness_max += group.max;
    group.passed = 0;
    group.skipped = 0;
    std::vector<std::string> failures;
    for (std::size_t index : group.cases) {
      const auto* result = find_case(grade, grade.case_names[index]);
      if (result && result->passed()) ++group.passed;
      else if (result && result->skipped()) ++group.skipped;
      else if (group.max > 0 && grade.status == LabStatus::graded)
        failures.push_back(grade.case_names[index] + ": " +
                           (result ? verdict_name(result->verdict) + (result->reason.empty() ? "" : " — " + result->reason)
                                   : std::string("did not run")));
    }
    if (grade.status != LabStatus::graded) {
      group.points = 0;
      if (group.max > 0)
        grade.lost.push_back("-" + format_points(group.max) + " pts, " + group.name + ": " + status_name(grade.status));
      continue;
    }
    // A skipped check (a stretch step not written) neither earns nor costs: the group's
    // points are split over the checks that ran. A group with none that ran earns nothing.
    const std::size_t ran = group.cases.size() - std::size_t(group.skipped);
    const double share = ran == 0 ? 0 : group.max / double(ran);
    group.points = share * group.passed;
    if (ran == 0 && group.max > 0 && !group.cases.empty())
      grade.lost.push_back("-" + format_points(group.max) + " pts, " + group.name +
                           ": every check of this group was skipped (its steps are not written)");
    const bool sanitizer_finding = std::any_of(group.cases.begin(), group.cases.end(), [&](std::size_t index) {
      const auto* result = find_case(grade, grade.case_names[index]);
      return result && (result->verdict == CaseResult::Verdict::memory_error ||
                        result->verdict == CaseResult::Verdict::race_hazard);
    });
    if (sanitizer_finding && grade.rules.sanitizer_cost == "group" && group.points > 0) {
      grade.lost.push_back("-" + format_points(group.points) + " pts, " + group.name +
                           ": compute-sanitizer found a hazard or memory error in this group (the points file's "
                           "sanitizer_cost: the whole group)");
      group.points = 0;
    }
    if (!gate.empty()) {
      if (group.points > 0)
        grade.lost.push_back("-" + format_points(group.points) + " pts, " + group.name + ": " +
                             std::to_string(group.passed) + " check(s) passed, but no correctness points are "
                             "earned until '" + gate.front() + "' passes (the points file's gate)");
      group.points = 0;
    }
    grade.correctness += group.points;
    for (const auto& failure : failures)
      grade.lost.push_back("-" + format_points(share) + " pts, " + group.name + ": " + failure);
  }
}

}  // namespace

void score_checks(LabGrade& grade) {
  assign_groups(grade);
  score_correctness(grade);
}

}  // namespace pplab::cli
