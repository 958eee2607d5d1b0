// pplab trace LAB: the seed-style step tables of a lab's kernel on its small worked
// example (the shared array after each barrier, which threads were active, what each
// did), printed by the lab's trace program (harness/trace) built for the CPU emulator.
#include <cstdio>
#include <iostream>
#include <memory>

#include "commands.h"
#include "process.h"
#include "workbook.h"

namespace pplab::cli {
namespace {

struct TraceOptions {
  std::string lab;
  bool markdown = false;
};

int run_trace(const TraceOptions& options) {
  const Workbook workbook = discover_workbook();
  if (workbook.backend != "sim") {
    std::cerr << "pplab trace: traces run on the CPU emulator; this is a " << workbook.backend
              << " build.\n  Use a sim build: cmake --workflow --preset sim, then build/sim/bin/pplab trace "
              << options.lab << "\n";
    return 2;
  }
  const auto labs = select_labs(workbook, options.lab);
  int status = 0;
  for (const Lab& lab : labs) {
    if (!lab.trace_program) {
      std::cerr << "pplab trace: " << lab.folder << " has no trace program (labs with one: see "
                << "harness/trace/trace_NN_name.cpp)\n";
      status = status ? status : 2;
      continue;
    }
    const auto& program = lab.trace_program->file;
    if (!std::filesystem::exists(program)) {
      std::cerr << "pplab trace: " << program.string() << " is not built: cmake --build " << workbook.build_dir.string()
                << " --target " << lab.trace_program->target << "\n";
      status = status ? status : 2;
      continue;
    }
    std::vector<std::string> argv{program.string()};
    if (options.markdown) argv.push_back("--markdown");
    const ProcessResult result = run_process(argv, {}, std::chrono::seconds(120));
    std::cout << result.output;
    if (!result.succeeded()) {
      std::cerr << "pplab trace: " << lab.folder << ": " << result.describe() << "\n";
      status = 1;
    }
  }
  return status;
}

}  // namespace

void add_trace_command(CLI::App& app) {
  auto options = std::make_shared<TraceOptions>();
  auto* command = app.add_subcommand(
      "trace", "Print a lab's kernel step by step on its worked example: the shared array after each barrier (sim)");
  command->add_option("lab", options->lab, "Lab to trace: 02, lab02, 02_dot_product or dot_product")->required();
  command->add_flag("--markdown", options->markdown, "Markdown tables (as in the handouts) instead of text");
  command->callback([options] { std::exit(run_trace(*options)); });
}

}  // namespace pplab::cli
