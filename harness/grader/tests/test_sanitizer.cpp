// run_sanitizer's reading of compute-sanitizer's output, with a stand-in for the tool:
// a script that runs the program and prints, after a chosen check's marker, the lines
// compute-sanitizer prints for a hazard, then its summary.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "sanitizer.h"

namespace fs = std::filesystem;
using pplab::cli::run_sanitizer;

namespace {

// A stand-in for compute-sanitizer: `fake --tool T --print-limit N program args...`.
// The "program" prints two check markers, the second naming the large-input size it was
// given; the fake reports a hazard in the second.
fs::path write_fake(const fs::path& dir, bool finish) {
  fs::create_directories(dir);
  const fs::path program = dir / "program";
  std::ofstream(program) << "#!/bin/sh\necho 'pplab: check: first check'\necho 'ok'\n"
                            "echo \"pplab: check: second check at $PPLAB_LARGE_N\"\n";
  const fs::path fake = dir / "compute-sanitizer";
  std::ofstream out(fake);
  out << "#!/bin/sh\n"
         "tool=$2; shift 4\n"
         "echo '========= COMPUTE-SANITIZER'\n"
         "\"$@\"\n"
         "echo '========= Error: Race reported between Write access at kernel+0x10 in a.cu:12'\n"
         "echo '=========     and Read access at kernel+0x20 in a.cu:13 [16 hazards]'\n";
  if (finish) out << "echo '========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)'\n";
  out.close();
  fs::permissions(program, fs::perms::owner_all);
  fs::permissions(fake, fs::perms::owner_all);
  return fake;
}

}  // namespace

TEST_CASE("sanitizer: a hazard is attributed to the check that was running, with the tool's first lines") {
  const fs::path dir = fs::temp_directory_path() / "pplab-sanitizer-test-a";
  const fs::path fake = write_fake(dir, true);
  const auto result = run_sanitizer(fake, dir / "program", {"racecheck"}, {}, 4096, std::chrono::seconds(30), dir);
  REQUIRE(result.findings.size() == 1);
  CHECK(result.findings[0].tool == "racecheck");
  CHECK(result.findings[0].check == "second check at 4096");  // the lab's size under the tools
  CHECK(result.findings[0].first_lines.find("Race reported between Write access") != std::string::npos);
  CHECK(result.findings[0].first_lines.find("a.cu:13") != std::string::npos);
  CHECK(result.problems.empty());
}

TEST_CASE("sanitizer: a tool that does not finish is a problem, never a clean run") {
  const fs::path dir = fs::temp_directory_path() / "pplab-sanitizer-test-b";
  const fs::path fake = write_fake(dir, false);
  const auto result = run_sanitizer(fake, dir / "program", {"racecheck"}, {}, 65536, std::chrono::seconds(30), dir);
  REQUIRE(result.problems.size() == 1);
  CHECK(result.problems[0].find("did not finish") != std::string::npos);
}

TEST_CASE("sanitizer: racecheck spread over processes runs every check once and attributes each hazard to its check") {
  const fs::path dir = fs::temp_directory_path() / "pplab-sanitizer-test-c";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // The program runs the checks of doctest's 1-based range (--first, --last) of three, the
  // second and third racy, and notes each range it was given.
  const fs::path program = dir / "program";
  std::ofstream(program) << "#!/bin/sh\nfirst=1; last=3\n"
                            "for a in \"$@\"; do case $a in --first=*) first=${a#--first=};; "
                            "--last=*) last=${a#--last=};; esac; done\n"
                            "echo \"$first-$last\" >> \"$(dirname \"$0\")/ranges\"\n"
                            "i=$first; while [ $i -le $last ]; do echo \"pplab: check: check $i\"\n"
                            "  [ $i -ge 2 ] && echo '========= Error: Race reported between Write access in a.cu:12'\n"
                            "  i=$((i + 1)); done\n";
  const fs::path fake = dir / "compute-sanitizer";
  std::ofstream(fake) << "#!/bin/sh\nshift 4\n\"$@\"\necho '========= RACECHECK SUMMARY: done'\n";
  fs::permissions(program, fs::perms::owner_all);
  fs::permissions(fake, fs::perms::owner_all);

  const auto result = run_sanitizer(fake, program, {"racecheck"}, {}, 4096, std::chrono::seconds(30), dir, {},
                                    pplab::cli::SanitizerSpread{3, 2});
  CHECK(result.problems.empty());
  REQUIRE(result.findings.size() == 2);
  std::vector<std::string> racy;
  for (const auto& finding : result.findings) racy.push_back(finding.check);
  std::sort(racy.begin(), racy.end());
  CHECK(racy == std::vector<std::string>{"check 2", "check 3"});
  std::ifstream ranges_file(dir / "ranges");
  std::vector<std::string> ranges;
  for (std::string line; std::getline(ranges_file, line);) ranges.push_back(line);
  std::sort(ranges.begin(), ranges.end());
  // One process a check; the last one runs every check from its first on.
  CHECK(ranges == std::vector<std::string>{"1-1", "2-2", "3-3"});
}

TEST_CASE("sanitizer: without a spread racecheck is one process over every check") {
  const fs::path dir = fs::temp_directory_path() / "pplab-sanitizer-test-d";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path program = dir / "program";
  std::ofstream(program) << "#!/bin/sh\necho \"$*\" >> \"$(dirname \"$0\")/arguments\"\n";
  const fs::path fake = dir / "compute-sanitizer";
  std::ofstream(fake) << "#!/bin/sh\nshift 4\n\"$@\"\necho '========= RACECHECK SUMMARY: done'\n";
  fs::permissions(program, fs::perms::owner_all);
  fs::permissions(fake, fs::perms::owner_all);
  const auto result = run_sanitizer(fake, program, {"memcheck", "racecheck"}, {}, 4096, std::chrono::seconds(30), dir,
                                    {}, pplab::cli::SanitizerSpread{5, 1});
  CHECK(result.problems.empty());
  std::ifstream arguments(dir / "arguments");
  std::vector<std::string> lines;
  for (std::string line; std::getline(arguments, line);) lines.push_back(line);
  CHECK(lines == std::vector<std::string>{"--no-version=true", "--no-version=true"});
}
