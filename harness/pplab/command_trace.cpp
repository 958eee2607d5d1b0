// pplab trace LAB: the seed-style step tables of a lab's kernel on its small worked
// example (the shared array after each barrier, which threads were active, what each
// did), printed by the lab's trace program (harness/labs/NN_name/trace.cpp) built for the CPU emulator.
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

#include "../include/pplab/todo_regions.h"  // header-only: the kernel file's TODO regions
#include "commands.h"
#include "process.h"
#include "workbook.h"

namespace pplab::cli {
namespace {

struct TraceOptions {
  std::string lab;
  bool markdown = false;
};

// A trace that faulted (a deadlock, an invalid access, a crash) ends in a report shaped
// like a failed check's, instead of the tables cut short: what went wrong, the
// emulator's own lines, the step, and the command that runs the same trace again.
void report_trace_fault(const Lab& lab, const std::string& program, const ProcessResult& result) {
  std::string emulator, line;
  std::istringstream lines(result.output);
  while (std::getline(lines, line))
    if (line.rfind("pplab-sim:", 0) == 0 || (line.rfind("  ", 0) == 0 && !emulator.empty())) emulator += "  " + line + "\n";
  std::cerr << "trace failed: " << lab.folder << "'s kernel on its worked example: " << result.describe() << "\n";
  if (!emulator.empty()) std::cerr << emulator;
  // The trace runs the reference where this build has solutions/ (harness/trace builds it), else the student's file.
  const std::filesystem::path kernel = lab.reference_file.empty() ? lab.student_file : lab.reference_file;
  std::cerr << pplab::detail::fault_step_line(kernel.string().c_str())
            << "  hint: a fault here is a fault in the checks too: pplab test " << lab.number
            << " names the failing check, its step and its inputs\n"
            << "  reproduce: " << program << "\n";
}

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
                << "harness/labs/NN_name/trace.cpp)\n";
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
    const bool faulted = result.ending != ProcessResult::Ending::exited ||
                         result.output.find("pplab-sim: error:") != std::string::npos;
    if (faulted) {
      report_trace_fault(lab, program.string(), result);
      status = 1;
      continue;
    }
    std::cout << result.output;
    if (!result.succeeded()) {
      // The trace ran to its end and its answer differs from the CPU's (said above).
      std::cerr << "pplab trace: " << lab.folder << ": the worked example's answer is wrong; pplab test "
                << lab.number << " names the step\n";
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
  add_lab_argument(*command, options->lab, "trace")->required();
  command->add_flag("--markdown", options->markdown, "Markdown tables (as in the handouts) instead of text");
  command->callback([options] { std::exit(run_trace(*options)); });
}

}  // namespace pplab::cli
