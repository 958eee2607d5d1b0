#include "submissions.h"

#include <algorithm>
#include <functional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "hygiene.h"
#include "process.h"

namespace pplab::cli {
namespace fs = std::filesystem;

namespace {

std::string relative_text(const fs::path& path, const fs::path& base) {
  return fs::relative(path, base).generic_string();
}

// Keeps the compiler's messages and drops ninja's progress lines.
std::string compiler_messages(const std::string& output) {
  std::istringstream lines(output);
  std::string line, kept;
  while (std::getline(lines, line)) {
    if (line.size() > 1 && line[0] == '[' && line.find("] Building") != std::string::npos) continue;
    if (line.find("] Linking") != std::string::npos || line.find("] Generating") != std::string::npos) continue;
    kept += line + "\n";
  }
  if (kept.size() > 20000) kept = kept.substr(0, 20000) + "\n... (cut)\n";
  return kept;
}

}  // namespace

std::vector<Program> submission_targets(const Lab& lab) {
  std::vector<Program> targets;
  if (lab.student_checks_program) targets.push_back(*lab.student_checks_program);
  if (lab.student_bench_program) targets.push_back(*lab.student_bench_program);
  return targets;
}

std::vector<fs::path> list_student_folders(const fs::path& dir, const std::vector<Lab>& labs) {
  if (!fs::exists(dir)) throw std::invalid_argument("--submissions: no folder " + dir.string());
  if (!fs::is_directory(dir)) throw std::invalid_argument("--submissions: " + dir.string() + " is not a folder");
  std::vector<fs::path> students;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    if (entry.is_directory()) students.push_back(entry.path());
  }
  std::sort(students.begin(), students.end());
  for (const auto& folder : students) {
    const std::string name = folder.filename().string();
    for (const auto& lab : labs)
      if (name == lab.folder || name == "labs")
        throw std::invalid_argument("--submissions: " + dir.string() + " looks like one submission (it holds " +
                                    name + "/), not a folder of students. Put it in a folder of its own, "
                                    "e.g. DIR/alice/" + name + "/, and pass DIR.");
  }
  if (students.empty())
    throw std::invalid_argument("--submissions: " + dir.string() +
                                " holds no student folders (expected DIR/<student>/NN_lab/<name>.cu)");
  return students;
}

StagedSubmission stage_submission(const fs::path& folder, const std::vector<Lab>& labs, const fs::path& staged) {
  StagedSubmission submission;
  submission.student = folder.filename().string();
  submission.folder = folder;
  submission.staged = staged;
  fs::remove_all(staged);
  fs::create_directories(staged);

  std::vector<fs::path> files;
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(folder, fs::directory_options::skip_permission_denied, error);
       it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (error) break;
    const std::string name = it->path().filename().string();
    if (!name.empty() && name[0] == '.') {  // .git, .DS_Store, editor files
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) files.push_back(it->path());
    if (files.size() > 5000) {
      submission.notes.push_back("more than 5000 files: only the first 5000 were looked at");
      break;
    }
  }
  if (files.empty()) {
    submission.notes.push_back("empty submission: " + folder.string() + " holds no files");
    return submission;
  }

  const fs::path root = fs::is_directory(folder / "labs") ? folder / "labs" : folder;
  std::set<fs::path> used;
  for (const auto& lab : labs) {
    const std::string file_name = lab.name + ".cu";
    const fs::path in_folder = root / lab.folder / file_name;
    const fs::path flat = folder / file_name;
    fs::path chosen;
    if (fs::is_regular_file(in_folder)) chosen = in_folder;
    else if (fs::is_regular_file(flat)) chosen = flat;
    if (chosen.empty()) {
      if (fs::is_directory(root / lab.folder)) {
        std::string found;
        for (const auto& entry : fs::directory_iterator(root / lab.folder))
          if (entry.is_regular_file()) {
            found += (found.empty() ? "" : ", ") + entry.path().filename().string();
            used.insert(entry.path());  // named in this note; not listed again as ignored
          }
        submission.notes.push_back(lab.folder + ": no " + file_name + " in " + relative_text(root / lab.folder, folder) +
                                   "/" + (found.empty() ? "" : " (found " + found + "; only " + file_name +
                                                                   " is graded: rename it)"));
      }
      continue;
    }
    if (fs::file_size(chosen) > (std::uintmax_t{2} << 20)) {
      submission.notes.push_back(lab.folder + ": " + relative_text(chosen, folder) + " is larger than 2 MiB: not graded");
      used.insert(chosen);
      continue;
    }
    if (chosen == flat && fs::is_regular_file(in_folder)) used.insert(in_folder);
    fs::create_directories(staged / lab.folder);
    fs::copy_file(chosen, staged / lab.folder / file_name, fs::copy_options::overwrite_existing);
    submission.files[lab.folder] = staged / lab.folder / file_name;
    used.insert(chosen);
  }
  std::vector<std::string> ignored;
  for (const auto& file : files)
    if (!used.count(file)) ignored.push_back(relative_text(file, folder));
  if (!ignored.empty()) {
    std::string list;
    for (std::size_t i = 0; i < ignored.size() && i < 12; ++i) list += (i ? ", " : "") + ignored[i];
    if (ignored.size() > 12) list += ", ... (" + std::to_string(ignored.size() - 12) + " more)";
    submission.notes.push_back("ignored (only each lab's <name>.cu is graded; everything else comes from the clean "
                               "workbook): " + list);
  }
  if (submission.files.empty())
    submission.notes.push_back("no lab file found: expected e.g. " + submission.student + "/" +
                               (labs.empty() ? "NN_lab/<name>.cu" : labs.front().folder + "/" + labs.front().name + ".cu"));
  return submission;
}

