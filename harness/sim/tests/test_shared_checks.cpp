// Checked shared memory: each report of programs/shared_checks.cu and
// programs/namespace_shared.cu, with its exact threads, array, index and lines (data
// races, reads of unwritten memory, accesses out of bounds), the race-free patterns that
// must report nothing under every schedule, and PPLAB_SIM_CHECK, which turns the checks
// off. Each case is a run of its program as a subprocess, since an error ends it.
#include <doctest/doctest.h>

#include <initializer_list>
#include <string>

#include "test_support.h"

using namespace simtest::support;

namespace {
// The test programs with many cases, one a run (programs/shared_checks.cu, namespace_shared.cu).
const char* const kSharedChecks = "pplab_sim_prog_shared_checks";
const char* const kNamespaceShared = "pplab_sim_prog_namespace_shared";

// One case of a test program (its argument `which`), checked shared memory on, under `schedule`.
RunResult checked_run(const char* name, const std::string& which, const char* schedule) {
  return run(std::string("PPLAB_SIM_CHECK=on PPLAB_SIM_SCHEDULE=") + schedule + " " + program(name) + " " + which);
}

// A case the checks must stop before it finishes (status 1); returns the report.
std::string failing_case(const char* name, const std::string& which, const char* schedule = "forward") {
  auto r = checked_run(name, which, schedule);
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK(!contains(r.output, "finished"));
  return r.output;
}

// A case that must finish under every one of `schedules`, printing `finished`, with no report.
void expect_clean(const char* name, const std::string& which, const char* finished,
                  std::initializer_list<const char*> schedules) {
  for (const char* schedule : schedules) {
    auto r = checked_run(name, which, schedule);
    INFO(schedule, r.output);
    CHECK(r.status == 0);
    CHECK(contains(r.output, finished));
    CHECK(!contains(r.output, "pplab-sim: error"));
  }
}
}  // namespace

TEST_CASE("a tree reduction without its barrier is a data race naming both threads, lines and the barrier") {
  // Forward order: thread 0 runs the whole loop first, then thread 1 overwrites a
  // value thread 0 read. Reverse: lane 31 reads what thread 63 of the next warp wrote.
  std::string out = failing_case(kSharedChecks, "tree");
  expect_contains(out, {"pplab-sim: error: data race on shared memory in kernel 'tree_no_barrier'",
                        "kernel 'tree_no_barrier' (launched at",
                        "block (0,0,0):\n",
                        "in __shared__ partial (128 elements of 4 bytes, declared at",
                        "shared_checks.cu:10)",
                        "thread (1,0,0) (warp 0, lane 1) writes partial[1] at",
                        "thread (0,0,0) (warp 0, lane 0) read it at",
                        "shared_checks.cu:14 since the last __syncthreads()",
                        "they need a __syncthreads() between them (a __syncwarp() would order only these two lanes"});
  out = failing_case(kSharedChecks, "tree", "reverse");
  expect_contains(out, {"thread (31,0,0) (warp 0, lane 31) reads partial[63] at",
                        "thread (63,0,0) (warp 1, lane 31) wrote it at",
                        "the threads are in different warps and need a __syncthreads() between them"});
}

TEST_CASE("warp ping-pong buffers without __syncwarp are a data race between the read and the write line") {
  std::string out = failing_case(kSharedChecks, "warp");
  expect_contains(out, {"data race on shared memory in kernel 'warp_no_syncwarp'",
                        "thread (1,0,0) (warp 0, lane 1) writes buffers[33] at",
                        "shared_checks.cu:27\n",
                        "thread (0,0,0) (warp 0, lane 0) read it at",
                        "shared_checks.cu:26 since",
                        "the lanes need a __syncthreads() (or, in a block of one warp, a __syncwarp()) between them"});
}

TEST_CASE("a race through a device function's volatile pointer into a cast array is found") {
  std::string out = failing_case(kSharedChecks, "pointer");
  expect_contains(out, {"data race on shared memory in kernel 'race_through_pointer'",
                        "__shared__ raw (64 elements of 4 bytes",
                        "writes raw[1] at",
                        "shared_checks.cu:33"});
}

