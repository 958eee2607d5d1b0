// pplab grade: grade this build's own tree (labs/ against solutions/), or a folder of
// submissions, and write reports people and tools read. See docs/instructor_guide.md.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "pplab/seed.h"

#include "batch.h"
#include "build_plan.h"
#include "commands.h"
#include "grade_request.h"
#include "grading.h"
#include "parallel_for.h"
#include "process.h"
#include "reports.h"
#include "sanitizer.h"
#include "slurm.h"
#include "student_grading.h"
#include "staging.h"
#include "submission_build.h"
#include "workbook.h"

namespace pplab::cli {
namespace fs = std::filesystem;
namespace {

// The help of an option that means something only beside `other`: it names `other` first
// ("With --slurm: the partition").
std::string only_with(const std::string& other, const std::string& help) { return "With " + other + ": " + help; }

// The grading options (grade_request.h) and what only the command line asks for.
struct GradeOptions : GradeRequest {
  bool plan = false;        // stage and configure only: what would be built
  std::string backend;      // with --plan: configure for this backend instead of the build's
  bool slurm = false;
  SlurmQueue queue;  // with --slurm
  std::string collect;
  std::string task;  // a Slurm task: the batch's request.json
};

std::uint64_t hidden_seed() {
  const std::string bytes = random_key();
  std::uint64_t seed = 0;
  for (int i = 0; i < 6; ++i) seed = (seed << 8) | static_cast<unsigned char>(bytes[std::size_t(i)]);
  return seed;  // 48 bits: exact in JSON readers that use doubles
}

std::string duration_text(double seconds) {
  const long whole = std::lround(seconds);
  if (whole < 60) return std::to_string(whole) + " s";
  return std::to_string(whole / 60) + " min " + std::to_string(whole % 60) + " s";
}

// Progress on stderr: one rewritten line on a terminal, plain lines in a log.
class Progress {
 public:
  void say(const std::string& line) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (tty_) std::fprintf(stderr, "\r\033[K%s", line.substr(0, 150).c_str());
    else std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
  }
  void done(const std::string& line) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::fprintf(stderr, "%s%s\n", tty_ ? "\r\033[K" : "", line.c_str());
  }
  // A class: one line per finished student, with the count and the time left at the pace
  // so far; on a terminal a bar below it.
  void student_done(const std::string& line, std::size_t finished, std::size_t total, double elapsed_seconds) {
    std::lock_guard<std::mutex> lock(mutex_);
    const double left = finished ? elapsed_seconds / double(finished) * double(total - finished) : 0;
    const std::string count = "[" + std::to_string(finished) + "/" + std::to_string(total) + "]";
    const std::string pace = finished < total ? ", about " + duration_text(left) + " left" : "";
    std::fprintf(stderr, "%s%s %s (%s so far%s)\n", tty_ ? "\r\033[K" : "", count.c_str(), line.c_str(),
                 duration_text(elapsed_seconds).c_str(), pace.c_str());
    if (tty_ && finished < total) {
      const std::size_t width = 30, filled = width * finished / total;
      std::fprintf(stderr, "[%s%s] %zu of %zu students%s", std::string(filled, '#').c_str(),
                   std::string(width - filled, '.').c_str(), finished, total, pace.c_str());
    }
    std::fflush(stderr);
  }
 private:
  std::mutex mutex_;
  bool tty_ = isatty(STDERR_FILENO);
};

std::vector<Lab> chosen_labs(const Workbook& workbook, const std::string& list) {
  if (list.empty()) return workbook.labs;
  std::vector<Lab> labs;
  std::stringstream stream(list);
  std::string item;
  while (std::getline(stream, item, ',')) {
    if (item.empty()) continue;
    const auto lab = find_lab(workbook, item);
    if (!lab) {
      std::string known;
      for (const Lab& l : workbook.labs) known += " " + l.folder;
      throw std::invalid_argument("--labs: no lab named '" + item + "'; the labs are:" + known);
    }
    if (std::none_of(labs.begin(), labs.end(), [&](const Lab& l) { return l.folder == lab->folder; }))
      labs.push_back(*lab);
  }
  if (labs.empty()) throw std::invalid_argument("--labs: give at least one lab, e.g. --labs 01,02");
  return labs;
}

// What the options ask for, checked: the settings both kinds of grading start from.
struct GradeRun {
  Workbook workbook;
  GradeSettings settings;
  std::vector<Lab> labs;
  int cores = 1, jobs = 1;
};

// The points: an instructor's whole-course file (--points), else the course's defaults
// with each lab's own rules (harness/grading/defaults.json, harness/labs/NN_name/points.json).
PointsFile points_from(const GradeOptions& options, const Workbook& workbook) {
  if (!options.points.empty()) return load_points(options.points);
  return load_lab_points(workbook.source_dir, workbook.labs);
}

