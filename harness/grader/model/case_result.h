/// \file
/// \brief The verdict on each check of a lab: what running its checks (lab_checks.h)
/// finds, and what points and reports are decided from.
#pragma once
#include <string>
#include <vector>

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
std::string verdict_name(CaseResult::Verdict verdict);

/// A checker's output without the lines the lab's process printed (relayed with
/// channel::kLabLinePrefix): what reports may show. Says how many lines it left out.
std::string checker_lines(const std::string& output);

/// All test cases of one lab binary.
struct LabResult {
  std::string lab;            ///< "02_dot_product"
  std::string error;          ///< set when the binary could not even list its tests
  std::vector<CaseResult> cases;
  std::vector<std::string> extra;  ///< listed by the binary but not in CheckOptions::cases
  int processes = 0;               ///< check processes started (fewer than cases when they share)
  int passed() const;
  int skipped() const;
  int failed() const;  ///< neither passed nor skipped
};

}  // namespace pplab::cli
