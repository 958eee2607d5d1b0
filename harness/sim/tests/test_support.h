// What the sim's test files share: running a command (a test program, simcc, the
// rewriter) and checking how it ended and what it printed. Diagnostics end the process
// that meets them, so they are checked by running small programs (programs/*.cu) as
// subprocesses; simcc builds and runs programs the way nvcc's users do.
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

namespace simtest::support {
struct RunResult {
  int status = -1;
  std::string output;  // stdout and stderr together
};

// Runs `command` in a shell, stdout and stderr together.
RunResult run(const std::string& command);

// The path of one of the test programs (programs/*.cu, built as pplab_sim_prog_<name>).
std::string program(const char* name);

bool contains(const std::string& haystack, const std::string& needle);

// Checks that `output` holds each of `texts`, in any order; a failure names the text.
void expect_contains(const std::string& output, std::initializer_list<std::string> texts);

// Checks a kernel's results against the expected values, one by one; a failure names the index.
void expect_values(const std::vector<int>& got, std::initializer_list<int> want);

// How a program must end: exit status 0, or a non-zero status after its report.
enum class Exit { cleanly, with_error };

// Checks how a run ended and that its output holds each of `texts`; a failure shows the
// whole output. Returns the run for the checks that are not a plain "holds this text".
RunResult expect_run(RunResult r, Exit exit, std::initializer_list<std::string> texts);

// Builds tests/programs/nvcc_like/<name>.cu with simcc, as a user would with nvcc, and runs it.
RunResult simcc_run(const std::string& name, const std::string& env = "");
}  // namespace simtest::support