GradeRun settings_from(const GradeOptions& options) {
  const Workbook workbook = discover_workbook();
  GradeSettings settings;
  settings.workbook = workbook;
  settings.points = points_from(options, workbook);
  if (options.slurm && options.submissions.empty())
    throw std::invalid_argument("--slurm grades a class: give --submissions DIR and --out OUT");
  if (options.queue.max_parallel < 0) throw std::invalid_argument("--max-parallel must be at least 1");
  if (!options.hidden_seed.empty()) {
    settings.seed = parse_seed(options.hidden_seed, "--hidden-seed");
  } else if (!options.seed.empty()) {
    settings.seed = parse_seed(options.seed, "--seed");
    settings.seed_given = true;
  } else {
    settings.seed = hidden_seed();
  }
  if (options.case_limit < 1) throw std::invalid_argument("--case-limit must be at least 1 second");
  settings.case_limit = std::chrono::seconds(options.case_limit);
  if (options.compile_limit < 1) throw std::invalid_argument("--compile-limit must be at least 1 second");
  const int cores = std::max(1u, std::thread::hardware_concurrency());
  const int jobs = options.jobs > 0 ? options.jobs : cores;
  if (options.jobs < 0) throw std::invalid_argument("--jobs must be at least 1");
  const auto labs = chosen_labs(workbook, options.labs);
  if (workbook.backend == "gpu") {
    if (options.no_sanitizer) settings.sanitizer_note = "turned off (--no-sanitizer)";
    else if ((settings.sanitizer = find_sanitizer()).empty())
      settings.sanitizer_note = "compute-sanitizer was not found on this machine (it comes with the CUDA toolkit)";
  }
  // Students' code runs only in a sandbox when a class is graded; grading your own tree
  // uses one when it can.
  if (options.unsafe_no_sandbox) {
    settings.sandbox.unavailable = "turned off (--unsafe-no-sandbox)";
  } else {
    settings.sandbox = find_sandbox(workbook.backend == "gpu");
    if (settings.sandbox.bwrap.empty() && !options.submissions.empty())
      throw std::invalid_argument("cannot grade --submissions without a sandbox for the students' code: " +
                                  settings.sandbox.unavailable +
                                  ". Install bubblewrap, or pass --unsafe-no-sandbox to run their code unconfined");
  }
  settings.sandbox.compile_seconds = options.compile_limit;   // a limit, with or without the sandbox
  std::vector<fs::path> kits = {workbook.build_dir / "pplab-kit"};
  if (!workbook.sim_oracle_dir.empty()) kits.push_back(workbook.sim_oracle_dir / "pplab-kit");
  settings.sandbox.package_folders = package_folders(kits);
  return GradeRun{workbook, settings, labs, cores, jobs};
}

// A submission's share of the jobs, split between labs graded side by side and the
// checks of each: about the square root of it each way (16 jobs: 4 labs of 4 checks), so
// neither a lab's many checks nor a batch of short labs leaves cores idle.
void share_jobs(int jobs, GradeSettings& settings) {
  settings.lab_jobs = std::max(1, int(std::sqrt(double(jobs))));
  settings.case_jobs = std::max(1, jobs / settings.lab_jobs);
}

// One tree: the student binaries and references of this build.
int grade_tree(const GradeOptions& options, GradeRun& run, Progress& progress) {
  const Workbook& workbook = run.workbook;
  GradeSettings& settings = run.settings;
  const auto& labs = run.labs;
  const int jobs = run.jobs, cores = run.cores;
  const fs::path out = options.out.empty() ? workbook.build_dir / "report" : fs::path(options.out);
  GradeReport report;
  report.backend = workbook.backend;
  report.seed = settings.seed;
  report.seed_given = settings.seed_given;
  report.points_file = settings.points.source();
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

// A class: one build and one report per student.
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

  std::vector<GradeReport> reports;
  for (const auto& entry : entries) reports.push_back(entry.report);
  return finish_batch(reports, batch);
}

// A Slurm task's options: the batch's request (OUT/slurm/request.json) with the task's own
// --out and --students. Anything else given beside --task is refused: the request is the
// one place a task's options come from.
GradeOptions task_options(const GradeOptions& given) {
  GradeOptions task;
  static_cast<GradeRequest&>(task) = read_request(given.task);
  GradeRequest rest = given;
  rest.out.clear();
  rest.students.clear();
  const nlohmann::json extra = nlohmann::json::diff(nlohmann::json(GradeRequest{}), nlohmann::json(rest));
  if (!extra.empty() || given.plan || given.slurm || !given.collect.empty() || !given.backend.empty())
    throw std::invalid_argument("--task takes every option from " + given.task +
                                "; give only --out and --students beside it");
  if (given.out.empty() || given.students.empty())
    throw std::invalid_argument("--task needs the task's --out and --students");
  task.out = given.out;
  task.students = given.students;
  return task;
}

