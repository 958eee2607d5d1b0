// pplab grade: grade this build's own tree (labs/ against solutions/), or a folder of
// submissions, and write reports people and tools read. See docs/instructor_guide.md.
#include <filesystem>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "class_grading.h"
#include "commands.h"
#include "gpu_gate.h"
#include "grade_run.h"
#include "slurm.h"
#include "terminal_progress.h"
#include "tree_grading.h"
#include "workbook.h"

namespace pplab::cli {
namespace fs = std::filesystem;
namespace {

// The help of an option that means something only beside `other`: it names `other` first
// ("With --slurm: the partition").
std::string only_with(const std::string& other, const std::string& help) { return "With " + other + ": " + help; }

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
