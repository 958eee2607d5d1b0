#include "workbook.h"

#include <algorithm>
#include <stdexcept>

namespace pplab::cli {
namespace fs = std::filesystem;

Workbook discover_workbook() {
  Workbook workbook;
  workbook.source_dir = PPLAB_SOURCE_DIR;
  workbook.bin_dir = fs::read_symlink("/proc/self/exe").parent_path();
  workbook.build_dir = workbook.bin_dir.parent_path();
  workbook.backend = PPLAB_BACKEND_NAME;
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(workbook.source_dir / "labs")) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory() && name.size() > 3 && std::isdigit(name[0]) && std::isdigit(name[1]) &&
        name[2] == '_')
      folders.push_back(entry.path());
  }
  std::sort(folders.begin(), folders.end());
  for (const auto& folder : folders) {
    Lab lab;
    lab.folder = folder.filename().string();
    lab.number = lab.folder.substr(0, 2);
    lab.name = lab.folder.substr(3);
    const fs::path stem = workbook.bin_dir / ("lab" + lab.number + "_" + lab.name);
    auto if_built = [](const fs::path& path) { return fs::exists(path) ? path : fs::path(); };
    lab.student_checks = if_built(stem);
    lab.reference_checks = if_built(stem.string() + "_ref");
    lab.student_bench = if_built(stem.string() + "_bench");
    lab.reference_bench = if_built(stem.string() + "_ref_bench");
    workbook.labs.push_back(lab);
  }
  return workbook;
}

std::optional<Lab> find_lab(const Workbook& workbook, const std::string& query) {
  std::string number = query;
  if (number.rfind("lab", 0) == 0) number = number.substr(3);
  if (number.size() == 1 && std::isdigit(number[0])) number = "0" + number;
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
