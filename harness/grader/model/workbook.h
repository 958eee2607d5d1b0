/// \file
/// \brief The workbook as its build describes it: the lab manifest (`labs.json`), read
/// once; every lab's files and built programs come from there.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pplab::cli {

/// A program the build makes for a lab (checks, benchmark or trace).
struct Program {
  std::string target;           ///< the CMake target, e.g. "lab02_dot_product_bench"
  std::filesystem::path file;   ///< where the build puts it
};

/// One lab as the manifest describes it. The path fields are empty when the program was
/// not built (or this build does not make it); the targets say what the build would make.
struct Lab {
  std::string folder;  ///< "02_dot_product"
  std::string number;  ///< "02"
  std::string name;    ///< "dot_product"
  std::filesystem::path student_file, reference_file;  ///< the kernel files compiled
  std::filesystem::path bench_source;                  ///< harness/labs/NN_name/bench.cpp; empty when none
  /// The large-input checks' size under compute-sanitizer (PPLAB_LARGE_N), from the lab's
  /// pplab_add_lab(... SANITIZER_LARGE_N n): smaller for a lab whose work outgrows n.
  std::size_t sanitizer_large_n = 65536;
  std::optional<Program> student_checks_program, reference_checks_program;
  std::optional<Program> student_bench_program, reference_bench_program;  ///< GPU builds only
  std::optional<Program> trace_program;                                    ///< sim builds only
  /// The trace compiles the student's file, so it is left out of the build's default
  /// target and `pplab trace` builds it when asked (harness/trace/CMakeLists.txt).
  bool trace_built_on_demand = false;
  std::optional<Program> student_runner_program, reference_runner_program; ///< the lab's code, run by the checks
  std::filesystem::path student_checks, reference_checks;  ///< built binaries; empty when not built
  /// The programs holding the lab's code that the checks start (harness/remote); the
  /// grader puts the student's in a sandbox.
  std::filesystem::path student_runner, reference_runner;
  std::filesystem::path student_bench, reference_bench;    ///< GPU builds only
  /// The reference timed through its runner by the checker's timer, as a student's code
  /// is; reference_bench (in process) gives the library rows beside it. GPU builds only.
  std::optional<Program> reference_timer_program;
  std::filesystem::path reference_timer;
  /// The student checks built for the CPU emulator by a GPU build's sim oracle
  /// (PplabSimOracle.cmake), judged beside the GPU's; empty when not built.
  std::filesystem::path emulator_checks, emulator_runner;
};

/// The workbook this pplab belongs to.
struct Workbook {
  std::filesystem::path source_dir;  ///< the repository (labs/, solutions/, harness/)
  std::filesystem::path build_dir;   ///< build/<preset>
  std::filesystem::path bin_dir;     ///< build/<preset>/bin
  std::string backend;               ///< "sim" or "gpu"
  std::vector<Lab> labs;             ///< every lab of this build, in order
  /// A GPU build's sim oracle: the target that builds it and its build folder (empty
  /// when this build has none).
  std::string sim_oracle_target;
  std::filesystem::path sim_oracle_dir;
};

/// Reads a build's lab manifest (`<build>/labs.json`, written when it is configured);
/// throws with the file's name when it is missing or malformed.
Workbook load_manifest(const std::filesystem::path& build_dir);

/// The workbook of this executable's own build (build/<preset>/bin/pplab).
Workbook discover_workbook();

/// Finds a lab by "2", "02", "lab02", "02_dot_product" or "dot_product".
std::optional<Lab> find_lab(const Workbook& workbook, const std::string& query);

/// Every lab when `query` is empty, else the one it names; throws with the list of
/// lab names when nothing matches.
std::vector<Lab> select_labs(const Workbook& workbook, const std::string& query);

}  // namespace pplab::cli
