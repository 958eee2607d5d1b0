/// \file
/// \brief `pplab grade`'s grading of one submission's labs, each in one pass: its checks
/// (on a GPU the emulator's too), its timing, compute-sanitizer and its points. Includes
/// the layers below it that a caller of grade_labs() also needs.
#pragma once
#include <vector>

#include "correctness_points.h"
#include "grade.h"
#include "grade_settings.h"
#include "speed_points.h"

namespace pplab::cli {

/// Grades the labs in `labs` (their student binaries already located or built):
/// runs the checks, on a GPU times student and reference, and computes points.
void grade_labs(GradeReport& report, std::vector<LabGrade>& labs, const GradeSettings& settings);

}  // namespace pplab::cli
