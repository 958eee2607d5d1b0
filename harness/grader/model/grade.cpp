#include "grade.h"

#include <stdexcept>
#include <utility>

namespace pplab::cli {

namespace {
constexpr std::pair<LabStatus, const char*> kStatusNames[] = {
    {LabStatus::graded, "graded"},           {LabStatus::not_submitted, "not submitted"},
    {LabStatus::compile_error, "compile error"}, {LabStatus::not_built, "not built"},
    {LabStatus::no_checks, "no checks"},     {LabStatus::not_graded, "not graded"}};
}  // namespace

std::string status_name(LabStatus status) {
  for (const auto& [value, name] : kStatusNames)
    if (value == status) return name;
  return "?";
}

LabStatus status_from_name(const std::string& name) {
  for (const auto& [value, text] : kStatusNames)
    if (text == name) return value;
  throw std::invalid_argument("unknown lab status '" + name + "'");
}

std::string LabGrade::judged_by(const std::string& backend) const {
  if (backend != "gpu") return "emulator";
  return std::string(judged_on_emulator ? "emulator + GPU" : "GPU") + (sanitized ? " + sanitizer" : "");
}

std::string GradeReport::correctness() const {
  if (backend != "gpu") return "emulator";
  // Labs judged on the GPU alone are named; the rest share one description.
  std::string judged, gpu_alone;
  for (const auto& lab : labs) {
    if (lab.checks.cases.empty()) continue;  // not built or not submitted: nothing was judged
    if (lab.judged_on_emulator) judged = lab.judged_by(backend);
    else gpu_alone += (gpu_alone.empty() ? "" : ", ") + lab.lab.folder;
  }
  if (gpu_alone.empty()) return judged.empty() ? "emulator + GPU" : judged;
  if (judged.empty()) return "GPU (the emulator checks were not built)";
  return judged + " (GPU alone for " + gpu_alone + ")";
}

double GradeReport::score() const {
  double total = 0;
  for (const auto& lab : labs) total += lab.score();
  return total;
}
double GradeReport::max() const {
  double total = 0;
  for (const auto& lab : labs) total += lab.max();
  return total;
}

}  // namespace pplab::cli
