// The sim's own test suite (`ctest -L sim`), one file a topic: test_kernels.cpp,
// test_scheduling.cpp, test_warps.cpp, test_shared_checks.cpp, test_faults.cpp,
// test_runtime.cpp, test_settings.cpp and test_simcc.cpp. Each construct is checked
// against known (CUDA) results, under each schedule, and each diagnostic is run as a
// subprocess (they end the process). This file holds doctest's main and the helpers
// the test files share (test_support.h).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdio>
#include <initializer_list>
#include <string>
#include <vector>

#include "test_support.h"

namespace simtest::support {
RunResult run(const std::string& command) {
  RunResult r;
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return r;
}

std::string program(const char* name) { return std::string(PPLAB_SIM_TEST_BIN_DIR) + "/" + name; }

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

void expect_contains(const std::string& output, std::initializer_list<std::string> texts) {
  for (const std::string& text : texts) {
    INFO("expected in the output: " << text);
    CHECK(contains(output, text));
  }
}

void expect_values(const std::vector<int>& got, std::initializer_list<int> want) {
  REQUIRE(got.size() >= want.size());
  std::size_t i = 0;
  for (int value : want) {
    INFO("result " << i);
    CHECK(got[i++] == value);
  }
}

RunResult expect_run(RunResult r, Exit exit, std::initializer_list<std::string> texts) {
  INFO(r.output);
  if (exit == Exit::cleanly) {
    CHECK(r.status == 0);
  } else {
    CHECK(r.status != 0);
  }
  expect_contains(r.output, texts);
  return r;
}

RunResult simcc_run(const std::string& name, const std::string& env) {
  std::string dir = PPLAB_SIM_TEST_TMP_DIR;
  std::string src = std::string(PPLAB_SIM_TEST_SRC_DIR) + "/programs/nvcc_like/" + name + ".cu";
  RunResult built = run(std::string(PPLAB_SIM_SIMCC) + " -O2 -arch=sm_90 " + src + " -o " + dir + "/nvcc_like_" + name);
  if (built.status != 0) return built;
  return run(env + dir + "/nvcc_like_" + name);
}
}  // namespace simtest::support
