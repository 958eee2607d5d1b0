/// \file
/// \brief The subcommands of pplab; each file adds one to the CLI11 app.
#pragma once
#include <CLI/CLI.hpp>

#include <string>

namespace pplab::cli {

/// `pplab test [LAB]`: run the checks, print a table per lab.
void add_test_command(CLI::App& app);
/// `pplab bench [LAB]`: time labs on a GPU.
void add_bench_command(CLI::App& app);
/// `pplab grade [--submissions DIR] [--out OUT] ...`: grade and write reports.
void add_grade_command(CLI::App& app);
/// `pplab release [--out FILE]`: the student tarball, without solutions/.
void add_release_command(CLI::App& app);
/// `pplab trace LAB`: the shared array after each barrier on the lab's worked example (sim).
void add_trace_command(CLI::App& app);

/// The LAB argument of a subcommand, in every spelling the workbook accepts; `verb`
/// says what the subcommand does to it ("check", "time", "trace").
inline CLI::Option* add_lab_argument(CLI::App& command, std::string& lab, const std::string& verb) {
  return command.add_option("lab", lab, "Lab to " + verb + ": 02, lab02, 02_dot_product or dot_product");
}
/// `--reference`: the subcommand works on solutions/ instead of labs/.
inline CLI::Option* add_reference_flag(CLI::App& command, bool& reference, const std::string& verb) {
  return command.add_flag("--reference", reference, verb + " the reference solution instead of labs/");
}

}  // namespace pplab::cli
