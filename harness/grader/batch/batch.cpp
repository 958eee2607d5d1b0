// Finishing a class batch: the gradebook, the summary and batch.json, the record a
// merge (a Slurm batch's --collect) reads back. Local and Slurm batches share it.
#include "batch.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "files.h"
#include "markup.h"
#include "reports.h"

namespace pplab::cli {
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::vector<GradeReport> reports_of(const std::vector<BatchEntry>& entries) {
  std::vector<GradeReport> reports;
  for (const auto& entry : entries) reports.push_back(entry.report);
  return reports;
}

// OUT/batch.json of an earlier run, when it is the same batch (folder, labs, backend).
std::optional<json> same_batch_before(const BatchInfo& batch) {
  std::ifstream in(batch.out / "batch.json");
  if (!in) return std::nullopt;
  try {
    json record = json::parse(in);
    if (record.at("dir") != batch.dir.string() || record.at("labs") != batch.labs || record.at("backend") != batch.backend)
      return std::nullopt;
    return record;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

// The line of a build's output that says what went wrong: the first naming an error
// (a configure step prints its warnings first), else the first.
std::string first_error_line(const std::string& output) {
  std::size_t start = 0;
  while (start < output.size()) {
    const std::size_t end = std::min(output.find('\n', start), output.size());
    const std::string line = output.substr(start, end - start);
    if (line.find("rror") != std::string::npos) return line.substr(0, 300);
    start = end + 1;
  }
  return output.substr(0, std::min<std::size_t>(output.find('\n'), 300));
}

// A GPU batch whose emulator checks did not run for some labs (the sim oracle missing,
// or a student's emulator build that failed) says so above its table: those labs were
// judged on what a GPU shows alone. Markdown for summary.md, plain text for stderr.
std::string gpu_alone_warning(const std::vector<GradeReport>& reports, bool markdown) {
  std::size_t judged = 0, gpu_alone = 0;
  std::string why;
  for (const auto& report : reports) {
    if (report.backend != "gpu") continue;
    for (const auto& lab : report.labs) {
      if (lab.checks.cases.empty()) continue;  // not built or not submitted: nothing was judged
      ++judged;
      if (lab.judged_on_emulator) continue;
      ++gpu_alone;
      if (why.empty()) why = first_error_line(lab.emulator_problem);
    }
  }
  if (gpu_alone == 0) return "";
  const std::string bold = markdown ? "**" : "";
  if (markdown) why = markdown_text(why, MarkdownPlace::after_text);
  return bold + "Correctness of " + std::to_string(gpu_alone) + " of " + std::to_string(judged) +
         " graded labs was judged on the GPU alone" + bold + ": the emulator checks did not run for them" +
         (why.empty() ? std::string(" (this build has no sim oracle)") : " (first reason: " + why + ")") +
         ". A race, a barrier inside a branch or an uninitialised shared read that gives the right answer on a "
         "GPU passes there; each report's notes say why.\n" + (markdown ? "\n" : "");
}

}  // namespace

void write_batch_files(const std::vector<BatchEntry>& entries, const BatchInfo& batch) {
  const auto reports = reports_of(entries);
  write_gradebook(reports, batch.labs, batch.out / "gradebook.csv");
  std::size_t finished = 0;
  for (const auto& entry : entries) finished += entry.finished ? 1 : 0;
  std::string summary = "# pplab grade: " + markdown_text(batch.dir.string(), MarkdownPlace::after_text) + "\n\nseed " + std::to_string(batch.seed) +
                        (batch.seed_given ? "" : " (hidden)") + ", " + batch.backend + " backend" +
                        (batch.backend == "gpu" ? "" : " (speed not graded: no GPU)") +
                        (finished < entries.size() ? ", " + std::to_string(finished) + " of " + std::to_string(entries.size()) +
                                                         " students graded so far"
                                                   : std::string()) +
                        "\n\n" + gpu_alone_warning(reports, true) +
                        batch_summary(reports, batch.labs);
  write_text_file(batch.out / "summary.md", summary);
  json students = json::array();
  for (const auto& entry : entries) {
    const auto& report = entry.report;
    json labs = json::array();
    for (const auto& lab : report.labs)
      labs.push_back({{"folder", lab.lab.folder}, {"status", status_name(lab.status)}, {"score", lab.score()}, {"max", lab.max()}});
    students.push_back({{"student", report.student}, {"notes", report.notes}, {"labs", labs}, {"finished", entry.finished}});
  }
  const json record = {{"dir", batch.dir.string()}, {"seed", batch.seed}, {"seed_given", batch.seed_given},
                       {"backend", batch.backend}, {"labs", batch.labs}, {"students", students}};
  // Written whole and then renamed, so a batch stopped mid-write leaves the last good one.
  const fs::path partial = batch.out / "batch.json.partial";
  write_text_file(partial, record.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
  fs::rename(partial, batch.out / "batch.json");
}

int finish_batch(const std::vector<GradeReport>& reports, const BatchInfo& batch) {
  try {
    std::vector<BatchEntry> entries;
    for (const auto& report : reports) entries.push_back({report, true});
    write_batch_files(entries, batch);
    std::cout << "\n" << batch_summary(reports, batch.labs) << "\ngradebook: " << (batch.out / "gradebook.csv").string()
              << "\n";
    if (const auto warning = gpu_alone_warning(reports, false); !warning.empty()) std::cerr << "pplab grade: " << warning;
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "pplab grade: %s\n", error.what());
    return 1;
  }
}

std::vector<GradeReport> finished_before(const BatchInfo& batch) {
  std::vector<GradeReport> reports;
  const auto record = same_batch_before(batch);
  if (!record || record->at("seed") != batch.seed) return reports;
  for (const auto& student : record->at("students")) {
    // A record without "finished" is a whole batch's (finish_batch): every student done.
    if (!student.value("finished", true)) continue;
    const std::string name = student.at("student").get<std::string>();
    if (!fs::exists(batch.out / name / "results.json")) continue;   // its reports are gone: grade again
    reports.push_back(report_from_record(student));
  }
  return reports;
}

std::optional<std::uint64_t> hidden_seed_before(const BatchInfo& batch) {
  const auto record = same_batch_before(batch);
  if (!record || record->at("seed_given").get<bool>()) return std::nullopt;
  return record->at("seed").get<std::uint64_t>();
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
