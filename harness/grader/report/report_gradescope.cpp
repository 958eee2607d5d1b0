#include "report_formats.h"

#include "markup.h"
#include "report_document.h"

namespace pplab::cli::reporting {
namespace {

std::string case_line(const CaseResult& c) {
  return "[" + verdict_name(c.verdict) + "] " + c.name + (c.reason.empty() ? "" : " — " + c.reason);
}

}  // namespace

using nlohmann::json;

json gradescope(const GradeReport& report) {
  json tests = json::array();
  for (const auto& lab : report.labs) {
    for (const auto& group : lab.groups) {
      if (group.max == 0 && group.cases.empty()) continue;
      std::string output;
      if (lab.status != LabStatus::graded) output = status_name(lab.status) + "\n" + tail(lab.status_detail, 3000) + "\n";
      for (std::size_t index : group.cases) {
        const std::string& name = lab.case_names[index];
        const CaseResult* result = nullptr;
        for (const auto& c : lab.checks.cases)
          if (c.name == name) result = &c;
        output += result ? case_line(*result) + "\n" : "[not run] " + name + "\n";
        if (result && result->failed()) output += tail(result->detail.empty() ? checker_lines(result->output) : result->detail, 1500) + "\n";
      }
      tests.push_back({{"name", lab.lab.folder + ": " + group.name},
                       {"score", group.points},
                       {"max_score", group.max},
                       {"status", group.points + 1e-9 >= group.max ? "passed" : "failed"},
                       {"output", output},
                       {"visibility", lab.rules.visibility}});
    }
    std::string speed_output = lab.speed_note;
    if (lab.student_ms > 0)
      speed_output += "\nstudent " + fixed(lab.student_ms, 4) + " ms, " + fixed(lab.student_gbps, 1) + " GB/s (" +
                      fixed(lab.student_percent_of_copy, 1) + "% of copy); reference " + fixed(lab.reference_ms, 4) + " ms";
    for (const auto& note : lab.notes) speed_output += "\nnote: " + note;
    tests.push_back({{"name", lab.lab.folder + (lab.speed_graded ? ": speed" : ": speed (not graded)")},
                     {"score", lab.speed},
                     {"max_score", lab.speed_max},
                     {"status", lab.speed + 1e-9 >= lab.speed_max ? "passed" : "failed"},
                     {"output", speed_output},
                     {"visibility", lab.rules.visibility}});
  }
  std::string output = "Graded on the " + report.backend + " backend (" + report.device + "), correctness: " +
                       report.correctness() + ", seed " + seed_text(report) + ".";
  if (auto banner = speed_banner(report); !banner.empty()) output += "\n" + banner;
  for (const auto& note : report.notes) output += "\n" + note;
  json labs = json::object();
  for (const auto& lab : report.labs)
    labs[lab.lab.folder] = {{"score", lab.score()},         {"max_score", lab.max()},
                            {"correctness", lab.correctness}, {"speed", lab.speed},
                            {"status", status_name(lab.status)},         {"ratio_to_reference", lab.ratio},
                            {"ratio_noise", lab.ratio_noise}};
  return {{"score", report.score()},
          {"execution_time", int(report.seconds + 0.5)},
          {"output", output},
          {"visibility", "visible"},
          {"stdout_visibility", "hidden"},
          {"extra_data", {{"seed", report.seed}, {"backend", report.backend}, {"correctness", report.correctness()},
                          {"max_score", report.max()},
                          {"student", report.student}, {"labs", labs}}},
          {"tests", tests}};
}

}  // namespace pplab::cli::reporting
