/// \file
/// \brief What `pplab grade` is asked to do to a class or a tree: every option that decides
/// how a student is graded, in one struct that a Slurm task reads back whole
/// (`pplab grade --task request.json`), so no option is spelled a second time.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "sandbox.h"  // kCompileCpuSeconds

namespace pplab::cli {

/// The grading options, as the command line gave them (checked later, once, by
/// settings_from in command_grade.cpp). Its JSON keys are the option names without their
/// dashes ("case_limit" for --case-limit).
struct GradeRequest {
  std::string submissions;  ///< --submissions DIR
  std::string out;          ///< --out OUT
  std::string seed;         ///< --seed
  std::string hidden_seed;  ///< a batch's hidden seed (--hidden-seed: Slurm tasks)
  std::string labs;         ///< --labs
  std::string points;       ///< --points
  std::string students;     ///< --students
  int case_limit = 300;  ///< seconds a check may run
  int compile_limit = kCompileCpuSeconds;  ///< CPU seconds of one compiler process
  int jobs = 0;
  bool keep_work = false;
  bool unsafe_no_sandbox = false;  ///< run students' code outside bubblewrap
  bool no_sanitizer = false;       ///< GPU: skip compute-sanitizer over the checks
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(GradeRequest, submissions, out, seed, hidden_seed, labs, points,
                                                students, case_limit, compile_limit, jobs, keep_work,
                                                unsafe_no_sandbox, no_sanitizer)

/// The request a Slurm task of this batch grades with: `request` with its paths made
/// absolute (a task runs in OUT/slurm), its seed the batch's (`seed`, given or hidden),
/// and no students or out (each task names its own).
GradeRequest task_request(GradeRequest request, std::uint64_t seed, bool seed_given);

/// Writes `request` to `path` (JSON); throws when it cannot.
void write_request(const GradeRequest& request, const std::filesystem::path& path);

/// Reads a request written by write_request(); a missing file, bad JSON or an unknown
/// key is a clear error (std::invalid_argument).
GradeRequest read_request(const std::filesystem::path& path);

}  // namespace pplab::cli
