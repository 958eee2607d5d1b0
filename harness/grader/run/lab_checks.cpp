#include "lab_checks.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <mutex>
#include <optional>
#include <sstream>

#include "pplab/todo_regions.h"  // header-only: the kernel file's TODO regions
#include "parallel_for.h"
#include "pplab/result_channel.h"
#include "process.h"

namespace pplab::cli {

std::vector<std::string> list_test_cases(const std::filesystem::path& binary, std::string& error) {
  const auto listing = run_process({binary.string(), "--list-test-cases", "--no-version=true"}, {},
                                   std::chrono::seconds(60));
  std::vector<std::string> names;
  if (!listing.succeeded()) {
    error = "could not list the checks of " + binary.filename().string() + ": " + listing.describe() +
            "\n" + listing.output;
    return names;
  }
  std::istringstream lines(listing.output);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line.rfind("[doctest]", 0) == 0 || line.rfind("=====", 0) == 0) continue;
    names.push_back(line);
  }
  return names;
}

ChannelRecords parse_channel(const std::string& key, const std::string& text) {
  ChannelRecords parsed;
  const auto* key_bytes = reinterpret_cast<const unsigned char*>(key.data());
  std::istringstream lines(text);
  std::string line;
  unsigned long long expected = 1;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    if (line.rfind("TAMPERED ", 0) == 0) {
      parsed.problems.push_back(line.substr(9));
      continue;
    }
    const auto space = line.find(' ');
    if (space == std::string::npos || space != 16 ||
        pplab::channel::mac_hex(key_bytes, std::string_view(line).substr(17)) != line.substr(0, 16)) {
      parsed.problems.push_back("a record on the result channel was not written by the harness");
      continue;
    }
    const std::string body = line.substr(17);
    const auto seq_end = body.find(' ');
    unsigned long long sequence = 0;
    try {
      sequence = std::stoull(body.substr(0, seq_end));
      if (sequence != expected) {
        parsed.problems.push_back("result records out of order or repeated");
        continue;
      }
      ++expected;
      parsed.records.push_back(nlohmann::json::parse(body.substr(seq_end + 1)));
    } catch (const std::exception&) {
      parsed.problems.push_back("a result record could not be read");
    }
  }
  return parsed;
}