int run_grade(const GradeOptions& options) {
  if (!options.collect.empty()) {
    const Workbook workbook = discover_workbook();
    return collect_slurm_batch(fs::absolute(options.collect).lexically_normal(), points_from(options, workbook),
                               workbook.labs);
  }
  if (!options.task.empty()) return run_grade(task_options(options));
  GradeRun run = settings_from(options);
  GpuGate gpu;
  run.settings.gpu = &gpu;
  ReferenceTimes reference_times;
  run.settings.reference_times = &reference_times;
  Progress progress;
  return options.submissions.empty() ? grade_tree(options, run, progress) : grade_class(options, run, progress);
}

}  // namespace

void add_grade_command(CLI::App& app) {
  auto [command, options] = add_command<GradeOptions>(
      app, "grade",
      "Grade this build's labs/ against solutions/ (or a folder of submissions) and write report.md, "
      "report.html, results.json (Gradescope) and junit.xml",
      run_grade);
  command->add_option("--submissions", options->submissions,
                      "Folder with one folder per student (DIR/alice/02_dot_product/dot_product.cu, or a "
                      "labs/ copy, or the .cu files flat); writes OUT/gradebook.csv and OUT/<student>/");
  command->add_option("--out", options->out,
                      "Where the reports go (default for one tree: <build>/report; required with --submissions)");
  command->add_option("--seed", options->seed,
                      "Seed for the random inputs; default: a hidden seed from /dev/urandom, recorded in the report");
  command->add_option("--labs", options->labs, "Only these labs, e.g. 01,02 or 02_dot_product (default: all)");
  command->add_option("--case-limit", options->case_limit, "Seconds each test case may run before it is killed")
      ->capture_default_str();
  command->add_option("--compile-limit", options->compile_limit,
                      "CPU seconds each compiler process of a student's build may take before it is killed")
      ->capture_default_str();
  command->add_option("--jobs,-j", options->jobs,
                      "Jobs at once, shared out between students, their labs and each lab's checks (default: every CPU "
                      "core); GPU timing always runs alone");
  command->add_option("--students", options->students,
                      only_with("--submissions", "grade only these student folders, e.g. alice,bob (the gradebook "
                                                 "then lists only them)"));
  command->add_option("--points", options->points,
                      "A whole-course points file ({\"defaults\": ..., \"labs\": {\"02_dot_product\": ...}}) to grade "
                      "with (default: harness/grading/defaults.json and each lab's harness/labs/NN_name/points.json)");
  command->add_flag("--keep-work", options->keep_work, "Keep each student's build folder under OUT/work/");
  command->add_flag("--no-sanitizer", options->no_sanitizer,
                    "GPU: do not run the checks under compute-sanitizer memcheck and racecheck");
  command->add_flag("--unsafe-no-sandbox", options->unsafe_no_sandbox,
                    "Run the students' code outside bubblewrap (only where bubblewrap cannot run, and only for "
                    "submissions you trust)");
  command->add_flag("--plan", options->plan,
                    only_with("--submissions", "stage and configure each student's build, write OUT/plan.json (the "
                                               "targets each lab would be built into, and whether the build has them), "
                                               "and build nothing"));
  command->add_option("--backend", options->backend,
                      only_with("--plan", "configure the students' builds for sim or gpu (gpu needs nvcc, not a GPU)"));
  command->add_flag("--slurm", options->slurm,
                    only_with("--submissions", "grade on a Slurm cluster, one array task per student (writes and "
                                               "submits OUT/slurm/grade.sbatch, waits, merges); again: resubmits only "
                                               "students without results"));
  command->add_option("--partition", options->queue.partition,
                      only_with("--slurm", "the partition (sbatch --partition)"));
  command->add_option("--gres", options->queue.gres, only_with("--slurm", "generic resources per task, e.g. gpu:1"));
  command->add_option("--time", options->queue.time, only_with("--slurm", "time limit per task, e.g. 00:30:00"));
  command->add_option("--max-parallel", options->queue.max_parallel,
                      only_with("--slurm", "tasks running at once (--array=...%K)"));
  command->add_flag("--no-wait", options->queue.no_wait,
                    only_with("--slurm", "submit, print the job id and return; merge later with --collect OUT"));
  command->add_option("--collect", options->collect,
                      "Merge the results of OUT's Slurm batch into OUT/gradebook.csv and OUT/<student>/");
  command->add_option("--hidden-seed", options->hidden_seed, "A batch's hidden seed (used by Slurm tasks)")
      ->group("");
  command->add_option("--task", options->task,
                      "A Slurm task of a batch: grade with the options in FILE (OUT/slurm/request.json), with this "
                      "task's --out and --students")
      ->group("");
}

}  // namespace pplab::cli
