// The order threads run in, and barriers: a correct kernel gives the same result under
// every schedule (forward, reverse, random) and a kernel missing a barrier does not;
// the __syncthreads reductions; and what goes wrong at a barrier, each reported by a
// test program run as a subprocess: divergence, two different barriers, lanes split
// between a warp operation and a barrier, a spin-wait ended by the watchdog. Also
// PPLAB_SIM_SCHEDULE, which chooses the schedule of a run.
#include <doctest/doctest.h>

#include <string>

#include "kernels.h"
#include "test_support.h"

using namespace simtest::support;

using pplab::sim::Schedule;

namespace {
// Gives back the schedule a test case changed, so that the schedule of the run (which
// PPLAB_SIM_SCHEDULE may set for the labs around the suite) holds after it.
struct ScheduleGuard {
  Schedule saved = pplab::sim::schedule();
  unsigned seed = pplab::sim::schedule_seed();
  ~ScheduleGuard() { pplab::sim::set_schedule(saved, seed); }
};
}  // namespace

TEST_CASE("the seed dot product (TPB=8, SIZE=8) gives 52 under every schedule") {
  ScheduleGuard guard;
  for (Schedule s : {Schedule::forward, Schedule::reverse, Schedule::random}) {
    pplab::sim::set_schedule(s, 7);
    CHECK(simtest::seed_dot_product() == 52.0f);
  }
}

TEST_CASE("__syncthreads_count, _and and _or reduce the predicate over the block") {
  expect_values(simtest::syncthreads_preds(), {32, 1, 1, 0});  // count, and, or, and over a false lane
}

TEST_CASE("a reduction missing the barrier in its loop is wrong under at least one schedule") {
  // With checking on, the first race ends the process (tested below); the values
  // are what a run with PPLAB_SIM_CHECK=off sees.
  ScheduleGuard guard;
  struct CheckOff {
    CheckOff() { pplab::sim::set_shared_check(false); }
    ~CheckOff() { pplab::sim::set_shared_check(true); }
  } check_off;
  const int n = 4096;
  bool wrong_somewhere = false;
  for (Schedule s : {Schedule::forward, Schedule::reverse, Schedule::random}) {
    pplab::sim::set_schedule(s, 3);
    CHECK(simtest::reduction(true, n) == static_cast<float>(n));
    if (simtest::reduction(false, n) != static_cast<float>(n)) wrong_somewhere = true;
  }
  CHECK(wrong_somewhere);
}

TEST_CASE("threads that exit while others wait at __syncthreads are barrier divergence") {
  const auto r = expect_run(run(program("pplab_sim_prog_divergence")), Exit::with_error,
                            {"pplab-sim: error: barrier divergence",
                             "kernel 'early_exit'"});
  // Both blocks diverge; the worker that finds it first reports its block.
  CHECK((contains(r.output, "block (0,0,0)") || contains(r.output, "block (1,0,0)")));
  expect_contains(r.output, {"threads (0,0,0)..(15,0,0) [16 threads] wait at __syncthreads() at",
                             "divergence.cu:6",
                             "(16,0,0)..(63,0,0) [48 threads] have exited"});
}

TEST_CASE("threads waiting at two different __syncthreads calls are reported with both lines") {
  expect_run(run(program("pplab_sim_prog_two_barriers")), Exit::with_error,
             {"different __syncthreads() calls",
              "two_barriers.cu:6",
              "two_barriers.cu:8"});
}

TEST_CASE("lanes split between a warp op and a barrier are a deadlock naming both lines") {
  expect_run(run(program("pplab_sim_prog_warp_vs_barrier")), Exit::with_error,
             {"warp_vs_barrier.cu:7",
              "waits at __syncthreads() at",
              "warp_vs_barrier.cu:9"});
}

TEST_CASE("a spin-wait deadlock is ended by the watchdog after PPLAB_SIM_TIMEOUT") {
  // Thread 0 spins waiting for a later thread: under the forward order it never ends.
  const auto r = expect_run(run("PPLAB_SIM_SCHEDULE=forward PPLAB_SIM_TIMEOUT=1 " + program("pplab_sim_prog_spin")),
                            Exit::with_error,
                            {"pplab-sim: error: kernel 'spin'",
                             "still running after",
                             "thread (0,0,0)"});
  CHECK((contains(r.output, "now at /") && (contains(r.output, "spin.cu:10") || contains(r.output, "spin.cu:11"))));
}

TEST_CASE("device printf reaches stdout and the schedule comes from PPLAB_SIM_SCHEDULE") {
  expect_run(run("PPLAB_SIM_SCHEDULE=reverse " + program("pplab_sim_prog_hello")), Exit::cleanly,
             {"hello from block 1 thread 1 value 11",
              "device: NVIDIA H200 (pplab CPU emulator",
              "schedule: 1"});
  auto rnd = run("PPLAB_SIM_SCHEDULE=random:42 " + program("pplab_sim_prog_hello"));
  CHECK(contains(rnd.output, "schedule: 2"));
  auto bad = run("PPLAB_SIM_SCHEDULE=sideways " + program("pplab_sim_prog_hello"));
  CHECK(bad.status != 0);
  CHECK(contains(bad.output, "pplab-sim: error: PPLAB_SIM_SCHEDULE='sideways' is not one of"));
}