namespace {

const std::string kSimError = "pplab-sim: error:";
const std::string kSimWarning = "pplab-sim: warning:";
const std::string kHostWork = "check failed: the work ran on the host";  // pplab/device_work.h
const std::string kUninitialisedReadFailed = "check failed: uninitialised shared read";  // kUninitialisedRead, there

// The first line that explains a failure from the output: the sim's diagnostic (and
// its location lines), else a check's message.
std::string first_reason(const std::string& output) {
  std::istringstream lines(output);
  std::string line, fallback, sim;
  while (std::getline(lines, line)) {
    if (line.find(kSimError) != std::string::npos) {
      std::string text = line.substr(line.find(kSimError) + kSimError.size());
      while (!text.empty() && text.front() == ' ') text.erase(0, 1);
      if (sim.empty()) sim = text;
      else if (sim.size() < 400) sim += "; " + text;
      continue;
    }
    if (!sim.empty()) break;
    if (fallback.empty() && (line.rfind("check failed:", 0) == 0 || line.find("ERROR:") != std::string::npos ||
                             line.find("CUDA error") != std::string::npos))
      fallback = line;
  }
  return sim.empty() ? fallback : sim;
}

// The emulator's first warning of an uninitialised shared read (its lines joined as
// first_reason joins a report's), or empty. The emulator goes on after one, with the
// read giving poison: when the check then fails, the warning is the likely cause.
std::string uninit_warning(const std::string& output) {
  std::istringstream lines(output);
  std::string line, warning;
  while (std::getline(lines, line)) {
    const auto at = line.find(kSimWarning);
    if (at == std::string::npos) {
      if (!warning.empty()) break;
      continue;
    }
    std::string text = line.substr(at + kSimWarning.size());
    while (!text.empty() && text.front() == ' ') text.erase(0, 1);
    if (warning.empty() && text.rfind("uninitialised shared read", 0) != 0) continue;
    if (!warning.empty() && text.rfind("uninitialised shared read", 0) == 0) break;  // the next warning
    if (warning.empty()) warning = text;
    else if (warning.size() < 400) warning += "; " + text;
  }
  return warning;
}

// The verdict for an emulator report: its checked shared memory's three reports
// have their own (harness/sim/src/shared_reports.cpp words them), the rest are faults.
CaseResult::Verdict sim_verdict(const std::string& reason) {
  using V = CaseResult::Verdict;
  if (reason.rfind("data race on shared memory", 0) == 0) return V::data_race;
  if (reason.rfind("uninitialised shared read", 0) == 0) return V::uninit_shared;
  if (reason.rfind("shared memory out of bounds", 0) == 0) return V::shared_oob;
  return V::fault;
}

// The first few non-blank lines of a message, joined into one line.
std::string first_line(const std::string& text, int count = 1) {
  std::istringstream lines(text);
  std::string line, joined;
  while (count > 0 && std::getline(lines, line)) {
    const auto start = line.find_first_not_of(" \t");
    if (start == std::string::npos) continue;
    joined += (joined.empty() ? "" : "; ") + line.substr(start);
    --count;
  }
  return joined.substr(0, 400);
}

std::string signal_words(const ProcessResult& run) {
  if (run.ending != ProcessResult::Ending::signalled) return run.describe();
  if (run.signal == SIGABRT) return "aborted (abort() was called, or a failed assert() or std::terminate)";
  if (run.signal == SIGSEGV) return "segmentation fault (a bad host pointer, or device memory read on the host?)";
  return run.describe();
}

// The lab's process ended under a check. The checker says how (an emulator report, a
// signal, an exit) and quotes the end of what the process printed.
void judge_runner_end(const std::string& account, CaseResult& result) {
  using V = CaseResult::Verdict;
  const std::string first = account.substr(0, account.find('\n'));
  const std::string prefix = std::string(pplab::channel::kRunnerEnded) + ": ";
  const std::string how = first.size() > prefix.size() ? first.substr(prefix.size()) : first;
  result.detail = account.substr(0, 4000);
  if (account.find(kSimError) != std::string::npos) {
    result.reason = first_reason(account);
    result.verdict = sim_verdict(result.reason);
  } else if (how.rfind("crashed: ", 0) == 0) {
    result.verdict = V::crashed;
    result.reason = how;
  } else {
    result.verdict = V::exited_early;
    result.reason = "the lab's code ended its process (" + how +
                    ") before the check had its result: exit() or quick_exit() called from lab code?";
    if (account.find("[doctest] Status: SUCCESS!") != std::string::npos)
      result.reason += " It printed a pass; printed output does not count.";
  }
}

CaseResult judge(const std::string& name, const ProcessResult& run, const ChannelRecords& channel) {
  CaseResult result;
  result.name = name;
  result.output = run.output;
  result.seconds = run.seconds;
  using V = CaseResult::Verdict;

  const nlohmann::json* case_record = nullptr;
  const nlohmann::json* end_record = nullptr;
  const nlohmann::json* crash_record = nullptr;
  int cases = 0;
  for (const auto& record : channel.records) {
    const std::string type = record.value("type", "");
    if (type == "case") {
      ++cases;
      if (record.value("name", "") == name && !case_record) case_record = &record;
    } else if (type == "end") {
      end_record = &record;
    } else if (type == "crash") {
      crash_record = &record;
    }
  }
  const bool printed_pass = run.output.find("[doctest] Status: SUCCESS!") != std::string::npos;
  // The checker's own account of the lab's process ending under a check.
  const std::string exception = case_record ? case_record->value("exception", "") : "";
  const bool runner_ended = exception.rfind(pplab::channel::kRunnerEnded, 0) == 0;

  if (run.ending == ProcessResult::Ending::failed_to_start) {
    result.verdict = V::no_result;
    result.reason = "the check binary could not be started";
  } else if (run.ending == ProcessResult::Ending::timed_out) {
    result.verdict = V::timed_out;
    result.reason = "timed out after " + std::to_string(int(run.seconds)) +
                    " s: an endless loop, or a thread waiting for something that never happens";
  } else if (!channel.problems.empty()) {
    result.verdict = V::tampered;
    result.reason = "the grader's result channel was tampered with: " + channel.problems.front();
  } else if (cases > 1) {
    result.verdict = V::tampered;
    result.reason = "more than one check ran under the name '" + name + "': lab code defines its own test cases";
  } else if (runner_ended) {
    judge_runner_end(exception, result);
  } else if (crash_record || run.ending == ProcessResult::Ending::signalled) {
    result.verdict = V::crashed;
    result.reason = "crashed: " + signal_words(run);
    if (crash_record) result.reason += " [" + crash_record->value("signal", "") + "]";
  } else if (case_record && !case_record->value("exception", "").empty()) {
    result.verdict = V::threw;
    result.reason = "an exception escaped the lab code: " + first_line(case_record->value("exception", ""));
  } else if (case_record && case_record->value("failures", 0) > 0) {
    result.detail = case_record->value("first_failure", "");
    result.verdict = result.detail.find(kHostWork) != std::string::npos ? V::host_work : V::wrong_answer;
    result.reason = first_line(result.detail, 3);
    const std::string warning = uninit_warning(run.output);
    // The check failed on the read itself (pplab/testing.h): the warning is the reason.
    if (result.detail.find(kUninitialisedReadFailed) != std::string::npos) {
      result.verdict = V::uninit_shared;
      if (!warning.empty()) result.reason = warning;
    } else if (result.verdict == V::wrong_answer && !warning.empty()) {
      // A wrong result after the emulator warned of an uninitialised shared read: the
      // poison that read gave is the likely cause, so the warning leads the report.
      result.verdict = V::uninit_shared;
      result.reason = warning;
      result.detail = warning + "\nand then the check failed:\n" + result.detail;
    }
  } else if (case_record && end_record) {
    if (run.succeeded()) {
      // A check the harness skipped (pplab::skip_check) with every CHECK in it held.
      result.reason = case_record->value("skipped", "");
      result.verdict = result.reason.empty() ? V::passed : V::skipped;
    } else {
      result.verdict = V::crashed;
      result.reason = "every check held, but the program then ended with " + run.describe();
    }
  } else if (end_record && cases == 0) {
    result.verdict = V::no_result;
    result.reason = "no check named '" + name + "' ran (was the test renamed?)";
  } else {
    result.verdict = V::exited_early;
    result.reason = "the program ended (" + run.describe() +
                    ") before the harness reported a result: exit() or quick_exit() called from lab code?";
    if (printed_pass) result.reason += " It printed a pass; printed output does not count.";
  }
  return result;
}

// A check whose process ended without a report of its own (a crash, an exception that
// escaped, a hang, an early exit) gets what a failed check's report carries: the steps
// it runs, and one line that, pasted into a shell, runs it again.
void add_step_and_reproduce(CaseResult& result, const std::filesystem::path& binary, const CheckOptions& options) {
  using V = CaseResult::Verdict;
  if (result.verdict != V::crashed && result.verdict != V::threw && result.verdict != V::timed_out &&
      result.verdict != V::exited_early)
    return;
  const std::string text = result.reason + "\n" + result.detail;
  std::string added;
  if (text.find("step:") == std::string::npos) {
    const std::string file = options.kernel_file.string();
    const std::string regions = file.empty() ? std::string() : pplab::detail::todo_regions(file);
    added += "  step: one of the TODO steps this check runs (the process ended without naming a line)";
    if (!regions.empty()) added += ": " + options.kernel_file.filename().string() + ": " + regions;
    added += "\n";
  }
  if (text.find("reproduce:") == std::string::npos) {
    std::string line = "  reproduce:";
    if (const auto seed = options.environment.find("PPLAB_SEED"); seed != options.environment.end())
      line += " PPLAB_SEED=" + shell_word(seed->second);
    line += " " + shell_word(binary.string()) + " " + shell_word("--test-case=" + result.name);
    added += line + "\n";
  }
  if (added.empty()) return;
  if (result.detail.empty()) result.detail = result.reason + "\n";
  if (result.detail.back() != '\n') result.detail += "\n";
  result.detail += added;
}

// A doctest filter that names exactly `name` among the lab's checks: a comma would split
// the filter, so it becomes the one-character wildcard.
std::string filter_for(std::string name) {
  std::replace(name.begin(), name.end(), ',', '?');
  return name;
}

// A check that ran in a shared process passed or was skipped, by its own authenticated
// record; nothing when anything else may have happened (no record, or two, a failure, an
// exception, a tampered channel): it then runs again alone.
std::optional<CaseResult> shared_pass(const std::string& name, const ChannelRecords& channel) {
  if (!channel.problems.empty()) return std::nullopt;
  const nlohmann::json* found = nullptr;
  for (const auto& record : channel.records) {
    if (record.value("type", "") != "case" || record.value("name", "") != name) continue;
    if (found) return std::nullopt;
    found = &record;
  }
  if (!found || found->value("failures", 1) != 0 || !found->value("exception", "").empty() ||
      found->value("crashed", false))
    return std::nullopt;
  CaseResult result;
  result.name = name;
  result.seconds = found->value("seconds", 0.0);
  result.reason = found->value("skipped", "");
  result.verdict = result.reason.empty() ? CaseResult::Verdict::passed : CaseResult::Verdict::skipped;
  return result;
}

}  // namespace

