// pplab trace LAB: the seed-style step tables of a lab's kernel on its small worked
// example (the shared array after each barrier, which threads were active, what each
// did), printed by the lab's trace program (harness/labs/NN_name/trace.cpp) built for the CPU emulator.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "../include/pplab/todo_regions.h"  // header-only: the kernel file's TODO regions
#include "commands.h"
#include "pplab/trace_ending.h"
#include "process.h"
#include "workbook.h"

namespace pplab::cli {
namespace {

struct TraceOptions {
  std::string lab;
  bool markdown = false;
};

// The emulator's watchdog names a hung kernel after this many seconds; a worked example
// runs in well under one, so a trace does not wait the emulator's default minute.
constexpr const char* kTraceWatchdogSeconds = "10";

// What a faulted trace printed that tells what happened: the emulator's report (its
// "pplab-sim: error:" lines and the indented lines under them), the C++ runtime's
// lines for an exception that escaped or a failed assert(), and the trace program's
// line for an end it did not reach (pplab/trace_ending.h).
struct TraceFault {
  std::string account;    // those lines, in the order printed
  std::string emulator;   // the emulator's first error line, without its prefix
  std::string exception;  // "std::invalid_argument: message" for an exception that escaped
  std::string assertion;  // the failed assert()'s line
};

TraceFault read_trace_fault(const std::string& output) {
  static const std::string sim = "pplab-sim: error: ", terminate = "terminate called after throwing an instance of '",
                           what = "  what():  ";
  TraceFault fault;
  std::string line;
  std::istringstream lines(output);
  bool in_report = false;  // inside the emulator's report, whose notes are indented
  while (std::getline(lines, line)) {
    bool keep = false;
    if (line.rfind("pplab-sim:", 0) == 0) {
      keep = in_report = true;
      if (fault.emulator.empty() && line.rfind(sim, 0) == 0) fault.emulator = line.substr(sim.size());
    } else if (line.rfind(terminate, 0) == 0) {
      keep = true;
      in_report = false;
      fault.exception = line.substr(terminate.size(), line.rfind('\'') - terminate.size());
    } else if (line.rfind(what, 0) == 0 && !fault.exception.empty()) {
      keep = true;
      fault.exception += ": " + line.substr(what.size());
    } else if (line.rfind(kTraceEndedEarlyLine, 0) == 0) {
      keep = true;
      in_report = false;
    } else if (line.find(": Assertion `") != std::string::npos) {
      keep = true;
      fault.assertion = line;
    } else if (in_report && line.rfind("  ", 0) == 0) {
      keep = true;
    } else {
      in_report = false;
    }
    if (keep) fault.account += "  " + line + "\n";
  }
  return fault;
}

// The emulator's first line as a headline: without where the kernel was launched and
// which block (the lines below say both).
std::string headline(std::string text) {
  if (auto at = text.find(" (launched at "); at != std::string::npos) {
    const auto close = text.find(')', at);
    text.erase(at, close == std::string::npos ? std::string::npos : close + 1 - at);
  }
  if (auto at = text.find(", block ("); at != std::string::npos) text.erase(at);
  while (!text.empty() && (text.back() == ':' || text.back() == ' ')) text.pop_back();
  return text;
}

// What went wrong, in one line: an exception, the emulator's report, a signal, a hang.
std::string fault_summary(const TraceFault& fault, const ProcessResult& result) {
  if (!fault.exception.empty()) return "an exception escaped the lab's code: " + fault.exception;
  if (!fault.assertion.empty()) return "a failed assert() in the lab's code";
  if (!fault.emulator.empty()) return headline(fault.emulator);
  switch (result.ending) {
    case ProcessResult::Ending::signalled:
      if (result.signal == SIGABRT) return "aborted (abort() was called, or std::terminate)";
      if (result.signal == SIGSEGV) return "a segmentation fault in host code (a bad host pointer, or device memory read on the host?)";
      return result.describe();
    case ProcessResult::Ending::timed_out:
      return result.describe() + ": an endless loop in host code (the emulator's watchdog names a hung kernel sooner)";
    case ProcessResult::Ending::exited:
      if (result.exit_code == kTraceEndedEarly && result.output.find(kTraceEndedEarlyLine) != std::string::npos)
        return "the lab's code called exit() before the trace's end (its tables are cut short)";
      return "the trace ended early with " + result.describe() + ": exit() called from the lab's code?";
    case ProcessResult::Ending::failed_to_start: break;
  }
  return result.describe();
}

// A trace that faulted (a deadlock, an invalid access, an exception, a crash) ends in a
// report shaped like a failed check's, instead of the tables cut short: what went wrong,
// the lines that say where, the step, and one command that runs the same trace again.
void report_trace_fault(const Lab& lab, const std::string& command, const ProcessResult& result) {
  const TraceFault fault = read_trace_fault(result.output);
  std::cerr << "trace failed: " << lab.folder << " on its worked example: " << fault_summary(fault, result) << "\n"
            << fault.account;
  // The trace runs the reference where this build has solutions/ (harness/trace builds it), else the student's file.
  const std::filesystem::path kernel = lab.reference_file.empty() ? lab.student_file : lab.reference_file;
  const std::string file = kernel.filename().string();
  const bool names_line = !file.empty() && fault.account.find(file + ":") != std::string::npos;
  if (fault.emulator.empty() || fault.emulator.find("in host code") != std::string::npos)
    std::cerr << "  where: host code, outside any kernel (the lab's launcher, or a host function it calls)\n";
  std::cerr << "  while: pplab trace " << lab.number << ", the handout's worked example\n";
  if (names_line) {
    std::cerr << pplab::detail::fault_step_line(kernel.string().c_str());
  } else {
    const std::string regions = kernel.empty() ? std::string() : pplab::detail::todo_regions(kernel.string());
    std::cerr << "  step: one of the TODO steps the trace runs (the report names no line of " << file << ")"
              << (regions.empty() ? "" : ": " + file + ": " + regions) << "\n";
  }
  std::cerr << "  hint: a fault here is a fault in the checks too: pplab test " << lab.number
            << " names the failing check, its step and its inputs\n"
            << "  reproduce: " << command << "\n";
}

// Brings a trace of the student's file up to date (a no-op when it is): the build's
// default target leaves it out, so that an edit recompiles the student's file once.
// The compiler's messages are shown only when the build fails.
bool build_trace(const Workbook& workbook, const Program& trace) {
  const ProcessResult built = run_process({PPLAB_CMAKE_COMMAND, "--build", workbook.build_dir.string(), "--target",
                                           trace.target},
                                          {}, std::chrono::seconds(600));
  if (built.succeeded()) return true;
  std::cerr << built.output << "pplab trace: building " << trace.target << " failed (" << built.describe()
            << "); `cmake --build " << workbook.build_dir.string() << "` shows the same errors\n";
  return false;
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
    if (lab.trace_built_on_demand && !build_trace(workbook, *lab.trace_program)) {
      status = 1;
      continue;
    }
    if (!std::filesystem::exists(program)) {
      std::cerr << "pplab trace: " << program.string() << " is not built: cmake --build " << workbook.build_dir.string()
                << " --target " << lab.trace_program->target << "\n";
      status = status ? status : 2;
      continue;
    }
    std::vector<std::string> argv{program.string()};
    if (options.markdown) argv.push_back("--markdown");
    const char* watchdog = std::getenv("PPLAB_SIM_TIMEOUT");  // the user's own setting wins
    const std::map<std::string, std::string> environment{
        {"PPLAB_SIM_TIMEOUT", watchdog && *watchdog ? watchdog : kTraceWatchdogSeconds}};
    const ProcessResult result = run_process(argv, environment, std::chrono::seconds(120));
    // A trace program exits with 0 (its answer is right) or 1 (wrong); anything else,
    // or a report of the emulator's, is a fault.
    const bool faulted = result.ending != ProcessResult::Ending::exited || result.exit_code > 1 ||
                         result.output.find("pplab-sim: error:") != std::string::npos ||
                         result.output.find("terminate called after throwing") != std::string::npos;
    if (faulted) {
      std::string command = "PPLAB_SIM_TIMEOUT=" + shell_word(environment.at("PPLAB_SIM_TIMEOUT"));
      for (const std::string& word : argv) command += " " + shell_word(word);
      report_trace_fault(lab, command, result);
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
  auto [command, options] = add_command<TraceOptions>(
      app, "trace", "Print a lab's kernel step by step on its worked example: the shared array after each barrier (sim)",
      run_trace);
  add_lab_argument(*command, options->lab, "trace")->required();
  command->add_flag("--markdown", options->markdown, "Markdown tables (as in the handouts) instead of text");
}

}  // namespace pplab::cli
