// The step: line under an emulator fault names the one TODO region that holds the
// report's line (pplab/todo_regions.h, name_fault_step).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <string>

#include "pplab/todo_regions.h"

namespace {

using pplab::detail::name_fault_step;

const std::string kNote = std::string("  while: saxpy, n = 12\n") + pplab::detail::kFaultStepLead +
                          " (saxpy.cu: 01.1 lines 14-19, 01.2 (stretch) lines 23-46, 01.3 (stretch) lines 54-66)\n"
                          "  reproduce: PPLAB_SEED=1 ./lab01 --test-case=\"x\"\n";

std::string step_of(const std::string& note) {
  const auto at = note.find("  step: ");
  return note.substr(at, note.find('\n', at) - at);
}

}  // namespace

TEST_CASE("the faulting line picks its region, not the launch site before it") {
  const std::string report =
      "out-of-bounds read in kernel 'saxpy_vec4_kernel' (launched at /home/s/labs/01_saxpy/saxpy.cu:63), block (0,0,0)\n"
      "  faulting source line: /home/s/labs/01_saxpy/saxpy.cu:44 (from the program counter, via addr2line)";
  const std::string named = name_fault_step(report, kNote);
  CHECK(step_of(named) == "  step: TODO(01.2) (stretch), saxpy.cu lines 23-46, holds line 44 named above");
  CHECK(named.find("  while: saxpy, n = 12\n") == 0);
  CHECK(named.find("  reproduce: PPLAB_SEED=1") != std::string::npos);
}

TEST_CASE("a main step is named without (stretch)") {
  const std::string report = "threads (0,0,0)..(3,0,0) wait at __syncthreads() at /x/saxpy.cu:17";
  CHECK(step_of(name_fault_step(report, kNote)) == "  step: TODO(01.1), saxpy.cu lines 14-19, holds line 17 named above");
}

TEST_CASE("where a __shared__ array is declared is not the faulting line") {
  const std::string report = "shared memory out of bounds\n  that is past the end of __shared__ tile (declared at "
                             "/x/saxpy.cu:50)\n  reads 4 bytes at tile[8] at /x/saxpy.cu:30";
  CHECK(step_of(name_fault_step(report, kNote)).rfind("  step: TODO(01.2) (stretch)", 0) == 0);
}

TEST_CASE("a line outside every region is said to be given code") {
  const std::string report = "faulting source line: /x/saxpy.cu:50";
  CHECK(step_of(name_fault_step(report, kNote)) ==
        "  step: line 50 named above is given code, outside every TODO (saxpy.cu: 01.1 lines 14-19, 01.2 (stretch) "
        "lines 23-46, 01.3 (stretch) lines 54-66): look at what the step that calls it passes it");
}

TEST_CASE("a report naming no line of the file, or a note without regions, is left as it was") {
  CHECK(name_fault_step("faulting source line: /x/other.cu:17", kNote) == kNote);
  CHECK(name_fault_step("faulting source line: /x/mysaxpy.cu:17", kNote) == kNote);  // not the file's own name
  const std::string bare = std::string(pplab::detail::kFaultStepLead) + "\n";
  CHECK(name_fault_step("faulting source line: /x/saxpy.cu:17", bare) == bare);
  CHECK(name_fault_step("faulting source line: /x/saxpy.cu:17", "") == "");
}
