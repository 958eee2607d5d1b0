// Finishing a class batch: the gradebook, the summary and batch.json, the record a
// merge (a Slurm batch's --collect) reads back. Local and Slurm batches share it.
#include "batch.h"

#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "markup.h"
#include "reports.h"

namespace pplab::cli {
using json = nlohmann::json;

int finish_batch(const std::vector<GradeReport>& reports, const BatchInfo& batch) {
  try {
    write_gradebook(reports, batch.labs, batch.out / "gradebook.csv");
    std::string summary = "# pplab grade: " + markdown_text(batch.dir.string(), MarkdownPlace::after_text) + "\n\nseed " + std::to_string(batch.seed) +
                          (batch.seed_given ? "" : " (hidden)") + ", " + batch.backend + " backend" +
                          (batch.backend == "gpu" ? "" : " (speed not graded: no GPU)") + "\n\n" +
                          batch_summary(reports, batch.labs);
    write_text_file(batch.out / "summary.md", summary);
    json students = json::array();
    for (const auto& report : reports) {
      json labs = json::array();
      for (const auto& lab : report.labs)
        labs.push_back({{"folder", lab.lab.folder}, {"status", status_name(lab.status)}, {"score", lab.score()}, {"max", lab.max()}});
      students.push_back({{"student", report.student}, {"notes", report.notes}, {"labs", labs}});
    }
    const json record = {{"dir", batch.dir.string()}, {"seed", batch.seed}, {"seed_given", batch.seed_given},
                         {"backend", batch.backend}, {"labs", batch.labs}, {"students", students}};
    write_text_file(batch.out / "batch.json", record.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
    std::cout << "\n" << batch_summary(reports, batch.labs) << "\ngradebook: " << (batch.out / "gradebook.csv").string()
              << "\n";
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "pplab grade: %s\n", error.what());
    return 1;
  }
}

GradeReport report_from_record(const nlohmann::json& record) {
  GradeReport report;
  report.student = record.at("student").get<std::string>();
  report.notes = record.at("notes").get<std::vector<std::string>>();
  for (const auto& item : record.at("labs")) {
    LabGrade lab;
    lab.lab.folder = item.at("folder").get<std::string>();
    lab.status = status_from_name(item.at("status").get<std::string>());
    lab.correctness = item.at("score").get<double>();
    lab.correctness_max = item.at("max").get<double>();
    report.labs.push_back(lab);
  }
  return report;
}

}  // namespace pplab::cli
