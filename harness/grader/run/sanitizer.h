/// \file
/// \brief compute-sanitizer over a lab's GPU checks: memcheck (invalid and misaligned
/// accesses, leaks of device memory aside) and racecheck (shared-memory hazards), each
/// over the whole check binary at bounded sizes, every report attributed to the check
/// that was running.
#pragma once
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace pplab::cli {

/// What one tool reported against one check.
struct SanitizerFinding {
  std::string tool;        ///< "memcheck" or "racecheck"
  std::string check;       ///< the test case that was running
  std::string first_lines; ///< the tool's first report lines for it
};

/// The outcome of running the tools over one binary.
struct SanitizerResult {
  std::vector<SanitizerFinding> findings;  ///< at most one per (tool, check)
  std::vector<std::string> problems;       ///< a tool that could not run or finish, and why
};

/// How far racecheck's work may spread: over `processes` processes at a time, one per
/// check, when the binary has `checks` of them (1 process: one over every check).
struct SanitizerSpread {
  std::size_t checks = 0;  ///< the binary's test cases, as its GPU run counted them
  int processes = 1;       ///< racecheck processes at a time
  /// Runs each tool process given to it (for example holding the GPU gate, so that a
  /// timing waits for the processes running, not for the whole tool); empty: just runs it.
  std::function<void(const std::function<void()>& process)> guard;
};

/// Runs `binary` under each tool of `tools` with `environment` (the seed), its large-input
/// checks at `large_n` elements (PPLAB_LARGE_N: a size the tools finish), at most `limit`
/// per tool. `sanitizer` is the
/// compute-sanitizer program.
/// A lab's checks hold no CUDA code of their own (harness/remote): the tool wraps the
/// runner the checks start instead. `runner_under` gives that command for a tool; when
/// it is empty, the tool wraps `binary` itself. `spread` lets racecheck, the slow tool,
/// run its checks side by side.
SanitizerResult run_sanitizer(const std::filesystem::path& sanitizer, const std::filesystem::path& binary,
                              const std::vector<std::string>& tools,
                              const std::map<std::string, std::string>& environment, std::size_t large_n,
                              std::chrono::seconds limit,
                              const std::filesystem::path& working_directory,
                              const std::function<std::vector<std::string>(const std::string& tool)>& runner_under = {},
                              const SanitizerSpread& spread = {});

/// The compute-sanitizer on PATH (or next to nvcc's usual place), or empty.
std::filesystem::path find_sanitizer();

}  // namespace pplab::cli