LabResult run_lab_checks(const std::string& lab, const std::filesystem::path& binary,
                         const CheckOptions& options) {
  LabResult result;
  result.lab = lab;
  const auto listed = list_test_cases(binary, result.error);
  if (!result.error.empty()) return result;
  auto names = listed;
  if (!options.cases.empty()) {
    names = options.cases;
    for (const auto& name : listed)
      if (std::find(names.begin(), names.end(), name) == names.end()) result.extra.push_back(name);
  }
  result.cases.resize(names.size());
  std::mutex progress;
  const auto say_done = [&](const CaseResult& done) {
    if (!options.on_case_done) return;
    std::lock_guard<std::mutex> lock(progress);
    options.on_case_done(done);
  };
  const auto say_started = [&](std::size_t i) {
    if (!options.on_case) return;
    std::lock_guard<std::mutex> lock(progress);
    options.on_case(i, names.size(), names[i]);
  };
  std::atomic<int> started{0};
  // One process of the checks `filter` names, inside what each must hold.
  const auto run_checks = [&](const std::string& filter, ChannelRecords& records) {
    ResultChannel channel;
    channel.key = random_key();
    ProcessResult run;
    const auto run_them = [&] {
      run = run_process({binary.string(), "--test-case=" + filter, "--no-version=true"}, options.environment,
                        options.case_limit, 1 << 20, options.working_directory.string(), &channel);
    };
    options.around_each_case ? options.around_each_case(run_them) : run_them();
    ++started;
    records = parse_channel(channel.key, channel.records);
    return run;
  };
  std::vector<char> judged(names.size(), 0);
  if (options.shared_processes && names.size() > 1) {
    // Dealt round, so that the slow checks (the large inputs, listed last) share out.
    const std::size_t groups = std::min<std::size_t>(names.size(), std::size_t(std::max(1, options.jobs)));
    parallel_for(groups, options.jobs, [&](std::size_t group) {
      std::string filter;
      for (std::size_t i = group; i < names.size(); i += groups) {
        filter += (filter.empty() ? "" : ",") + filter_for(names[i]);
        say_started(i);
      }
      ChannelRecords records;
      run_checks(filter, records);
      for (std::size_t i = group; i < names.size(); i += groups) {
        const auto passed = shared_pass(names[i], records);
        if (!passed) continue;
        result.cases[i] = *passed;
        judged[i] = 1;
        say_done(result.cases[i]);
      }
    });
  }
  std::vector<std::size_t> alone;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (!judged[i]) alone.push_back(i);
  parallel_for(alone.size(), options.jobs, [&](std::size_t k) {
    const std::size_t i = alone[k];
    say_started(i);
    ChannelRecords records;
    const ProcessResult run = run_checks(names[i], records);
    result.cases[i] = judge(names[i], run, records);
    add_step_and_reproduce(result.cases[i], binary, options);
    say_done(result.cases[i]);
  });
  result.processes = started;
  return result;
}

LabResult merge_judgements(const LabResult& gpu, const LabResult& emulator) {
  LabResult merged = gpu;
  if (!gpu.error.empty()) return merged;
  if (!emulator.error.empty()) {
    merged.error = "on the emulator: " + emulator.error;
    return merged;
  }
  for (CaseResult& result : merged.cases) {
    const auto twin = std::find_if(emulator.cases.begin(), emulator.cases.end(),
                                   [&](const CaseResult& c) { return c.name == result.name; });
    if (result.skipped()) continue;
    if (!result.passed()) {
      result.reason = "on the GPU: " + result.reason;
      continue;
    }
    if (twin == emulator.cases.end()) {
      result.verdict = CaseResult::Verdict::no_result;
      result.reason = "on the emulator: no check named '" + result.name + "' ran";
      continue;
    }
    if (!twin->passed()) {
      const double gpu_seconds = result.seconds;
      result = *twin;
      result.reason = "on the emulator (the GPU run passed): " + twin->reason;
      result.seconds += gpu_seconds;
      continue;
    }
    result.seconds += twin->seconds;
  }
  return merged;
}

}  // namespace pplab::cli
