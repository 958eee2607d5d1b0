// run_process's output cap: a child that prints more than max_output keeps the end of
// what it printed, and the result says the beginning was dropped, so that a reader of a
// long listing (ninja -t deps, say) never takes a cut listing for a whole one.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "process.h"

using pplab::cli::run_process;

TEST_CASE("process: output past the cap keeps its end and is marked as cut") {
  const auto result = run_process({"sh", "-c", "seq 1 100000"}, {}, std::chrono::seconds(30), 1000);
  REQUIRE(result.succeeded());
  CHECK(result.output_cut);
  CHECK(result.output.size() == 1000);
  CHECK(result.output.find("100000\n") != std::string::npos);  // the last line is kept
  CHECK(result.output.find("\n1\n") == std::string::npos);
}

TEST_CASE("process: output under the cap is whole and not marked") {
  const auto result = run_process({"sh", "-c", "seq 1 10"}, {}, std::chrono::seconds(30), 1000);
  REQUIRE(result.succeeded());
  CHECK_FALSE(result.output_cut);
  CHECK(result.output == "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n");
}
