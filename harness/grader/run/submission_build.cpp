#include "submission_build.h"

#include <fcntl.h>
#include <sys/file.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "compiler_output.h"
#include "descriptor.h"
#include "files.h"
#include "hygiene.h"
#include "process.h"

namespace pplab::cli {
namespace fs = std::filesystem;
using json = nlohmann::json;

std::string configure_submission(const Workbook& kit, const StagedSubmission& submission, const std::vector<Lab>& labs,
                                 const fs::path& build_dir, StudentTree& tree) {
  tree = StudentTree{};
  tree.build_dir = build_dir;
  // The runners to make, named as the kit's manifest names them.
  json request = json::array();
  for (const auto& lab : labs) {
    if (!submission.files.count(lab.folder)) continue;
    const auto built = find_lab(kit, lab.folder);
    if (!built || !built->student_runner_program) continue;
    request.push_back({{"folder", lab.folder},
                       {"runner", built->student_runner_program->target},
                       {"kernel_file", fs::absolute(submission.files.at(lab.folder)).string()}});
  }
  std::error_code error;
  fs::create_directories(build_dir, error);
  const fs::path request_file = build_dir / "request.json";
  write_text_file(request_file, request.dump(2) + "\n");
  const std::vector<std::string> configure = {
      "cmake", "-S", (kit.source_dir / "harness" / "student_build").string(), "-B", build_dir.string(), "-G", "Ninja",
      "-DPPLAB_KIT=" + (kit.build_dir / "pplab-kit").string(), "-DPPLAB_REQUEST=" + request_file.string()};
  const auto configured = run_process(configure, {}, std::chrono::seconds(600));
  if (!configured.succeeded())
    return "configuring the student's build failed (" + configured.describe() + "):\n" + compiler_messages(configured.output, submission.staged);
  try {
    std::ifstream in(build_dir / "runners.json");
    const json runners = json::parse(in);
    for (const auto& [folder, runner] : runners.items())
      tree.runners[folder] = Program{runner.at("target").get<std::string>(), runner.at("file").get<std::string>()};
  } catch (const json::exception& problem) {
    return "the student's build wrote no readable " + (build_dir / "runners.json").string() + ": " + problem.what();
  }
  return {};
}

std::string build_grading_kit(const Workbook& workbook, int jobs) {
  // One build at a time in the workbook's tree: the tasks of a Slurm batch start together.
  std::error_code error;
  fs::create_directories(workbook.build_dir / "pplab-kit", error);
  const Descriptor lock(::open((workbook.build_dir / "pplab-kit" / "build.lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644));
  if (lock.get() >= 0) ::flock(lock.get(), LOCK_EX);
  const auto built = run_process({"cmake", "--build", workbook.build_dir.string(), "--target", "pplab_grading_kit",
                                  "-j", std::to_string(std::max(1, jobs))},
                                 {}, std::chrono::seconds(3600));
  if (!built.succeeded())
    return "building the grading kit in " + workbook.build_dir.string() + " (cmake --build ... --target pplab_grading_kit) failed (" +
           built.describe() + "):\n" + compiler_messages(built.output);
  return {};
}

std::vector<fs::path> kit_inputs(const Workbook& kit) {
  const fs::path file = kit.build_dir / "pplab-kit" / "inputs.json";
  std::ifstream in(file);
  if (!in) throw std::runtime_error("no grading kit in " + kit.build_dir.string() + ": build its target pplab_grading_kit");
  std::vector<fs::path> inputs;
  for (const auto& item : json::parse(in)) inputs.emplace_back(item.get<std::string>());
  return inputs;
}

namespace {

// What a student's build may read: the workbook's source less what no lab's build
// needs (an `.incbin` or an `#include` of any of it would carry it into the lab's
// program or the compiler's messages), the toolchain, the grading kits' inputs (never the
// rest of the workbook's build: the reference's programs), the staged submission.
BuildView student_build_view(const Workbook& workbook, const StagedSubmission& submission, const fs::path& build_dir,
                             const fs::path& out, const std::vector<fs::path>& kit_files) {
  BuildView view;
  view.readable = {workbook.source_dir};
  for (const fs::path& tree : {build_dir, build_dir / "emulator"})
    for (const auto& folder : toolchain_folders(tree)) view.readable.push_back(folder);
  const fs::path& source = workbook.source_dir;
  view.hidden = {source / "solutions",          source / ".git",           source / "docs",
                 source / "harness" / "tests" / "faults", source / "harness" / "tests" / "redteam",
                 source / "build",               workbook.build_dir,         submission.folder.parent_path(), out};
  std::error_code error;
  for (const auto& lab : fs::directory_iterator(source / "harness" / "labs", error))
    view.hidden.push_back(lab.path() / "wrong");   // the known-wrong cases
  view.shown_again = kit_files;
  view.shown_again.push_back(submission.staged);
  view.writable = {build_dir};
  return view;
}

// Builds the runners of `tree` in the sandbox, every lab at once and then each lab on its
// own (`-k 0`), so that one lab's compile error costs that lab only. Returns each lab's
// compiler messages where its runner did not build, quoting only the `submission`'s lines.
std::map<std::string, std::string> build_runners(const StudentTree& tree, const fs::path& submission, int build_jobs,
                                                 const std::function<std::vector<std::string>(std::vector<std::string>)>& confine) {
  const auto build_command = [&](const std::vector<std::string>& targets) {
    std::vector<std::string> argv = {"cmake", "--build", tree.build_dir.string(), "--target"};
    argv.insert(argv.end(), targets.begin(), targets.end());
    argv.insert(argv.end(), {"-j", std::to_string(std::max(1, build_jobs)), "--", "-k", "0"});
    return confine(argv);
  };
  // Every lab's runner in one build first, so that the compiles of all labs share the
  // cores. Its outcome is not read: the build of each lab below is then a no-op where
  // this one succeeded, and repeats a failed compile to give that lab its own messages.
  if (tree.runners.size() > 1) {
    std::vector<std::string> every_target;
    for (const auto& [folder, runner] : tree.runners) every_target.push_back(runner.target);
    run_process(build_command(every_target), {}, std::chrono::seconds(1200));
  }
  std::map<std::string, std::string> errors;
  for (const auto& [folder, runner] : tree.runners) {
    const auto built = run_process(build_command({runner.target}), {}, std::chrono::seconds(1200));
    if (!built.succeeded())
      errors[folder] = (built.ending == ProcessResult::Ending::timed_out ? "the build timed out\n" : std::string()) +
                       compiler_messages(built.output, submission);
    else if (!fs::exists(runner.file))
      errors[folder] = "the build succeeded but made no " + runner.file.string();
  }
  return errors;
}

}  // namespace

SubmissionBuild build_submission(const Workbook& workbook, const StagedSubmission& submission,
                                 const std::vector<Lab>& labs, const fs::path& build_dir, int build_jobs,
                                 const Sandbox& sandbox, const fs::path& out,
                                 const std::map<std::string, std::vector<std::string>>& allowed_libraries) {
  SubmissionBuild build;
  // The emulator's kit: a GPU build's sim oracle, for the same files built for the CPU.
  std::optional<Workbook> emulator_kit;
  std::vector<fs::path> kit_files;
  try {
    kit_files = kit_inputs(workbook);
    if (!workbook.sim_oracle_dir.empty()) {
      emulator_kit = load_manifest(workbook.sim_oracle_dir);
      const auto more = kit_inputs(*emulator_kit);
      kit_files.insert(kit_files.end(), more.begin(), more.end());
    }
  } catch (const std::exception& error) {
    build.configure_error = error.what();
    return build;
  }
  const auto confine = [&](std::vector<std::string> command) {
    return sandboxed_build(sandbox, std::move(command), student_build_view(workbook, submission, build_dir, out, kit_files));
  };
  StudentTree tree;
  build.configure_error = configure_submission(workbook, submission, labs, build_dir, tree);
  if (!build.configure_error.empty()) return build;
  const auto compile_errors = build_runners(tree, submission.staged, build_jobs, confine);
  for (const auto& lab : labs) {
    if (!submission.files.count(lab.folder)) continue;
    const auto judged = find_lab(workbook, lab.folder);
    if (!judged || judged->student_checks.empty() || !tree.runners.count(lab.folder)) {
      build.compile_errors[lab.folder] = "the workbook's build has no student checks for " + lab.folder +
                                         " (build its target pplab_grading_kit: " + workbook.build_dir.string() + ")";
      continue;
    }
    if (compile_errors.count(lab.folder)) {
      build.compile_errors[lab.folder] = compile_errors.at(lab.folder);
      continue;
    }
    // Before any of it runs: what the student's file includes, defines and constructs.
    Workbook student_tree;
    student_tree.source_dir = workbook.source_dir;
    student_tree.build_dir = build_dir;
    student_tree.backend = workbook.backend;
    Lab vetted = *judged;
    vetted.student_runner_program = tree.runners.at(lab.folder);
    const auto allowed = allowed_libraries.find(lab.folder);
    if (const std::string rejected =
            vet_student_objects(student_tree, vetted, submission.staged,
                                allowed == allowed_libraries.end() ? std::vector<std::string>{} : allowed->second,
                                kit_files);
        !rejected.empty()) {
      build.compile_errors[lab.folder] = rejected;
      continue;
    }
    build.checks[lab.folder] = judged->student_checks;
    build.runners[lab.folder] = tree.runners.at(lab.folder).file;
    if (!judged->student_bench.empty()) build.benches[lab.folder] = judged->student_bench;
  }
  if (!emulator_kit || build.checks.empty()) return build;
  // The same files for the CPU emulator (the sim oracle): a lab that does not build there
  // is graded on the GPU alone, with the compiler's output.
  StudentTree emulator_tree;
  if (const auto error = configure_submission(*emulator_kit, submission, labs, build_dir / "emulator", emulator_tree);
      !error.empty()) {
    for (const auto& [folder, checks] : build.checks) build.emulator_errors[folder] = error;
    return build;
  }
  const auto emulator_errors = build_runners(emulator_tree, submission.staged, build_jobs, confine);
  for (const auto& [folder, checks] : build.checks) {
    const auto judged = find_lab(*emulator_kit, folder);
    if (emulator_errors.count(folder)) build.emulator_errors[folder] = emulator_errors.at(folder);
    else if (!judged || judged->student_checks.empty() || !emulator_tree.runners.count(folder))
      build.emulator_errors[folder] = "the emulator's build has no student checks for " + folder;
    else {
      build.emulator_checks[folder] = judged->student_checks;
      build.emulator_runners[folder] = emulator_tree.runners.at(folder).file;
    }
  }
  return build;
}

}  // namespace pplab::cli
