/// \file
/// \brief A lab's speed points: its timing (the student's and the reference's
/// benchmarks, each timed case alone on the GPU) and the points decided from it.
#pragma once
#include "grade.h"
#include "grade_settings.h"

namespace pplab::cli {

/// The speed points of one lab whose checks are judged: time_speed, then score_speed.
void grade_speed(LabGrade& grade, const GradeSettings& settings);

/// On a GPU build, when the lab can earn speed points and its checks pass: times the
/// student's benchmark (its runner in the sandbox), and the reference's unless the
/// batch's ReferenceTimes already holds it, alone on the GPU, into grade.measured.
void time_speed(LabGrade& grade, const GradeSettings& settings);

/// Decides the speed points from grade.measured and the checks' final verdicts, at the
/// points file's size. A student measurement that is unverified, missing, or not taken
/// by the checker's timer earns no speed.
void score_speed(LabGrade& grade, const GradeSettings& settings);

}  // namespace pplab::cli
