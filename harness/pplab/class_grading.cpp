// Grading a class: see class_grading.h.
#include "class_grading.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "batch.h"
#include "build_plan.h"
#include "parallel_for.h"
#include "process.h"
#include "slurm.h"
#include "speed_points.h"
#include "staging.h"
#include "student_grading.h"
#include "submission_build.h"

namespace pplab::cli {
namespace fs = std::filesystem;

int grade_class(const GradeOptions& options, GradeRun& run, Progress& progress) {
  const Workbook& workbook = run.workbook;
  GradeSettings& settings = run.settings;
  const auto& labs = run.labs;
  const int jobs = run.jobs, cores = run.cores;
  if (options.out.empty()) throw std::invalid_argument("--submissions needs --out OUT (where the reports go)");
  const fs::path dir = fs::absolute(options.submissions).lexically_normal();
  const fs::path out = fs::absolute(options.out).lexically_normal();
  auto students = list_student_folders(dir, workbook.labs);
  if (!options.students.empty()) {
    // Only these students (a Slurm array task grades one): the rest are left alone.
    std::vector<fs::path> chosen;
    std::stringstream names(options.students);
    std::string name;
    while (std::getline(names, name, ',')) {
      if (name.empty()) continue;
      const auto found = std::find_if(students.begin(), students.end(),
                                      [&](const fs::path& folder) { return folder.filename() == name; });
      if (found == students.end())
        throw std::invalid_argument("--students: no folder '" + name + "' in " + dir.string());
      chosen.push_back(*found);
    }
    students = chosen;
  }
  auto inside = [](const fs::path& child, const fs::path& parent) {
    const auto rel = child.lexically_relative(parent);
    return !rel.empty() && *rel.begin() != "..";
  };
  if (out == dir || inside(out, dir))
    throw std::invalid_argument("--out must not be inside --submissions (it would be graded as a student)");
  fs::create_directories(out);
  if (!options.backend.empty() && !options.plan) throw std::invalid_argument("--backend is only for --plan");
  if (options.plan) {
    const std::string backend = options.backend.empty() ? workbook.backend : options.backend;
    if (backend != "sim" && backend != "gpu") throw std::invalid_argument("--backend must be sim or gpu");
    return plan_submissions(workbook, backend, students, labs, out);
  }
  // What every student shares is built once, before the first student (and by each Slurm
  // task, where it is then up to date); the manifest is read again to find it.
  progress.say("building what the class shares: the checks, the benchmarks, the runner's libraries");
  if (const std::string error = build_grading_kit(workbook, cores); !error.empty()) throw std::runtime_error(error);
  run.workbook = load_manifest(run.workbook.build_dir);
  settings.workbook = run.workbook;
  run.labs = chosen_labs(run.workbook, options.labs);
  std::vector<std::string> lab_names;
  for (const auto& lab : labs) lab_names.push_back(lab.folder);
  BatchInfo batch{dir, out, lab_names, settings.seed, settings.seed_given, workbook.backend};
  // The same batch run again locally keeps its hidden seed (a Slurm batch keeps its own).
  if (!options.slurm && !settings.seed_given && options.hidden_seed.empty())
    if (const auto seed = hidden_seed_before(batch)) settings.seed = batch.seed = *seed;
  if (options.slurm) {
    SlurmRequest request;
    request.pplab = fs::read_symlink("/proc/self/exe");
    request.batch = batch;
    for (const auto& folder : students) request.students.push_back(folder.filename().string());
    request.grading = options;
    request.queue = options.queue;
    request.points = settings.points;
    request.labs = workbook.labs;
    return run_slurm_batch(request);
  }
  const int parallel = std::max(1, std::min<int>(jobs, int(students.size())));
  share_jobs(std::max(1, jobs / parallel), settings);
  settings.sim_threads = std::max(1, cores / jobs);
  const int build_jobs = std::max(1, cores / parallel);
  std::fprintf(stderr, "grading %zu submission(s) in %s, %zu lab(s), %d at a time, %s backend, seed %llu%s\n",
               students.size(), dir.string().c_str(), labs.size(), parallel, workbook.backend.c_str(),
               static_cast<unsigned long long>(settings.seed), settings.seed_given ? "" : " (hidden)");

  // Each student's place in the batch: written at the start and after every student, so a
  // batch that is stopped leaves a gradebook of those finished, the rest not graded. A
  // rerun of the same batch keeps the students an earlier run finished.
  std::map<std::string, GradeReport> earlier;
  for (auto& report : finished_before(batch)) earlier[report.student] = std::move(report);
  std::vector<BatchEntry> entries(students.size());
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < students.size(); ++i) {
    const std::string name = students[i].filename().string();
    if (earlier.count(name)) {
      entries[i] = {earlier.at(name), true};
      continue;
    }
    entries[i].report = not_graded_yet(name, labs, settings);
    todo.push_back(i);
  }
  if (!earlier.empty())
    std::fprintf(stderr, "%zu of %zu students already have results in %s (same seed and labs): grading the other %zu\n",
                 students.size() - todo.size(), students.size(), out.string().c_str(), todo.size());
  std::mutex batch_mutex;
  write_batch_files(entries, batch);
  stop_children_on_signals();   // a stopped batch leaves its files, and nothing running

  const auto started = std::chrono::steady_clock::now();
  std::size_t finished = 0;
  // The references' timings, beside the students' builds (the GPU's idle time); joined
  // however the batch ends.
  struct Joined {
    std::thread thread;
    ~Joined() {
      if (thread.joinable()) thread.join();
    }
  } references_ahead;
  if (!todo.empty())
    references_ahead.thread = std::thread([&] {
      try {
        time_references_ahead(labs, settings, [&](const std::string& line) { progress.done(line); });
      } catch (const std::exception& error) {
        progress.done(std::string("timing the references ahead stopped: ") + error.what());
      }
    });
  parallel_for(todo.size(), parallel, [&](std::size_t k) {
    const std::size_t i = todo[k];
    const std::string name = students[i].filename().string();
    // The student's own lines (each check, each timing) go to its log, not the terminal.
    std::error_code ignored;
    fs::create_directories(out / name, ignored);
    std::ofstream log_file(out / name / "grade.log");
    std::mutex log_mutex;
    const auto log = [&](const std::string& line) {
      std::lock_guard<std::mutex> lock(log_mutex);
      log_file << line << std::endl;
    };
    GradeReport report = grade_student(students[i], labs, settings, out, build_jobs, options.keep_work, log);
    std::lock_guard<std::mutex> lock(batch_mutex);
    entries[i] = {report, true};
    try {
      write_batch_files(entries, batch);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "pplab grade: %s\n", error.what());
    }
    ++finished;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    progress.student_done(summary_line(report), finished, todo.size(), elapsed);
  });

  if (references_ahead.thread.joinable()) references_ahead.thread.join();
  std::vector<GradeReport> reports;
  for (const auto& entry : entries) reports.push_back(entry.report);
  return finish_batch(reports, batch);
}

}  // namespace pplab::cli
