// One student of a class graded start to finish (student_grading.h).
#include "student_grading.h"

#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <map>
#include <stdexcept>

#include "process.h"
#include "reports.h"
#include "staging.h"
#include "submission_build.h"

namespace pplab::cli {
namespace fs = std::filesystem;

fs::path make_scratch(const std::string& label) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = (fs::path(tmp && *tmp ? tmp : "/tmp") / ("pplab-" + label + "-XXXXXX")).string();
  for (char& c : pattern)
    if (c == '/' || std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_') continue;
    else c = '_';
  if (!mkdtemp(pattern.data())) throw std::runtime_error("could not create a scratch folder " + pattern);
  fs::create_directories(fs::path(pattern) / "a" / "b" / "c" / "run");
  return fs::path(pattern) / "a" / "b" / "c" / "run";
}

std::string now_iso() {
  const std::time_t t = std::time(nullptr);
  char text[64];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S%z", std::localtime(&t));
  return text;
}

std::string device_name(const std::string& backend) {
  if (backend != "gpu") return "CPU emulator";
  const auto run = run_process({"nvidia-smi", "--query-gpu=name", "--format=csv,noheader", "-i", "0"}, {},
                               std::chrono::seconds(30));
  std::string name = run.succeeded() ? run.output : "GPU";
  while (!name.empty() && (name.back() == '\n' || name.back() == '\r')) name.pop_back();
  return name.empty() ? "GPU" : name;
}

std::string summary_line(const GradeReport& report) {
  std::string line = (report.student.empty() ? std::string("tree") : report.student) + ": " +
                     format_points(report.score()) + " / " + format_points(report.max());
  for (const auto& lab : report.labs)
    line += "  " + lab.lab.number + "=" + format_points(lab.score()) + (lab.status == LabStatus::graded ? "" : "(" + status_name(lab.status) + ")");
  return line;
}

GradeReport report_head(const std::string& student, const GradeSettings& settings) {
  GradeReport report;
  report.student = student;
  report.backend = settings.workbook.backend;
  report.seed = settings.seed;
  report.seed_given = settings.seed_given;
  report.points_file = settings.points.source();
  return report;
}

GradeReport not_graded_yet(const std::string& student, const std::vector<Lab>& labs, const GradeSettings& settings) {
  GradeReport report = report_head(student, settings);
  report.notes.push_back("not graded yet: the batch stopped (or is still running) before this student; the same "
                         "command run again grades the students without results");
  for (const auto& lab : labs) {
    LabGrade grade;
    grade.lab = lab;
    grade.status = LabStatus::not_graded;
    grade.status_detail = report.notes.front();
    grade.rules = settings.points.rules_for(lab.folder);
    for (const auto& group : grade.rules.groups) grade.correctness_max += group.points;
    grade.speed_max = report.backend == "gpu" ? grade.rules.speed_points : 0;
    report.labs.push_back(grade);
  }
  return report;
}

GradeReport grade_student(const fs::path& folder, const std::vector<Lab>& labs, const GradeSettings& base,
                          const fs::path& out, int build_jobs, bool keep_work,
                          const std::function<void(const std::string&)>& log) {
  GradeReport report = report_head(folder.filename().string(), base);
  report.started = now_iso();
  const auto start = std::chrono::steady_clock::now();
  const fs::path work = out / "work" / report.student;
  fs::path scratch_root;  // removed at the end
  std::vector<LabGrade> grades;
  for (const auto& lab : labs) {
    LabGrade grade;
    grade.lab = lab;
    grade.lab.student_checks.clear();
    grade.lab.student_bench.clear();
    grade.lab.emulator_checks.clear();
    grade.lab.student_runner.clear();
    grade.lab.emulator_runner.clear();
    grades.push_back(grade);
  }
  try {
    log("collecting files");
    const auto staged = stage_submission(folder, base.workbook.labs, work / "submission");
    report.notes = staged.notes;
    bool any = false;
    for (auto& grade : grades) {
      if (staged.refused.count(grade.lab.folder)) {
        grade.status = LabStatus::not_submitted;
        grade.status_detail = "refused: " + staged.refused.at(grade.lab.folder);
      } else if (!staged.files.count(grade.lab.folder)) {
        grade.status = LabStatus::not_submitted;
        grade.status_detail = "no " + grade.lab.name + ".cu for " + grade.lab.folder + " in " + folder.string();
      } else {
        any = true;
        grade.lab.student_file = staged.files.at(grade.lab.folder);  // what the checks and reports name
      }
    }
    if (any) {
      log("building");
      std::map<std::string, std::vector<std::string>> allowed_libraries;
      for (const auto& lab : labs) allowed_libraries[lab.folder] = base.points.rules_for(lab.folder).libraries;
      const auto build = build_submission(base.workbook, staged, labs, work / "build", build_jobs, base.sandbox, out,
                                          allowed_libraries);
      for (auto& grade : grades) {
        if (grade.status != LabStatus::graded) continue;
        if (!build.configure_error.empty()) {
          grade.status = LabStatus::not_built;
          grade.status_detail = build.configure_error;
        } else if (build.compile_errors.count(grade.lab.folder)) {
          grade.status = LabStatus::compile_error;
          grade.status_detail = build.compile_errors.at(grade.lab.folder);
        } else if (build.checks.count(grade.lab.folder)) {
          grade.lab.student_checks = build.checks.at(grade.lab.folder);
          if (build.runners.count(grade.lab.folder)) grade.lab.student_runner = build.runners.at(grade.lab.folder);
          if (build.benches.count(grade.lab.folder)) grade.lab.student_bench = build.benches.at(grade.lab.folder);
          if (build.emulator_checks.count(grade.lab.folder)) {
            grade.lab.emulator_checks = build.emulator_checks.at(grade.lab.folder);
            grade.lab.emulator_runner = build.emulator_runners.at(grade.lab.folder);
          }
          if (build.emulator_errors.count(grade.lab.folder))
            grade.emulator_problem = "the emulator could not build it:\n" + build.emulator_errors.at(grade.lab.folder);
        } else {
          grade.status = LabStatus::not_built;
          grade.status_detail = "the build succeeded but made no check binary";
        }
      }
    }
    GradeSettings settings = base;
    settings.scratch = make_scratch(report.student);
    scratch_root = settings.scratch.parent_path().parent_path().parent_path().parent_path();
    settings.progress = log;
    grade_labs(report, grades, settings);
  } catch (const std::exception& error) {
    report.notes.push_back(std::string("grading stopped early: ") + error.what());
    if (report.labs.empty())
      for (auto& grade : grades) {
        if (grade.status == LabStatus::graded) grade.status = LabStatus::not_graded;
        grade.rules = base.points.rules_for(grade.lab.folder);
        report.labs.push_back(grade);
      }
  }
  report.device = device_name(report.backend);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const auto& problem : write_reports(report, out / report.student))
    report.notes.push_back("report problem: " + problem);
  std::error_code ignored;
  if (!scratch_root.empty()) fs::remove_all(scratch_root, ignored);
  if (!keep_work) fs::remove_all(work / "build", ignored);
  log(summary_line(report));
  return report;
}

}  // namespace pplab::cli