std::string configure_submission(const Workbook& workbook, const std::string& backend,
                                 const StagedSubmission& submission, const std::vector<Lab>& labs,
                                 const fs::path& build_dir, Workbook& student_tree) {
  std::string lab_list;
  for (const auto& lab : labs) lab_list += (lab_list.empty() ? "" : ";") + lab.folder;
  std::vector<std::string> configure = {
      "cmake", "-S", workbook.source_dir.string(), "-B", build_dir.string(), "-G", "Ninja",
      "-DCMAKE_BUILD_TYPE=Release", "-DPPLAB_BACKEND=" + backend, "-DPPLAB_SOURCES=labs",
      "-DPPLAB_STUDENT_DIR=" + fs::absolute(submission.staged).string(), "-DPPLAB_LABS=" + lab_list,
      "-DPPLAB_CHECK_SKELETONS=OFF", "-DPPLAB_BUILD_DOCS=OFF",
      "-DPPLAB_SIM_ORACLE=ON"};  // a GPU tree also builds the checks for the emulator
  configure.insert(configure.end(), workbook.configure_settings.begin(), workbook.configure_settings.end());
  // This build's CMAKE_CUDA_ARCHITECTURES, its entries separated by commas (CMakeLists.txt
  // says why); empty in a sim build: grading's sm_90.
  std::string architectures = PPLAB_CUDA_ARCHITECTURES;
  std::replace(architectures.begin(), architectures.end(), ',', ';');
  if (backend == "gpu") configure.push_back("-DCMAKE_CUDA_ARCHITECTURES=" + (architectures.empty() ? "90" : architectures));
  const auto configured = run_process(configure, {}, std::chrono::seconds(600));
  if (!configured.succeeded())
    return "configuring the grading build failed (" + configured.describe() + "):\n" + compiler_messages(configured.output);
  // What to build comes from the student tree's own manifest, never from file names.
  try {
    student_tree = load_manifest(build_dir);
  } catch (const std::exception& error) {
    return error.what();
  }
  return {};
}

