/// \file
/// \brief Running one lab's check binary, one test case per process, and judging each
/// from the authenticated records of the result channel (pplab/result_channel.h).
#pragma once
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "case_result.h"

namespace pplab::cli {

/// Options for a run of a lab's checks.
struct CheckOptions {
  std::map<std::string, std::string> environment;  ///< e.g. PPLAB_SEED
  std::chrono::seconds case_limit{300};            ///< per test case
  int jobs = 1;                                    ///< test cases (or groups of them) run at once
  /// Several checks to a process first, `jobs` processes in all, each of its passes and
  /// skips taken from its own record; every other check then runs alone, as without it,
  /// for its verdict. For a GPU, where starting a check's processes (a CUDA context, the
  /// profiler's hooks) costs seconds and most checks take milliseconds.
  bool shared_processes = false;
  std::filesystem::path working_directory;         ///< where the cases run (empty: here)
  /// The cases to run (e.g. the clean reference's list); empty: every case the binary lists.
  std::vector<std::string> cases;
  /// The lab's kernel file the binary runs, for the `step:` of a check whose process ended
  /// without a report of its own (a crash, an exception, a hang); empty: none named.
  std::filesystem::path kernel_file;
  /// Called before each case with (index, count, name), for progress display; never
  /// from two threads at once.
  std::function<void(std::size_t, std::size_t, const std::string&)> on_case;
  /// Called after each case with its result, for the log; never from two threads at once.
  std::function<void(const CaseResult&)> on_case_done;
  /// Runs each case's process (the argument) inside whatever it must hold, such as the
  /// GPU shared with other checks; empty: runs it as it is.
  std::function<void(const std::function<void()>&)> around_each_case;
};

/// The test case names a doctest binary reports with --list-test-cases.
std::vector<std::string> list_test_cases(const std::filesystem::path& binary, std::string& error);

/// Runs every test case of `binary` in its own process and judges each.
LabResult run_lab_checks(const std::string& lab, const std::filesystem::path& binary,
                         const CheckOptions& options);

/// One verdict per case from a GPU run and an emulator run of the same checks: a case
/// passes only if it passed on both; otherwise the failing run's verdict stands, its
/// reason prefixed with where it failed ("on the emulator: ..."). Cases are matched by
/// name; a case missing from one run is "no result" there.
LabResult merge_judgements(const LabResult& gpu, const LabResult& emulator);

/// The records of one channel, authenticated and in order.
struct ChannelRecords {
  std::vector<nlohmann::json> records;  ///< each has "type"
  std::vector<std::string> problems;    ///< tampering: bad tags, gaps, a missing key
};

/// Checks every line of `text` (what a child wrote on its result pipe) against `key`.
ChannelRecords parse_channel(const std::string& key, const std::string& text);

}  // namespace pplab::cli
