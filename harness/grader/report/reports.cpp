#include "reports.h"


#include <functional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "files.h"
#include "markup.h"
#include "report_formats.h"

namespace pplab::cli {
namespace fs = std::filesystem;
using nlohmann::json;

std::vector<std::string> write_reports(GradeReport& report, const fs::path& dir) {
  std::vector<std::string> problems;
  try {
    fs::create_directories(dir);
  } catch (const std::exception& error) {
    problems.push_back(std::string("cannot create ") + dir.string() + ": " + error.what());
    return problems;
  }
  for (auto& lab : report.labs) {
    try {
      reporting::make_plot(lab, dir, problems);
    } catch (const std::exception& error) {
      problems.push_back(lab.lab.folder + ": plot: " + error.what());
    }
  }
  auto attempt = [&](const char* name, const std::function<std::string()>& make) {
    try {
      write_text_file(dir / name, make());
    } catch (const std::exception& error) {
      problems.push_back(std::string(name) + ": " + error.what());
    }
  };
  attempt("results.json", [&] { return reporting::gradescope(report).dump(2, ' ', false, json::error_handler_t::replace) + "\n"; });
  attempt("junit.xml", [&] { return reporting::junit(report); });
  attempt("report.md", [&] { return reporting::markdown(report); });
  attempt("report.html", [&] { return reporting::html(report); });
  return problems;
}

std::string batch_summary(const std::vector<GradeReport>& reports, const std::vector<std::string>& labs) {
  std::ostringstream md;
  md << "| student | total |";
  for (const auto& lab : labs) md << " " << markdown_text(lab, MarkdownPlace::after_text) << " |";
  md << "\n|---|---:|";
  for (std::size_t i = 0; i < labs.size(); ++i) md << "---:|";
  md << "\n";
  for (const auto& report : reports) {
    md << "| " << markdown_text(report.student, MarkdownPlace::after_text) << " | " << format_points(report.score()) << " / "
       << format_points(report.max()) << " |";
    for (const auto& name : labs) {
      std::string cell = "—";
      for (const auto& lab : report.labs)
        if (lab.lab.folder == name) cell = format_points(lab.score()) + (lab.status == LabStatus::graded ? "" : " (" + status_name(lab.status) + ")");
      md << " " << markdown_text(cell, MarkdownPlace::after_text) << " |";
    }
    md << "\n";
  }
  return md.str();
}

void write_gradebook(const std::vector<GradeReport>& reports, const std::vector<std::string>& labs,
                     const fs::path& path) {
  std::ostringstream out;
  out << "student,total,max";
  for (const auto& lab : labs) out << "," << csv_cell(lab);
  out << ",notes\n";
  for (const auto& report : reports) {
    out << csv_cell(report.student) << "," << format_points(report.score()) << "," << format_points(report.max());
    std::string notes;
    for (const auto& name : labs) {
      std::string cell;
      for (const auto& lab : report.labs)
        if (lab.lab.folder == name) {
          cell = format_points(lab.score());
          if (lab.status != LabStatus::graded) notes += (notes.empty() ? "" : "; ") + name + ": " + status_name(lab.status);
        }
      out << "," << cell;
    }
    for (const auto& note : report.notes) notes += (notes.empty() ? "" : "; ") + note;
    out << "," << csv_cell(notes) << "\n";
  }
  write_text_file(path, out.str());
}

}  // namespace pplab::cli
