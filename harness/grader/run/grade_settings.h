/// \file
/// \brief What grading one submission needs: the build, the points, the seed, the limits
/// and jobs, the GPU gate, the sandbox and the tools.
#pragma once
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

#include "gpu_gate.h"
#include "points_file.h"
#include "sandbox.h"
#include "workbook.h"

namespace pplab::cli {

/// What grading one submission needs.
struct GradeSettings {
  Workbook workbook;          ///< the build pplab belongs to (references, backend, sources)
  PointsFile points;
  std::uint64_t seed = 0;
  bool seed_given = false;
  std::chrono::seconds case_limit{300};
  int lab_jobs = 1;           ///< labs of one submission graded at once
  int case_jobs = 1;          ///< test cases of one lab run at once
  int sim_threads = 0;        ///< PPLAB_SIM_THREADS for each check (0: the sim's default)
  GpuGate* gpu = nullptr;
  ReferenceTimes* reference_times = nullptr;  ///< shared by the batch; none: timed for each submission
  std::filesystem::path scratch;  ///< working directory for the checks
  Sandbox sandbox;                  ///< where the students' code runs (pplab/sandbox.h); bwrap empty: unconfined
  std::filesystem::path sanitizer;  ///< compute-sanitizer, run over GPU checks; empty: not run
  std::string sanitizer_note;       ///< why not, when empty
  /// Progress: called with a short line ("alice: 02_dot_product 3/7 ...").
  std::function<void(const std::string&)> progress;
};

}  // namespace pplab::cli
