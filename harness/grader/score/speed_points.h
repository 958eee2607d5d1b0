/// \file
/// \brief A lab's speed points: its timing (the student's and the reference's
/// benchmarks, each timed case alone on the GPU) and the points decided from it.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "grade.h"
#include "grade_settings.h"

namespace pplab::cli {

/// The speed points of one lab whose checks are judged: time_speed, then score_speed.
void grade_speed(LabGrade& grade, const GradeSettings& settings);

/// On a GPU build, when the lab can earn speed points and its checks pass: times the
/// student's benchmark (its runner in the sandbox), and the reference's unless the
/// batch's ReferenceTimes already holds it, alone on the GPU, into grade.measured.
void time_speed(LabGrade& grade, const GradeSettings& settings);

/// Times the reference (and the library rows) of each of `labs` that a GPU build can
/// grade for speed, into the batch's ReferenceTimes, the last lab first: started beside a
/// class's builds, which leave the GPU idle, it takes the references' timing off the
/// students' way. A student's timing that reaches a lab first waits for those figures,
/// or takes them itself. Says each lab's time through `say`.
void time_references_ahead(const std::vector<Lab>& labs, const GradeSettings& settings,
                           const std::function<void(const std::string&)>& say);

/// Decides the speed points from grade.measured and the checks' final verdicts, at the
/// points file's size. A student measurement that is unverified, missing, or not taken
/// by the checker's timer earns no speed.
void score_speed(LabGrade& grade, const GradeSettings& settings);

}  // namespace pplab::cli
