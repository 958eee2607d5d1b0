/// \file
/// \brief What `pplab grade` is asked, checked once before anything is graded: the
/// options (the request and what only the command line asks), and the build, labs,
/// points, seed, sandbox and compute-sanitizer they come to (settings_from).
#pragma once
#include <string>
#include <vector>

#include "grade_request.h"
#include "grading.h"
#include "points_file.h"
#include "slurm.h"
#include "workbook.h"

namespace pplab::cli {

/// The grading options (grade_request.h) and what only the command line asks for.
struct GradeOptions : GradeRequest {
  bool plan = false;        // stage and configure only: what would be built
  std::string backend;      // with --plan: configure for this backend instead of the build's
  bool slurm = false;
  SlurmQueue queue;  // with --slurm
  std::string collect;
  std::string task;  // a Slurm task: the batch's request.json
};

/// What the options ask for, checked: the settings both kinds of grading start from.
struct GradeRun {
  Workbook workbook;
  GradeSettings settings;
  std::vector<Lab> labs;
  int cores = 1, jobs = 1;
};

/// The labs --labs names ("01,02"; empty: every lab of the build), each once, in the
/// order given; throws std::invalid_argument naming an unknown one and the known ones.
std::vector<Lab> chosen_labs(const Workbook& workbook, const std::string& list);

/// The points: an instructor's whole-course file (--points), else the course's defaults
/// with each lab's own rules (harness/grading/defaults.json, harness/labs/NN_name/points.json).
PointsFile points_from(const GradeOptions& options, const Workbook& workbook);

/// The options checked, each once (std::invalid_argument says which is wrong), with this
/// build, the chosen labs, the seed (drawn when none is given), the sandbox and
/// compute-sanitizer.
GradeRun settings_from(const GradeOptions& options);

/// A submission's share of the jobs, split between labs graded side by side and the
/// checks of each: about the square root of it each way (16 jobs: 4 labs of 4 checks), so
/// neither a lab's many checks nor a batch of short labs leaves cores idle.
void share_jobs(int jobs, GradeSettings& settings);

}  // namespace pplab::cli
