/// \file
/// \brief What is known about a graded submission: each lab's status, checks, points and
/// timings, and the submission's report. The reports are written from it.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "case_result.h"
#include "points_file.h"
#include "timing.h"
#include "workbook.h"

namespace pplab::cli {

/// The points of one check group.
struct GroupScore {
  std::string name;
  double points = 0, max = 0;
  std::vector<std::size_t> cases;  ///< indexes into LabGrade::checks.cases
  int passed = 0;
  int skipped = 0;  ///< checks that did not apply (pplab::skip_check): the points are split over the rest
};

/// A lab's timing, taken once its checks have passed and kept until its points are
/// decided: compute-sanitizer, which runs in between, can still turn a check into a
/// failure and so take the speed points away.
struct SpeedMeasurement {
  ReferenceTiming reference;
  std::vector<Timing> student;
  std::string student_problem;  ///< why the student's benchmark gave no timing, if it did not
};

/// How far a lab of a submission got. Reports write it in words (status_name).
enum class LabStatus {
  graded,         ///< its checks ran (whatever their verdicts)
  not_submitted,  ///< no file for the lab
  compile_error,  ///< the student's file did not compile
  not_built,      ///< no check binary (a failed configure, or a build without labs/)
  no_checks,      ///< the binary could not list its checks
  not_graded      ///< grading stopped early, or a cluster task left nothing
};

/// "graded", "not submitted", "compile error", "not built", "no checks", "not graded".
std::string status_name(LabStatus status);
/// The status with that name; throws std::invalid_argument for any other text.
LabStatus status_from_name(const std::string& name);

/// Everything known about one lab of one submission.
struct LabGrade {
  Lab lab;
  LabStatus status = LabStatus::graded;
  std::string status_detail;  ///< compiler output, or why it was not built
  bool judged_on_emulator = false;  ///< a GPU build's checks also ran on the emulator (sim oracle)
  bool sanitized = false;           ///< compute-sanitizer ran over its GPU checks
  std::string emulator_problem;     ///< why they could not (the emulator build's output)
  LabRules rules;
  LabResult checks;
  std::vector<std::string> case_names;  ///< from the reference binary when there is one
  std::vector<GroupScore> groups;
  double correctness = 0, correctness_max = 0;

  std::optional<SpeedMeasurement> measured;  ///< the timing, when the lab was timed
  bool speed_graded = false;   ///< speed points are part of the max
  std::string speed_note;      ///< why speed was not graded or earned nothing
  std::vector<Timing> student_times, reference_times, other_times;  ///< other: copy, cub
  double device_copy_gbps = 0;
  double ratio = 0;            ///< student / reference median time at the speed size
  double ratio_noise = 0;      ///< the ratio's noise counted in the student's favour (a fraction)
  double student_ms = 0, reference_ms = 0, student_gbps = 0, student_percent_of_copy = 0;
  double speed = 0, speed_max = 0;
  std::string plot;            ///< file name of the bandwidth plot in the report folder, if made
  std::vector<std::string> lost;  ///< "-2 pts: ..." one line per lost point source
  std::vector<std::string> notes; ///< anything else worth reading (untimed work, extra test cases)

  /// What judged this lab's correctness on `backend`: "emulator", "GPU",
  /// "emulator + GPU", with " + sanitizer" when compute-sanitizer ran.
  std::string judged_by(const std::string& backend) const;

  double score() const { return correctness + speed; }
  double max() const { return correctness_max + speed_max; }
};

/// One graded submission (a tree, or one student of a batch).
struct GradeReport {
  std::string student;   ///< empty for `pplab grade` of the build's own tree
  std::string backend;   ///< sim or gpu
  std::string device;    ///< "CPU emulator" or the GPU's name
  std::uint64_t seed = 0;
  bool seed_given = false;
  std::string points_file;
  std::string started;   ///< ISO time
  double seconds = 0;
  std::vector<LabGrade> labs;
  std::vector<std::string> notes;  ///< submission problems: missing folder, extra files, ...
  /// What judged correctness: "emulator", "emulator + GPU", or "GPU" for labs the
  /// emulator could not run (named).
  std::string correctness() const;
  double score() const;
  double max() const;
};

}  // namespace pplab::cli
