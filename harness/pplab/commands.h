/// \file
/// \brief The subcommands of pplab; each file adds one to the CLI11 app.
#pragma once
#include <CLI/CLI.hpp>

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

}  // namespace pplab::cli
