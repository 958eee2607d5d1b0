/// \file
/// \brief The files `pplab grade` writes: report.md and report.html for people,
/// results.json (Gradescope), junit.xml, bandwidth plots, and the class gradebook.csv.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "grade.h"

namespace pplab::cli {

/// Writes report.md, report.html, results.json, junit.xml (and on a GPU plots/, an SVG
/// chart and a CSV of its numbers per timed lab) into `dir`. Each file is written on its
/// own: one that fails does not stop the others.
/// Returns the problems met (empty when every file was written).
std::vector<std::string> write_reports(GradeReport& report, const std::filesystem::path& dir);

/// One row per student: student, total, max, then one column per lab (its points).
void write_gradebook(const std::vector<GradeReport>& reports, const std::vector<std::string>& labs,
                     const std::filesystem::path& path);

/// Markdown summary table of a batch (student, total, each lab).
std::string batch_summary(const std::vector<GradeReport>& reports, const std::vector<std::string>& labs);

}  // namespace pplab::cli
