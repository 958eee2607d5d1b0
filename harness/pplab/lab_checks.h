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

namespace pplab::cli {

/// The verdict on one test case. Each has its own wording in reports.
struct CaseResult {
  enum class Verdict {
    passed,        ///< the harness reported the case ran and every check in it held
    skipped,       ///< the check does not apply yet (a stretch step not written): neither passed nor failed
    wrong_answer,  ///< a check failed (wrong value, input modified, output left unwritten, ...)
    host_work,     ///< right or not, the lab's call did its work on the host (pplab/device_work.h)
    memory_error,  ///< compute-sanitizer memcheck reported an invalid access in this check (GPU)
    race_hazard,   ///< compute-sanitizer racecheck reported a shared-memory hazard in this check (GPU)
    data_race,     ///< the emulator's checked shared memory found two unordered accesses, one a write
    uninit_shared, ///< a check failed after the emulator warned of a read of shared memory no thread of the block wrote
    shared_oob,    ///< the emulator saw a shared-memory access outside every __shared__ array
    fault,         ///< the emulator stopped the program (out of bounds, barrier divergence, deadlock)
    crashed,       ///< killed by a signal (segfault, abort) or a bad ending after the checks
    threw,         ///< an exception escaped the lab code
    timed_out,     ///< still running at the case's time limit
    exited_early,  ///< the process ended (exit() in lab code?) before the harness reported
    tampered,      ///< the result channel was read or written by something other than the harness
    no_result      ///< the binary could not be started, or no check by that name ran
  };
  std::string name;
  Verdict verdict = Verdict::no_result;
  std::string reason;  ///< one line: why it did not pass
  std::string detail;  ///< the harness's own (authenticated) report of the first failed check
  std::string output;  ///< what the case printed
  double seconds = 0;
  bool passed() const { return verdict == Verdict::passed; }
  bool skipped() const { return verdict == Verdict::skipped; }
  bool failed() const { return !passed() && !skipped(); }
};

/// Short text for a verdict: "passed", "wrong answer", "fault", "crashed", ...
/// A checker's output without the lines the lab's process printed (relayed with
/// channel::kLabLinePrefix): what reports may show. Says how many lines it left out.
std::string checker_lines(const std::string& output);

std::string verdict_name(CaseResult::Verdict verdict);

/// All test cases of one lab binary.
struct LabResult {
  std::string lab;            ///< "02_dot_product"
  std::string error;          ///< set when the binary could not even list its tests
  std::vector<CaseResult> cases;
  std::vector<std::string> extra;  ///< listed by the binary but not in CheckOptions::cases
  int passed() const;
  int skipped() const;
  int failed() const;  ///< neither passed nor skipped
};

/// Options for a run of a lab's checks.
struct CheckOptions {
  std::map<std::string, std::string> environment;  ///< e.g. PPLAB_SEED
  std::chrono::seconds case_limit{300};            ///< per test case
  int jobs = 1;                                    ///< test cases run at once
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
