#include "workbook.h"

#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace pplab::cli {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

fs::path path_or_empty(const json& lab, const char* key) {
  return lab.contains(key) && lab.at(key).is_string() ? fs::path(lab.at(key).get<std::string>()) : fs::path();
}

// {"target": ..., "file": ...} or null.
std::optional<Program> program_at(const json& parent, const char* key) {
  if (!parent.is_object() || !parent.contains(key) || parent.at(key).is_null()) return std::nullopt;
  const json& item = parent.at(key);
  return Program{item.at("target").get<std::string>(), fs::path(item.at("file").get<std::string>())};
}

fs::path if_built(const std::optional<Program>& program) {
  return program && fs::exists(program->file) ? program->file : fs::path();
}

Lab lab_from_json(const json& item) {
  Lab lab;
  lab.folder = item.at("folder").get<std::string>();
  lab.number = item.at("number").get<std::string>();
  lab.name = item.at("name").get<std::string>();
  lab.student_file = path_or_empty(item, "student_file");
  lab.reference_file = path_or_empty(item, "reference_file");
  lab.bench_source = path_or_empty(item, "bench_source");
  lab.sanitizer_large_n = item.value("sanitizer_large_n", lab.sanitizer_large_n);
  const json& student = item.at("student");
  const json& reference = item.at("reference");
  lab.student_checks_program = program_at(student, "checks");
  lab.student_bench_program = program_at(student, "bench");
  lab.reference_checks_program = program_at(reference, "checks");
  lab.reference_bench_program = program_at(reference, "bench");
  lab.trace_program = program_at(item, "trace");
  lab.trace_built_on_demand = item.contains("trace") && item.at("trace").is_object() &&
                              item.at("trace").value("on_demand", false);
  lab.student_checks = if_built(lab.student_checks_program);
  lab.reference_checks = if_built(lab.reference_checks_program);
  lab.student_runner_program = program_at(student, "runner");
  lab.reference_runner_program = program_at(reference, "runner");
  lab.student_runner = if_built(lab.student_runner_program);
  lab.reference_runner = if_built(lab.reference_runner_program);
  lab.student_bench = if_built(lab.student_bench_program);
  lab.reference_bench = if_built(lab.reference_bench_program);
  lab.reference_timer_program = program_at(reference, "timer");
  lab.reference_timer = if_built(lab.reference_timer_program);
  return lab;
}

}  // namespace

Workbook load_manifest(const fs::path& build_dir) {
  const fs::path file = build_dir / "labs.json";
  std::ifstream in(file);
  if (!in) throw std::runtime_error("no lab manifest " + file.string() + ": configure this build first (cmake --preset ...)");
  Workbook workbook;
  try {
    const json manifest = json::parse(in);
    workbook.source_dir = manifest.at("source_dir").get<std::string>();
    workbook.build_dir = manifest.at("build_dir").get<std::string>();
    workbook.bin_dir = workbook.build_dir / "bin";
    workbook.backend = manifest.at("backend").get<std::string>();
    for (const auto& item : manifest.at("labs")) workbook.labs.push_back(lab_from_json(item));
    if (manifest.contains("sim_oracle") && manifest.at("sim_oracle").is_object()) {
      workbook.sim_oracle_target = manifest.at("sim_oracle").at("target").get<std::string>();
      workbook.sim_oracle_dir = manifest.at("sim_oracle").at("build_dir").get<std::string>();
    }
  } catch (const json::exception& error) {
    throw std::runtime_error("the lab manifest " + file.string() + " is malformed: " + error.what() +
                             " (configure the build again)");
  }
  // The oracle's own manifest exists once it has been configured (at build time).
  if (!workbook.sim_oracle_dir.empty() && fs::exists(workbook.sim_oracle_dir / "labs.json")) {
    const Workbook oracle = load_manifest(workbook.sim_oracle_dir);
    for (Lab& lab : workbook.labs)
      if (const auto twin = find_lab(oracle, lab.folder)) {
        lab.emulator_checks = twin->student_checks;
        lab.emulator_runner = twin->student_runner;
      }
  }
  return workbook;
}

Workbook discover_workbook() {
  return load_manifest(fs::read_symlink("/proc/self/exe").parent_path().parent_path());
}

std::optional<Lab> find_lab(const Workbook& workbook, const std::string& query) {
  std::string number = query;
  if (number.rfind("lab", 0) == 0) number = number.substr(3);
  if (number.size() == 1 && std::isdigit(static_cast<unsigned char>(number[0]))) number = "0" + number;
  for (const Lab& lab : workbook.labs)
    if (lab.number == number || lab.folder == query || lab.name == query) return lab;
  return std::nullopt;
}

std::vector<Lab> select_labs(const Workbook& workbook, const std::string& query) {
  if (query.empty()) return workbook.labs;
  if (auto lab = find_lab(workbook, query)) return {*lab};
  std::string known;
  for (const Lab& lab : workbook.labs) known += "\n  " + lab.folder;
  throw std::invalid_argument("no lab named '" + query + "'; the labs are:" + known);
}

}  // namespace pplab::cli