// A GPU tree's sim oracle: the same student files built for the emulator, all labs in
// one sub-build. A lab that does not build there is graded on the GPU alone, with the
// compiler's output in a note.
static void build_emulator_checks(const Workbook& student_tree, SubmissionBuild& build, int build_jobs,
                                  const std::function<std::vector<std::string>(std::vector<std::string>)>& confine) {
  const auto built = run_process(confine({"cmake", "--build", student_tree.build_dir.string(), "--target",
                                          student_tree.sim_oracle_target, "-j", std::to_string(std::max(1, build_jobs))}),
                                 {}, std::chrono::seconds(1200));
  Workbook with_oracle;
  try {
    with_oracle = load_manifest(student_tree.build_dir);
  } catch (const std::exception& error) {
    for (const auto& [folder, binary] : build.checks) build.emulator_errors[folder] = error.what();
    return;
  }
  for (const auto& [folder, binary] : build.checks) {
    const auto lab = find_lab(with_oracle, folder);
    if (lab && !lab->emulator_checks.empty()) {
      build.emulator_checks[folder] = lab->emulator_checks;
      build.emulator_runners[folder] = lab->emulator_runner;
    } else build.emulator_errors[folder] = compiler_messages(built.output);
  }
}

SubmissionBuild build_submission(const Workbook& workbook, const StagedSubmission& submission,
                                 const std::vector<Lab>& labs, const fs::path& build_dir, int build_jobs,
                                 const Sandbox& sandbox, const fs::path& out) {
  SubmissionBuild build;
  const auto confine = [&](std::vector<std::string> command) {
    return sandboxed_build(sandbox, command,
                           {workbook.source_dir / "solutions", workbook.build_dir, submission.folder.parent_path(), out},
                           {submission.staged}, {build_dir});
  };
  Workbook student_tree;
  build.configure_error = configure_submission(workbook, workbook.backend, submission, labs, build_dir,
                                               student_tree);
  if (!build.configure_error.empty()) return build;
  const auto build_command = [&](const std::vector<Program>& targets) {
    std::vector<std::string> argv = {"cmake", "--build", build_dir.string(), "--target"};
    for (const auto& program : targets) argv.push_back(program.target);
    argv.insert(argv.end(), {"-j", std::to_string(std::max(1, build_jobs)), "--", "-k", "0"});
    return confine(argv);
  };
  // The submitted labs that this tree can build, in order.
  std::vector<Lab> to_build;
  for (const auto& lab : labs) {
    if (!submission.files.count(lab.folder)) continue;
    const auto built_lab = find_lab(student_tree, lab.folder);
    if (built_lab && built_lab->student_checks_program) to_build.push_back(*built_lab);
    else
      build.compile_errors[lab.folder] = "the grading build has no student checks for " + lab.folder +
                                         " (its manifest " + (build_dir / "labs.json").string() + " lists none)";
  }
  // Every lab's programs in one build first, so that the compiles of all labs share the
  // cores (one lab at a time left most of them idle: 144 s for 12 labs on 16 cores). Its
  // outcome is not read: the build of each lab below is then a no-op where this one
  // succeeded, and repeats a failed compile to give that lab its own messages.
  if (to_build.size() > 1) {
    std::vector<Program> every_target;
    for (const auto& lab : to_build)
      for (const auto& program : submission_targets(lab)) every_target.push_back(program);
    run_process(build_command(every_target), {}, std::chrono::seconds(1200));
  }
  for (const auto& lab : to_build) {
    const auto built = run_process(build_command(submission_targets(lab)), {}, std::chrono::seconds(1200));
    if (!built.succeeded()) {
      build.compile_errors[lab.folder] =
          (built.ending == ProcessResult::Ending::timed_out ? "the build timed out\n" : std::string()) +
          compiler_messages(built.output);
      continue;
    }
    // Before any of it runs: what the student's file includes, defines and constructs.
    if (const std::string rejected = vet_student_objects(student_tree, lab, submission.staged); !rejected.empty()) {
      build.compile_errors[lab.folder] = rejected;
      continue;
    }
    const fs::path& checks = lab.student_checks_program->file;
    if (fs::exists(checks)) build.checks[lab.folder] = checks;
    if (lab.student_runner_program && fs::exists(lab.student_runner_program->file))
      build.runners[lab.folder] = lab.student_runner_program->file;
    if (lab.student_bench_program && fs::exists(lab.student_bench_program->file))
      build.benches[lab.folder] = lab.student_bench_program->file;
  }
  if (!student_tree.sim_oracle_target.empty() && !build.checks.empty()) build_emulator_checks(student_tree, build, build_jobs, confine);
  return build;
}

}  // namespace pplab::cli
