// The schedule setting: the order in which a block's runnable threads run between
// rendezvous points (forward, reverse, or random from a seed). A kernel whose result
// depends on that order has a missing barrier or a race, and running the checks under
// another order shows it. A program sets it with pplab::sim::set_schedule; until then
// PPLAB_SIM_SCHEDULE gives it, read when the worker pool starts or a program asks.
#include <atomic>
#include <stdexcept>

#include "internal.h"
#include "pplab/sim/schedule_choice.h"
#include "scheduler_internal.h"

namespace pplab::sim::detail {

ScheduleState g_schedule;

void load_schedule_from_env() {
  if (g_schedule.kind.load(std::memory_order_acquire) >= 0) return;
  ScheduleChoice choice;
  try {
    choice = schedule_from_environment().value_or(ScheduleChoice{});
  } catch (const std::invalid_argument& error) {
    fatal(error.what());
  }
  int expected = -1;
  g_schedule.seed.store(choice.seed);
  g_schedule.kind.compare_exchange_strong(expected, static_cast<int>(choice.schedule));
}

}  // namespace pplab::sim::detail

namespace pplab::sim {
using namespace detail;

void set_schedule(Schedule s, unsigned seed) {
  g_schedule.seed.store(seed);
  g_schedule.kind.store(static_cast<int>(s));
}
Schedule schedule() {
  load_schedule_from_env();
  return static_cast<Schedule>(g_schedule.kind.load());
}
unsigned schedule_seed() {
  load_schedule_from_env();
  return g_schedule.seed.load();
}

}  // namespace pplab::sim
