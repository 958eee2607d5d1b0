/// \file
/// \brief Building a staged submission (staging.h) against the clean workbook: the grading
/// kit built once for a class, then each student's runners in the sandbox.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "sandbox.h"
#include "staging.h"
#include "workbook.h"

namespace pplab::cli {

/// The outcome of building one submission.
struct SubmissionBuild {
  std::string configure_error;                         ///< configure failed: every lab unbuilt
  std::map<std::string, std::string> compile_errors;   ///< lab folder -> compiler output
  std::map<std::string, std::filesystem::path> checks, benches;  ///< built binaries
  std::map<std::string, std::filesystem::path> runners;          ///< what each lab's checks start
  /// GPU trees: the student checks built for the emulator (the sim oracle), and for each
  /// lab that did not build there, the compiler's output.
  std::map<std::string, std::filesystem::path> emulator_checks, emulator_runners;
  std::map<std::string, std::string> emulator_errors;
};

/// One student's build (harness/student_build): the runner it makes for each lab.
struct StudentTree {
  std::filesystem::path build_dir;
  std::map<std::string, Program> runners;  ///< lab folder -> the runner's target and file
};

/// Configures `build_dir` as a student's build against the grading kit of `kit` (a
/// workbook's build, or a GPU build's sim oracle; cmake/PplabKit.cmake): one runner for
/// each of `labs` the submission has, named as the kit's manifest names it. Returns the
/// error (the configure output) or an empty string.
std::string configure_submission(const Workbook& kit, const StagedSubmission& submission, const std::vector<Lab>& labs,
                                 const std::filesystem::path& build_dir, StudentTree& tree);

/// Builds the workbook's target pplab_grading_kit (every student checker and benchmark,
/// and the libraries a student's runners link), once for a class: a no-op when it is up
/// to date, one build at a time (a lock file). Returns the error or an empty string.
std::string build_grading_kit(const Workbook& workbook, int jobs);

/// The files of a grading kit a student's build reads (<build>/pplab-kit/inputs.json);
/// throws when the kit was never built.
std::vector<std::filesystem::path> kit_inputs(const Workbook& kit);

/// Builds one student's runners in OUT/work/<student>/build (and, on a GPU build, the
/// same files for the emulator in build/emulator), each lab on its own (`-k 0`), so one
/// lab's compile error costs that lab only, and vets each runner's objects. The checks
/// and benchmarks that judge them are the workbook's (its grading kit), built once for
/// the class. With a sandbox, the compiler runs in it: it sees the workbook's source less
/// solutions/, .git, docs/ and the known-wrong cases, the toolchain, the kits' inputs
/// (not the rest of the grader's build), this student's staged files and build, and
/// nothing of the class folder or the output folder (`out`).
SubmissionBuild build_submission(const Workbook& workbook, const StagedSubmission& submission,
                                 const std::vector<Lab>& labs, const std::filesystem::path& build_dir,
                                 int build_jobs, const Sandbox& sandbox, const std::filesystem::path& out,
                                 const std::map<std::string, std::vector<std::string>>& allowed_libraries);

}  // namespace pplab::cli
