// pplab test [LAB]: run a lab's checks (or every lab's), one test case per process,
// and print a table: checks passed and failed, and the first problem of each lab.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "pplab/seed.h"

#include "commands.h"
#include "lab_checks.h"
#include "workbook.h"

namespace pplab::cli {
namespace {

struct TestOptions {
  std::string lab;
  bool reference = false;
  std::string seed;
  int case_limit = 300;
  bool quiet = false;
  std::string binary;              ///< a check binary to run instead of the lab's own
  std::vector<std::string> cases;  ///< only these test cases (default: every one)
  std::string json;                ///< also write every verdict here
};

// Every verdict as JSON: {"backend", "labs": [{"lab", "error", "cases": [{"name",
// "verdict", "reason", "detail", "seconds"}]}]}. Used by the grader's own tests.
void write_json(const std::string& path, const std::string& backend, const std::vector<LabResult>& results) {
  nlohmann::json labs = nlohmann::json::array();
  for (const auto& result : results) {
    nlohmann::json cases = nlohmann::json::array();
    for (const auto& c : result.cases)
      cases.push_back({{"name", c.name}, {"verdict", verdict_name(c.verdict)}, {"reason", c.reason},
                       {"detail", c.detail}, {"seconds", c.seconds}});
    labs.push_back({{"lab", result.lab}, {"error", result.error}, {"cases", cases}});
  }
  std::ofstream file(path);
  file << nlohmann::json{{"backend", backend}, {"labs", labs}}.dump(2, ' ', false,
                                                                   nlohmann::json::error_handler_t::replace)
       << "\n";
  if (!file) throw std::runtime_error("could not write " + path);
}

// What to do next for a failed check: the TODO its report names ("TODO 02.2: the tree"),
// else its verdict and name.
std::string next_step(const CaseResult& c) {
  const std::string text = c.detail.empty() ? c.output : c.detail;
  const auto step = text.find("step: TODO(");
  if (c.verdict == CaseResult::Verdict::wrong_answer && step != std::string::npos) {
    const auto end = text.find('\n', step);
    return "fill in " + text.substr(step + 6, (end == std::string::npos ? text.size() : end) - step - 6);
  }
  return verdict_name(c.verdict) + ": " + c.name;
}

void print_failure_details(const LabResult& result) {
  for (const auto& c : result.cases) {
    if (!c.failed()) continue;
    std::cout << "\n--- " << result.lab << ": " << c.name << " [" << verdict_name(c.verdict) << "]\n";
    std::cout << c.output;
    if (!c.output.empty() && c.output.back() != '\n') std::cout << "\n";
  }
}

int run_test(const TestOptions& options) {
  const Workbook workbook = discover_workbook();
  auto labs = select_labs(workbook, options.lab);
  if (options.case_limit < 1) throw std::invalid_argument("--case-limit must be at least 1 second");
  if (!options.binary.empty()) {
    // One binary built elsewhere (e.g. a known-wrong solution): judged like the lab's own.
    if (!std::filesystem::is_regular_file(options.binary))
      throw std::invalid_argument("--binary: no file " + options.binary);
    if (options.lab.empty()) throw std::invalid_argument("--binary needs the LAB it checks, e.g. pplab test 02 --binary ...");
    labs.front().student_checks = labs.front().reference_checks = std::filesystem::absolute(options.binary);
  }
  CheckOptions check_options;
  if (!options.seed.empty()) check_options.environment["PPLAB_SEED"] = std::to_string(parse_seed(options.seed, "--seed"));
  check_options.case_limit = std::chrono::seconds(options.case_limit);
  // As in pplab grade: with a short limit the emulator's watchdog names a hung kernel first.
  if (options.case_limit <= 60)
    check_options.environment["PPLAB_SIM_TIMEOUT"] = std::to_string(std::max(1, options.case_limit * 3 / 4));
  check_options.cases = options.cases;
  // On a GPU a check's processes take seconds to start: the passing ones share them.
  check_options.shared_processes = workbook.backend == "gpu";
  const bool tty = isatty(STDERR_FILENO);

  std::vector<LabResult> results;
  for (const Lab& lab : labs) {
    // Prefer what the user asked for; a solutions-only build has only the reference.
    auto binary = options.reference ? lab.reference_checks : lab.student_checks;
    if (binary.empty()) binary = options.reference ? lab.student_checks : lab.reference_checks;
    if (binary.empty()) {
      LabResult missing;
      missing.lab = lab.folder;
      missing.error = "not built in " + workbook.build_dir.string();
      results.push_back(missing);
      continue;
    }
    check_options.kernel_file = binary == lab.reference_checks && !lab.reference_file.empty() ? lab.reference_file
                                                                                                 : lab.student_file;
    check_options.on_case = [&](std::size_t i, std::size_t count, const std::string& name) {
      std::fprintf(stderr, "%s[%s] %zu/%zu %s%s", tty ? "\r\033[K" : "", lab.folder.c_str(), i + 1,
                   count, name.c_str(), tty ? "" : "\n");
    };
    results.push_back(run_lab_checks(lab.folder, binary, check_options));
    if (tty) std::fprintf(stderr, "\r\033[K");
  }

  bool all_passed = true;
  if (!options.quiet)
    for (const auto& result : results) print_failure_details(result);
  // A skipped check (a stretch step not written) is not counted as passed: the lab is done
  // when every check that ran passed.
  std::printf("\n%-24s %7s %7s %7s  %s\n", "lab", "checks", "passed", "skipped", "next");
  std::string first_failing;
  for (const auto& result : results) {
    std::string next = result.error;
    for (const auto& c : result.cases)
      if (next.empty() && c.failed()) next = next_step(c);
    const bool ok = result.error.empty() && result.failed() == 0 && result.passed() > 0;
    all_passed = all_passed && ok;
    if (result.cases.empty() && next.empty()) next = "no checks found";
    if (ok) next = "done";
    if (!ok && first_failing.empty()) first_failing = result.lab.substr(0, 2);
    std::printf("%-24s %7zu %7d %7d  %s\n", result.lab.c_str(), result.cases.size(), result.passed(),
                result.skipped(), next.substr(0, 100).c_str());
  }
  std::printf("\n%s backend; seed %s\n", workbook.backend.c_str(),
              options.seed.empty() ? ("default (PPLAB_SEED or " + std::to_string(kDefaultSeed) + ")").c_str()
                                   : options.seed.c_str());
  if (options.quiet && !first_failing.empty())
    std::printf("every failure of a lab, in full: %s test %s\n", (workbook.bin_dir / "pplab").c_str(),
                first_failing.c_str());
  if (!options.json.empty()) write_json(options.json, workbook.backend, results);
  return all_passed ? 0 : 1;
}

}  // namespace

void add_test_command(CLI::App& app) {
  auto [command, options] = add_lab_command<TestOptions>(
      app, "test", "Run the checks of one lab (or all) and print a table", "check", run_test);
  command->add_option("--seed", options->seed, "Seed for the random inputs (default: PPLAB_SEED)");
  command->add_option("--case-limit", options->case_limit, "Seconds each test case may run")->capture_default_str();
  command->add_flag("-q,--quiet", options->quiet, "Only the table, not each failure's report");
  command->add_option("--binary", options->binary, "Judge this check binary instead of the lab's own (needs LAB)");
  command->add_option("--case", options->cases, "Run only this test case (exact name; repeatable)");
  command->add_option("--json", options->json, "Also write every verdict to this JSON file");
}

}  // namespace pplab::cli
