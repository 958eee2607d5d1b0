// The main of every lab's check binary. It only parses options: listing the tests
// (doctest_discover_tests does so at build time) must never touch a GPU.
//
// When pplab runs the binary with a result channel (pplab/result_channel.h), a doctest
// listener reports each test case there, authenticated, and main() adds an `end` record
// once doctest has finished. pplab grades from those records, not from what the process
// printed or its exit status.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "pplab/inputs.h"
#include "pplab/result_channel.h"
#include "pplab/skip_check.h"

namespace {
// Why the running test case was skipped (pplab::skip_check); empty when it was not.
std::string g_skip_reason;
}  // namespace

void pplab::skip_check(const std::string& reason) { g_skip_reason = reason.empty() ? "skipped" : reason; }

namespace {

// Counts failures itself (rather than trusting doctest's counters, which lab code could
// reach) and sends one record per test case. doctest passes only failed assertions to
// log_assert (without --success), so every call there is a failure.
struct ChannelListener : public doctest::IReporter {
  explicit ChannelListener(const doctest::ContextOptions&) {}

  std::string name;
  int failures = 0;
  std::string first_failure, exception;
  bool crashed = false;
  int cases_ended = 0;
  std::chrono::steady_clock::time_point started;  // the case's, for its record's seconds

  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData& data) override {
    name = data.m_name;
    // Under compute-sanitizer, pplab attributes each report to the check that ran before it.
    if (std::getenv("PPLAB_CASE_MARKERS")) std::fprintf(stdout, "pplab: check: %s\n", name.c_str()), std::fflush(stdout);
    failures = 0;
    first_failure.clear();
    exception.clear();
    crashed = false;
    g_skip_reason.clear();
    started = std::chrono::steady_clock::now();
  }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {
    ++cases_ended;
    // A skip counts only where every CHECK held: a failure is never hidden as a skip.
    const std::string skipped = failures == 0 && exception.empty() ? g_skip_reason : std::string();
    // ctest marks the test Skipped on this line (SKIP_REGULAR_EXPRESSION, cmake/PplabLab.cmake).
    if (!skipped.empty()) std::fprintf(stdout, "pplab: check skipped: %s\n", skipped.c_str()), std::fflush(stdout);
    pplab::channel::send(nlohmann::json{{"type", "case"},
                                        {"name", name},
                                        {"failures", failures},
                                        {"first_failure", first_failure},
                                        {"exception", exception},
                                        {"crashed", crashed},
                                        {"skipped", skipped},
                                        {"seconds", std::chrono::duration<double>(
                                                        std::chrono::steady_clock::now() - started)
                                                        .count()}}
                             .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  void test_case_exception(const doctest::TestCaseException& e) override {
    exception = e.error_string.c_str();
    crashed = e.is_crash;
    if (crashed) {
      // doctest re-raises the signal after this: the process ends without test_case_end.
      pplab::channel::send(nlohmann::json{{"type", "crash"}, {"name", name}, {"signal", exception}}
                               .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
  }
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData& data) override {
    if (!data.m_failed) return;
    std::string text = std::string(doctest::assertString(data.m_at)) + "( " + data.m_expr + " )";
    const std::string decomposed = data.m_decomp.c_str();
    if (data.m_threw) text += " threw: " + std::string(data.m_exception.c_str());
    else if (data.m_at & (doctest::assertType::is_throws | doctest::assertType::is_throws_as |
                          doctest::assertType::is_throws_with))
      text += " did not throw the exception it should";
    else if (!decomposed.empty()) text += " is " + decomposed;
    note_failure(std::string(data.m_file) + ":" + std::to_string(data.m_line) + ": " + text);
  }
  void log_message(const doctest::MessageData& data) override {
    if (data.m_severity & (doctest::assertType::is_check | doctest::assertType::is_require)) {
      note_failure(data.m_string.c_str());
    }
  }
  void test_case_skipped(const doctest::TestCaseData&) override {}

  void note_failure(const std::string& message) {
    ++failures;
    if (first_failure.empty()) first_failure = message.substr(0, 4000);
  }
};

ChannelListener* g_listener = nullptr;

struct RegisteringListener : ChannelListener {
  explicit RegisteringListener(const doctest::ContextOptions& options) : ChannelListener(options) {
    g_listener = this;
  }
};

}  // namespace

REGISTER_LISTENER("pplab_channel", 1, RegisteringListener);

namespace {
// The console reporter of every check binary. When the lab's process ended under a check,
// the exception quotes the end of what it printed, which the console has just shown live
// (the lines marked lab>): the console prints the exception's first line and points up,
// so each report is printed once. pplab reads the whole exception from the result channel.
struct ConsoleOnce : doctest::ConsoleReporter {
  explicit ConsoleOnce(const doctest::ContextOptions& options) : ConsoleReporter(options) {}
  void test_case_exception(const doctest::TestCaseException& e) override {
    const std::string text = e.error_string.c_str();
    const std::size_t printed = text.find(pplab::channel::kRunnerPrinted);
    if (text.rfind(pplab::channel::kRunnerEnded, 0) != 0 || printed == std::string::npos)
      return ConsoleReporter::test_case_exception(e);
    std::string marker = pplab::channel::kLabLinePrefix;
    marker.pop_back();  // "lab>"
    const std::string shorter = text.substr(0, printed) + "(what it printed is shown above, on the lines that begin " +
                                marker + ")";
    ConsoleReporter::test_case_exception(doctest::TestCaseException{doctest::String(shorter.c_str()), e.is_crash});
  }
};

// `ctest -L labNN` prints a failing test case's whole output, and one mistake fails a
// check at every size it runs: its first report says what to fix, the others repeat it.
// With PPLAB_REPORTS=first (the sim and gpu test presets set it) a test case prints its
// first failure whole and each later one as its first line. pplab reads the result
// channel, not this output, and `pplab test NN` still shows every report.
struct FirstReportReporter : ConsoleOnce {
  explicit FirstReportReporter(const doctest::ContextOptions& options) : ConsoleOnce(options) {}
  int failures = 0;
  void test_case_start(const doctest::TestCaseData& data) override {
    failures = 0;
    ConsoleReporter::test_case_start(data);
  }
  void log_message(const doctest::MessageData& data) override {
    const bool failure = data.m_severity & (doctest::assertType::is_check | doctest::assertType::is_require);
    if (!failure || failures++ == 0) return ConsoleOnce::log_message(data);
    // "check failed: <the check>" and the size/seed/schedule line under it.
    const std::string text = data.m_string.c_str();
    const std::size_t first = text.find('\n'), second = text.find('\n', first + 1);
    std::string line = text.substr(0, first);
    if (first != std::string::npos && text.compare(first + 1, 7, "  size ") == 0)
      line += "; " + text.substr(first + 3, second - first - 3);
    s << "  and: " << line << "\n";
  }
  void test_case_end(const doctest::CurrentTestCaseStats& stats) override {
    if (failures > 1)
      s << "  (" << failures - 1 << " more failures in this test case, each shown by its first line; "
        << "PPLAB_REPORTS=all, or pplab test, prints every report)\n";
    ConsoleOnce::test_case_end(stats);
  }
};
}  // namespace

REGISTER_REPORTER("pplab_console", 1, ConsoleOnce);
REGISTER_REPORTER("pplab_first", 1, FirstReportReporter);

int main(int argc, char** argv) {
  // Take --seed=<n> for ourselves; pass everything else to doctest.
  std::vector<char*> doctest_args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--seed=", 7) == 0) {
      try {
        pplab::set_run_seed(pplab::parse_seed(argv[i] + 7, "--seed"));
      } catch (const std::invalid_argument& error) {
        std::cerr << "error: " << error.what() << "\n";
        return 2;
      }
      continue;
    }
    doctest_args.push_back(argv[i]);
  }
  static char first_reports[] = "--reporters=pplab_first", console[] = "--reporters=pplab_console";
  const char* reports = std::getenv("PPLAB_REPORTS");
  bool reporter_chosen = false;
  for (char* arg : doctest_args) reporter_chosen |= std::strstr(arg, "-reporters=") || std::strstr(arg, "-r=");
  if (!reporter_chosen) doctest_args.push_back(reports && std::strcmp(reports, "first") == 0 ? first_reports : console);
  doctest::Context context(static_cast<int>(doctest_args.size()), doctest_args.data());
  int status = 0;
  try {
    status = context.run();
  } catch (const std::exception& error) {
    std::cerr << "error: " << error.what() << "\n";
    status = 1;
  }
  pplab::channel::send(nlohmann::json{{"type", "end"},
                                      {"status", status},
                                      {"cases", g_listener ? g_listener->cases_ended : -1}}
                           .dump());
  return status;
}
