/// \file
/// \brief `pplab grade` of this build's own tree: the student binaries of labs/ against
/// the references of solutions/, in one report (OUT, or build/<preset>/report).
#pragma once
#include "grade_run.h"
#include "terminal_progress.h"

namespace pplab::cli {

/// Grades the chosen labs of this build and writes the reports; the exit status (0, or 1
/// when a report could not be written).
int grade_tree(const GradeOptions& options, GradeRun& run, Progress& progress);

}  // namespace pplab::cli
