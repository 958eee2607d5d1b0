/// \file
/// \brief The progress lines of a lab's grading that say where its time went
/// ("02_dot_product: checks (8 in 1 processes) done in 4 s"); the grader's own sources
/// include it.
#pragma once
#include <chrono>
#include <cstdio>
#include <string>

#include "grade.h"
#include "grade_settings.h"

namespace pplab::cli {

using SteadyClock = std::chrono::steady_clock;

// Whole seconds, for the progress lines that show where a grading run's time goes.
inline std::string seconds_between(SteadyClock::time_point from, SteadyClock::time_point to) {
  return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(to - from).count());
}
inline std::string seconds_since(SteadyClock::time_point from) { return seconds_between(from, SteadyClock::now()); }
// Tenths of a second, for the parts that should take one or two (a lab's turns alone on
// the GPU).
inline std::string tenths_of_seconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", seconds);
  return text;
}

// "<lab>: <part> done in N s", once a part of a lab's grading that began at `started` ends.
inline void say_done(const GradeSettings& settings, const LabGrade& grade, const char* part, SteadyClock::time_point started) {
  if (settings.progress) settings.progress(grade.lab.folder + ": " + part + " done in " + seconds_since(started) + " s");
}

}  // namespace pplab::cli
