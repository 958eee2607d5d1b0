/// \file
/// \brief The subcommands of pplab; each file adds one to the CLI11 app.
#pragma once
#include <CLI/CLI.hpp>

#include <cctype>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

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

/// Adds subcommand `name`. CLI11 writes its options into an `Options` that must outlive
/// this call, so the subcommand's callback shares it (the returned pointer: add the options
/// to it); once they are parsed, the process ends with the status `run` returns for them.
template <class Options>
std::pair<CLI::App*, std::shared_ptr<Options>> add_command(CLI::App& app, const std::string& name,
                                                           const std::string& description,
                                                           int (*run)(const Options&)) {
  auto options = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(name, description);
  command->callback([options, run] { std::exit(run(*options)); });
  return {command, options};
}

/// The LAB argument of a subcommand, in every spelling the workbook accepts; `verb`
/// says what the subcommand does to it ("check", "time", "trace").
inline CLI::Option* add_lab_argument(CLI::App& command, std::string& lab, const std::string& verb) {
  return command.add_option("lab", lab, "Lab to " + verb + ": 02, lab02, 02_dot_product or dot_product");
}
/// add_command() for a subcommand on one lab or all (LAB into `Options::lab`), from labs/ or,
/// with `--reference`, from solutions/ (`Options::reference`); `verb` as for add_lab_argument().
template <class Options>
std::pair<CLI::App*, std::shared_ptr<Options>> add_lab_command(CLI::App& app, const std::string& name,
                                                               const std::string& description,
                                                               const std::string& verb, int (*run)(const Options&)) {
  auto [command, options] = add_command<Options>(app, name, description, run);
  add_lab_argument(*command, options->lab, verb);
  std::string sentence = verb;
  sentence[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(sentence[0])));
  command->add_flag("--reference", options->reference, sentence + " the reference solution instead of labs/");
  return {command, options};
}

}  // namespace pplab::cli
