/// \file
/// \brief `pplab grade --slurm` / `--collect`: one Slurm array task per student,
/// submitted and watched with sbatch/squeue/scontrol as a user would.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "batch.h"
#include "grade_request.h"
#include "grading.h"

namespace pplab::cli {

/// A class graded on a Slurm cluster.
/// How a batch goes to the cluster: `pplab grade --slurm`'s queue options, as given.
struct SlurmQueue {
  std::string partition, gres, time;  ///< sbatch --partition, --gres, --time (empty: the cluster's default)
  int max_parallel = 0;               ///< tasks running at once (0: no limit)
  bool no_wait = false;               ///< submit and return; merge later with --collect
};

struct SlurmRequest {
  std::filesystem::path pplab;      ///< this executable, run by each task
  BatchInfo batch;
  std::vector<std::string> students;  ///< folder names, in gradebook order
  GradeRequest grading;  ///< the batch's options, which every task grades with (OUT/slurm/request.json)
  SlurmQueue queue;
  PointsFile points;
  std::vector<Lab> labs;  ///< the workbook's labs (for rows of tasks that left nothing)
};

/// Writes OUT/slurm/grade.sbatch, submits the students without results (an array job),
/// waits with progress (unless no_wait) and merges. Returns the exit status.
int run_slurm_batch(SlurmRequest request);

/// Merges what the tasks of OUT's Slurm batch left (pplab grade --collect OUT).
int collect_slurm_batch(const std::filesystem::path& out, const PointsFile& points, const std::vector<Lab>& labs);

}  // namespace pplab::cli
