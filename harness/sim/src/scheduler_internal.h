// What the scheduler's files share (not installed for user code): the schedule
// setting, the fiber switch, and the calls between a block's rounds (scheduler.cpp),
// its warp operations (warps.cpp), its reports (block_reports.cpp), the start of its
// threads (block_runner.cpp) and the worker pool (worker_pool.cpp). The switch is
// defined here, inline, because it is the sim's inner loop and both the rounds and
// the start of a block make it.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>

#include "internal.h"

namespace pplab::sim::detail {

// ---------------------------------------------------------------- schedules ----
// schedule.cpp: the order a block's runnable threads run in (pplab::sim::set_schedule,
// else PPLAB_SIM_SCHEDULE), read by every round.
struct ScheduleState {
  std::atomic<int> kind{-1};  // -1: not read from the environment yet
  std::atomic<unsigned> seed{0};
};
extern ScheduleState g_schedule;
void load_schedule_from_env();

// The random schedule's generator, seeded for each block from the schedule's seed.
inline std::uint64_t splitmix(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// ----------------------------------------------------------------- fibers -----
// Every barrier costs each thread one switch, so the switch is the sim's inner
// loop. Fibers switch straight to one another (no trip through a scheduler
// context). On x86-64 the switch is a few inlined instructions (pplab/sim/fiber.h);
// Boost's
// jump_fcontext is a call that returns on another stack, which leaves the
// return stack one entry off after every switch (a mispredicted ret per switch),
// saves the callee-saved registers its caller has often saved already, and
// reloads the x87/SSE control words, which no fiber changes. Other architectures
// use Boost.Context as is.
#if PPLAB_SIM_INLINE_SWITCH
inline void switch_to(Ctx target, Ctx* save) { switch_fiber(target, save); }  // pplab/sim/fiber.h
#else
inline void switch_to(Ctx target, Ctx* save) {
  bc::transfer_t t = bc::jump_fcontext(static_cast<bc::fcontext_t>(target), save);
  // Whoever resumed us passed the slot where its own context belongs.
  *static_cast<Ctx*>(t.data) = t.fctx;
}
#endif

// scheduler.cpp: the body of every fiber: it runs the block's threads, one after
// another, until the block ends (a fiber starts in it, block_runner.cpp).
void fiber_loop();
// scheduler.cpp: order[] for the next round, the runnable and unstarted threads in the
// schedule's order.
void build_order(Worker& w);

// warps.cpp
const char* warp_op_name(WarpOp op);  // "__shfl_sync"
// Releases the warp groups whose lanes have all arrived; returns how many threads it
// released (see there).
int resolve_warps(Worker& w, bool diagnose);

// block_reports.cpp
std::string where(const Worker& w, int i);  // "waits at __syncthreads() at f.cu:6"
// Ends the process with a report of a __syncthreads() that cannot complete: `what`,
// then where each of the block's threads is.
[[noreturn]] void barrier_problem(Worker& w, const char* what);

// block_runner.cpp
Worker& this_worker(int index);  // this OS thread's worker, made on first use
// Runs blocks of launch d on worker w, taking their numbers from `next`, until
// nblocks have been taken (or a failed assert ends the launch).
void run_blocks(Worker& w, const LaunchDesc& d, std::atomic<long long>& next, long long nblocks);

}  // namespace pplab::sim::detail
