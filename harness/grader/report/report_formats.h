/// \file
/// \brief One writer per file `pplab grade` writes for a student: report.md, report.html,
/// results.json (Gradescope), junit.xml and each timed lab's plot. reports.cpp writes
/// them all; the report's content is report_document.h's.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "grade.h"

namespace pplab::cli::reporting {

/// report.md: the document in Markdown, every text escaped so that no line of lab output
/// reads as a heading, a link or HTML.
std::string markdown(const GradeReport& report);

/// report.html: the same document as one HTML page.
std::string html(const GradeReport& report);

/// results.json: Gradescope's format, a test per points group and one for speed.
nlohmann::json gradescope(const GradeReport& report);

/// junit.xml: a test suite per lab, a test case per check and one for speed.
std::string junit(const GradeReport& report);

/// plots/<lab>.svg and plots/<lab>.csv in `dir` for a lab with timings; sets lab.plot.
/// A file that cannot be written adds a line to `problems`.
void make_plot(LabGrade& lab, const std::filesystem::path& dir, std::vector<std::string>& problems);

}  // namespace pplab::cli::reporting
