// Grading this build's own tree: see tree_grading.h.
#include "tree_grading.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "reports.h"
#include "student_grading.h"

namespace pplab::cli {
namespace fs = std::filesystem;

int grade_tree(const GradeOptions& options, GradeRun& run, Progress& progress) {
  const Workbook& workbook = run.workbook;
  GradeSettings& settings = run.settings;
  const auto& labs = run.labs;
  const int jobs = run.jobs, cores = run.cores;
  const fs::path out = options.out.empty() ? workbook.build_dir / "report" : fs::path(options.out);
  GradeReport report = report_head("", settings);
  report.started = now_iso();
  const auto start = std::chrono::steady_clock::now();
  std::vector<LabGrade> grades;
  for (const auto& lab : labs) {
    LabGrade grade;
    grade.lab = lab;
    if (lab.student_checks.empty()) {
      grade.status = LabStatus::not_built;
      grade.status_detail =
          lab.student_checks_program
              ? "no " + lab.student_checks_program->file.string() +
                    ": did the build fail (see its compiler output)? `pplab grade --submissions` captures "
                    "compile errors per lab."
              : "this build does not compile the student's " + lab.folder + " (PPLAB_SOURCES has no labs)";
    }
    grades.push_back(grade);
  }
  share_jobs(jobs, settings);
  settings.sim_threads = std::max(1, cores / jobs);
  settings.scratch = make_scratch("tree");
  settings.progress = [&](const std::string& line) { progress.say(line); };
  std::fprintf(stderr, "grading %zu lab(s) of %s on the %s backend, seed %llu%s\n", labs.size(),
               workbook.source_dir.string().c_str(), workbook.backend.c_str(),
               static_cast<unsigned long long>(settings.seed), settings.seed_given ? "" : " (hidden)");
  try {
    grade_labs(report, grades, settings);
  } catch (const std::exception& error) {
    report.notes.push_back(std::string("grading stopped early: ") + error.what());
    if (report.labs.empty()) report.labs = grades;
  }
  report.device = device_name(workbook.backend);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::error_code ignored;
  fs::remove_all(settings.scratch.parent_path().parent_path().parent_path().parent_path(), ignored);
  const auto problems = write_reports(report, out);
  progress.done(summary_line(report));
  for (const auto& problem : problems) std::fprintf(stderr, "pplab grade: %s\n", problem.c_str());
  std::printf("report: %s\n", (out / "report.html").string().c_str());
  return problems.empty() ? 0 : 1;
}

}  // namespace pplab::cli
