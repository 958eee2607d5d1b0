/// \file
/// \brief Finding the workbook: its source tree, the build folder and each lab's binaries.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pplab::cli {

/// One lab as built in this build folder.
struct Lab {
  std::string folder;  ///< "02_dot_product"
  std::string number;  ///< "02"
  std::string name;    ///< "dot_product"
  std::filesystem::path student_checks, reference_checks;  ///< empty when not built
  std::filesystem::path student_bench, reference_bench;    ///< GPU builds only
};

/// The workbook this pplab belongs to.
struct Workbook {
  std::filesystem::path source_dir;  ///< the repository (labs/, solutions/, harness/)
  std::filesystem::path build_dir;   ///< build/<preset>
  std::filesystem::path bin_dir;     ///< build/<preset>/bin
  std::string backend;               ///< "sim" or "gpu"
  std::vector<Lab> labs;             ///< every labs/NN_name folder, in order
};

/// Locates the workbook from this executable's own path (build/<preset>/bin/pplab).
Workbook discover_workbook();

/// Finds a lab by "2", "02", "lab02", "02_dot_product" or "dot_product".
std::optional<Lab> find_lab(const Workbook& workbook, const std::string& query);

/// Every lab when `query` is empty, else the one it names; throws with the list of
/// lab names when nothing matches.
std::vector<Lab> select_labs(const Workbook& workbook, const std::string& query);

}  // namespace pplab::cli
