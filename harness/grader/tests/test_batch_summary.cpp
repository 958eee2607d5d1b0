// A class batch's summary.md (batch.cpp): a GPU batch says above its table when the
// emulator checks did not run for some labs, and why, since those labs were judged on
// what a GPU shows alone (label `grade-tests`).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "batch.h"

namespace fs = std::filesystem;
using namespace pplab::cli;

namespace {

LabGrade judged_lab(const std::string& folder, bool on_emulator, const std::string& problem = "") {
  LabGrade lab;
  lab.lab.folder = folder;
  lab.judged_on_emulator = on_emulator;
  lab.emulator_problem = problem;
  CaseResult check;
  check.name = "a check";
  check.verdict = CaseResult::Verdict::passed;
  lab.checks.cases.push_back(check);
  return lab;
}

std::string summary_of(const std::vector<GradeReport>& reports, const std::string& backend) {
  char folder[] = "/tmp/pplab-batch-summary-XXXXXX";
  REQUIRE(mkdtemp(folder) != nullptr);
  BatchInfo batch;
  batch.dir = fs::path(folder) / "class";
  batch.out = folder;
  batch.labs = {"01_saxpy", "02_dot_product"};
  batch.backend = backend;
  std::vector<BatchEntry> entries;
  for (const auto& report : reports) entries.push_back({report, true});
  write_batch_files(entries, batch);
  std::ifstream in(fs::path(folder) / "summary.md");
  std::stringstream text;
  text << in.rdbuf();
  fs::remove_all(folder);
  return text.str();
}

GradeReport student(const std::string& name, const std::string& backend, std::vector<LabGrade> labs) {
  GradeReport report;
  report.student = name;
  report.backend = backend;
  report.labs = std::move(labs);
  return report;
}

}  // namespace

TEST_CASE("a GPU batch names the labs judged on the GPU alone, with the emulator build's error line") {
  const std::string configure_output =
      "CMake Warning (policy) at CMakeLists.txt:36 (find_package):\n  Policy CMP0167 is not set\n"
      "CMake Error at BoostConfig.cmake:141 (find_package):\n  Could not find boost_context\n";
  const auto summary =
      summary_of({student("ada", "gpu", {judged_lab("01_saxpy", true), judged_lab("02_dot_product", true)}),
                  student("bob", "gpu", {judged_lab("01_saxpy", false, configure_output)})},
                 "gpu");
  CHECK(summary.find("Correctness of 1 of 3 graded labs was judged on the GPU alone") != std::string::npos);
  CHECK(summary.find("CMake Error at BoostConfig.cmake:141") != std::string::npos);
  CHECK(summary.find("Policy CMP0167") == std::string::npos);
}

TEST_CASE("a GPU batch whose every lab also ran on the emulator, or an emulator batch, carries no such line") {
  CHECK(summary_of({student("ada", "gpu", {judged_lab("01_saxpy", true)})}, "gpu").find("GPU alone") ==
        std::string::npos);
  CHECK(summary_of({student("ada", "sim", {judged_lab("01_saxpy", false)})}, "sim").find("GPU alone") ==
        std::string::npos);
}

TEST_CASE("the emulator build's words in the line cannot add markup to the summary") {
  const auto summary =
      summary_of({student("bob", "gpu", {judged_lab("01_saxpy", false, "error: <script>## 01_saxpy 10 of 10")})},
                 "gpu");
  CHECK(summary.find("<script>") == std::string::npos);
  CHECK(summary.find("\n## 01_saxpy 10 of 10") == std::string::npos);
}