namespace {
// A case that must finish despite its warnings (status 0, no error); returns the output.
std::string finishing_case(const char* name, const std::string& which) {
  auto r = checked_run(name, which, "forward");
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(contains(r.output, which + " finished: "));
  CHECK(!contains(r.output, "pplab-sim: error"));
  return r.output;
}

int count_of(const std::string& haystack, const std::string& needle) {
  int n = 0;
  for (auto at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("a shared read no thread of the block wrote is a warning, in the second block too, and gives the poison") {
  std::string out = finishing_case(kSharedChecks, "uninit");
  expect_contains(out, {"pplab-sim: warning: uninitialised shared read in kernel 'uninit_static'",
                        "block (1,0,0), thread (0,0,0)",
                        "reads slots[31] at",
                        "shared_checks.cu:49\n",
                        "in __shared__ slots (32 elements of 4 bytes, declared at",
                        "shared_checks.cu:46)",
                        "the kernel goes on, and the read gives the emulator's poison",
                        // block 1's thread 0 stored what it read: the poison, -1
                        "uninit finished: -1\n"});
  out = finishing_case(kSharedChecks, "uninit_dynamic");
  expect_contains(out, {"pplab-sim: warning: uninitialised shared read in kernel 'uninit_dynamic'",
                        "reads byte 128 of the dynamic shared memory at",
                        "shared_checks.cu:56\n",
                        "(extern __shared__, 256 bytes in this launch)",
                        "uninit_dynamic finished: -1\n"});
}

TEST_CASE("a harmless uninitialised shared read is warned about once per line and the kernel finishes right") {
  // Eight blocks, thirty lanes each reading an unwritten slot at one line.
  const std::string out = finishing_case(kSharedChecks, "harmless_uninit");
  INFO(out);
  CHECK(count_of(out, "pplab-sim: warning: uninitialised shared read") == 1);
  expect_contains(out, {"uninitialised shared read in kernel 'harmless_uninit'", "reads sums[2] at",
                        "shared_checks.cu:170\n", "reported once per line", "harmless_uninit finished: 2\n"});
}

TEST_CASE("an index read from unwritten shared memory that runs out of bounds is reported with the warning") {
  auto r = checked_run(kSharedChecks, "index_from_uninit", "forward");
  expect_run(r, Exit::with_error,
             {"pplab-sim: warning: uninitialised shared read in kernel 'index_from_uninit'", "reads where[0] at",
              "shared_checks.cu:186\n",
              "pplab-sim: error: shared memory out of bounds in kernel 'index_from_uninit'",
              "reads 4 bytes at tile[-1] at", "that is before the start of __shared__ tile",
              "a thread read uninitialised shared memory (the warning above): that value may be what put the index "
              "out of range"});
  CHECK(!contains(r.output, "index_from_uninit finished"));
}

TEST_CASE("a write after many threads read one word in an interval is a race with a reader on record") {
  // Forward: threads 0 and 1 are the readers on record, 2 to 39 read through the
  // fast path, thread 40 reads and then writes. Reverse: 63 and 62 are on record.
  std::string out = failing_case(kSharedChecks, "many_readers");
  expect_contains(out, {"data race on shared memory in kernel 'many_readers_then_write'",
                        "thread (40,0,0) (warp 1, lane 8) writes tile[0] at", "shared_checks.cu:196\n",
                        "thread (0,0,0) (warp 0, lane 0) read it at", "shared_checks.cu:195 since"});
  out = failing_case(kSharedChecks, "many_readers", "reverse");
  expect_contains(out, {"thread (40,0,0) (warp 1, lane 8) writes tile[0] at",
                        "thread (63,0,0) (warp 1, lane 31) read it at"});
}

TEST_CASE("a read that runs ahead of another thread's write is reported as the race it is") {
  // In forward order threads 0..3 read tile[7..4] before their owners wrote them;
  // thread 4's write is the first to meet such a read. Without the later write it
  // would be an uninitialised read.
  std::string out = failing_case(kSharedChecks, "reverse");
  expect_contains(out, {"data race on shared memory in kernel 'reverse_no_barrier'",
                        "thread (4,0,0) (warp 0, lane 4) writes tile[4] at",
                        "shared_checks.cu:128\n",
                        "thread (3,0,0) (warp 0, lane 3) read it at",
                        "shared_checks.cu:129 since"});
  CHECK(!contains(out, "uninitialised"));
}

TEST_CASE("shared accesses past the end, before the start and past the dynamic size name array, index and line") {
  std::string out = failing_case(kSharedChecks, "past_end");
  expect_contains(out, {"pplab-sim: error: shared memory out of bounds in kernel 'past_end'",
                        "thread (31,0,0)",
                        "reads 4 bytes at tile[32] at",
                        "shared_checks.cu:65\n",
                        "that is past the end of __shared__ tile (32 elements of 4 bytes"});
  out = failing_case(kSharedChecks, "before_start");
  expect_contains(out, {"reads 4 bytes at second[-17] at",
                        "shared_checks.cu:72\n",
                        "that is before the start of __shared__ second (16 elements"});
  out = failing_case(kSharedChecks, "past_dynamic");
  expect_contains(out, {"thread (16,0,0)",
                        "writes 1 byte at byte 64 of the dynamic shared memory at",
                        "shared_checks.cu:76\n",
                        "past the end of the dynamic shared memory (extern __shared__, 64 bytes in this launch)"});
}

TEST_CASE("shared atomics, barrier trees, __syncwarp double buffers, shuffles and a volatile flag report nothing") {
  expect_clean(kSharedChecks, "clean", "clean finished: 515",
               {"forward", "reverse", "random:1", "random:2"});
}

TEST_CASE("single bytes of shared words are checked per byte: their own bytes never race, a neighbour's does") {
  expect_clean(kSharedChecks, "bytes", "bytes finished: 192", {"forward", "reverse", "random:1"});
  // Forward: thread 0 writes flags[0] (line 155), thread 1 reads it (line 156);
  // threads 0 to 3 writing the four bytes of one word is no race.
  std::string out = failing_case(kSharedChecks, "byte_race");
  expect_contains(out, {"data race on shared memory in kernel 'byte_race'",
                        "thread (1,0,0) (warp 0, lane 1) reads flags[0] at",
                        "shared_checks.cu:156\n",
                        "thread (0,0,0) (warp 0, lane 0) wrote it at",
                        "shared_checks.cu:155 since the last __syncthreads()"});
}

TEST_CASE("a namespace-scope __shared__ array is checked: a race with both lines") {
  // Forward order: thread 0 writes sums[0] (line 15), thread 31 reads it (line 16).
  std::string out = failing_case(kNamespaceShared, "race");
  expect_contains(out, {"pplab-sim: error: data race on shared memory in kernel 'race_on_namespace_array'",
                        "thread (31,0,0) (warp 0, lane 31) reads sums[0] at",
                        "namespace_shared.cu:16\n",
                        "thread (0,0,0) (warp 0, lane 0) wrote it at",
                        "namespace_shared.cu:15 since the last __syncthreads()",
                        "in __shared__ sums (64 elements of 4 bytes, declared at",
                        "namespace_shared.cu:8)"});
  // Under every order: the two accesses share one barrier interval whatever runs first.
  for (const char* schedule : {"reverse", "random:1"}) {
    std::string o = failing_case(kNamespaceShared, "race", schedule);
    CHECK(contains(o, "data race on shared memory in kernel 'race_on_namespace_array'"));
  }
}

TEST_CASE("a namespace-scope __shared__ array is checked: out of bounds, and unwritten (a warning) in every block") {
  std::string out = failing_case(kNamespaceShared, "past_end");
  expect_contains(out, {"pplab-sim: error: shared memory out of bounds in kernel 'past_end_of_namespace_array'",
                        "thread (31,0,0) (warp 0, lane 31):\n",
                        "reads 4 bytes at tile[32] at",
                        "namespace_shared.cu:23\n",
                        "that is past the end of __shared__ tile (32 elements of 4 bytes, declared at",
                        "namespace_shared.cu:10)"});
  // Block 0 wrote spare[]; block 1 did not, and reads it (a warning: the run goes on).
  out = finishing_case(kNamespaceShared, "uninit");
  expect_contains(out, {"pplab-sim: warning: uninitialised shared read in kernel 'uninit_namespace_array'",
                        "block (1,0,0), thread (0,0,0)",
                        "reads spare[7] at",
                        "namespace_shared.cu:30\n"});
}

TEST_CASE("a barrier tree over a namespace-scope __shared__ array in many blocks reports nothing") {
  expect_clean(kNamespaceShared, "clean", "clean finished: 323200",  // 64 * (1 + 2 + ... + 100)
               {"forward", "reverse", "random:1"});
}

TEST_CASE("PPLAB_SIM_CHECK=off turns the shared-memory checks off, and a bad value is an error") {
  expect_run(run("PPLAB_SIM_CHECK=off " + program("pplab_sim_prog_shared_checks") + " tree"), Exit::cleanly,
             {"tree finished"});
  const auto r = run("PPLAB_SIM_CHECK=maybe " + program("pplab_sim_prog_shared_checks") + " clean");
  CHECK(r.status == 1);
  CHECK(contains(r.output, "pplab-sim: error: PPLAB_SIM_CHECK='maybe' is not on or off (or 1 or 0)"));
}
