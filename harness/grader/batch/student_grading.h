/// \file
/// \brief One student of a class graded start to finish: their files staged and built,
/// every lab graded, their reports written (grade_student); what a batch records for a
/// student it has not reached; and the pieces grading a whole tree shares with it.
#pragma once
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "grading.h"
#include "workbook.h"

namespace pplab::cli {

/// A fresh folder outside OUT where lab code runs (TMPDIR/pplab-<label>-XXXXXX/a/b/c/run):
/// files it writes relative to its working folder ("../results.json", "../../../x") land
/// there, never beside the reports or in another student's. Removed after grading.
std::filesystem::path make_scratch(const std::string& label);

/// Now, as the reports write it (2026-12-07T16:00:00+0000).
std::string now_iso();

/// The GPU's name (nvidia-smi), or "CPU emulator".
std::string device_name(const std::string& backend);

/// A report's head: whose it is (empty for a build's own tree), the backend, the seed and
/// the points file of these settings.
GradeReport report_head(const std::string& student, const GradeSettings& settings);

/// "alice: 110 / 120  01=10  02=0(compile error) ...": one line for the progress and logs.
std::string summary_line(const GradeReport& report);

/// A student the batch has not graded yet: every lab "not graded", worth its points.
GradeReport not_graded_yet(const std::string& student, const std::vector<Lab>& labs, const GradeSettings& settings);

/// Grades one student of a batch, start to finish: stages the folder's lab files, builds
/// them (`build_jobs` jobs), grades each lab with `base`, writes the reports into
/// OUT/<student>/ and returns the report; `log` gets the student's own lines. Never throws.
GradeReport grade_student(const std::filesystem::path& folder, const std::vector<Lab>& labs, const GradeSettings& base,
                          const std::filesystem::path& out, int build_jobs, bool keep_work,
                          const std::function<void(const std::string&)>& log);

}  // namespace pplab::cli
