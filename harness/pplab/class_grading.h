/// \file
/// \brief `pplab grade --submissions DIR --out OUT`: a class, one build and one report
/// per student, the students side by side; the batch's files written after each student,
/// so a stopped batch leaves a gradebook and its rerun grades only the rest; or the
/// class planned (--plan) or handed to Slurm (--slurm).
#pragma once
#include "grade_run.h"
#include "terminal_progress.h"

namespace pplab::cli {

/// Grades (or plans, or queues) the class the options name; the batch's exit status.
int grade_class(const GradeOptions& options, GradeRun& run, Progress& progress);

}  // namespace pplab::cli
