#include "pplab/schedules.h"

#include <cuda_runtime.h>

#include <vector>

#include "pplab/inputs.h"
#ifdef PPLAB_SIM
#include "pplab/sim/schedule_choice.h"
#endif

namespace pplab {
namespace {
bool failed_since_reset = false;
}  // namespace

void note_check_failed() { failed_since_reset = true; }

#ifdef PPLAB_SIM
namespace {
unsigned current_seed = 0;

struct Order {
  sim::Schedule schedule;
  unsigned seed;
};

// The orders most likely to expose a missing barrier: threads in index order, in
// reverse, and a shuffle drawn from the run's seed.
std::vector<Order> every_order() {
  const unsigned random_seed = static_cast<unsigned>(run_seed() % 1000003u);
  return {{sim::Schedule::forward, 0}, {sim::Schedule::reverse, 0}, {sim::Schedule::random, random_seed}};
}

// How many large inputs have run so far in this process: the next takes the next order.
std::size_t large_inputs_run = 0;

void run_in_orders(const std::vector<Order>& orders, const std::function<void(const std::string&)>& body) {
  if (const auto chosen = sim::schedule_from_environment()) {
    current_seed = chosen->seed;  // reproducing one order: run just that one
    body(sim::schedule_name(*chosen));
    return;
  }
  const sim::Schedule saved = sim::schedule();
  failed_since_reset = false;
  for (const auto& order : orders) {
    sim::set_schedule(order.schedule, order.seed);
    current_seed = order.seed;
    body(sim::schedule_name({order.schedule, order.seed}));
    if (failed_since_reset) break;  // one report per mistake is enough
  }
  sim::set_schedule(saved, 0);
  current_seed = 0;
}
}  // namespace

std::string current_schedule_name() { return sim::schedule_name({sim::schedule(), current_seed}); }

void for_each_schedule(const std::function<void(const std::string&)>& body) { run_in_orders(every_order(), body); }

void for_each_schedule(std::size_t elements, const std::function<void(const std::string&)>& body) {
  const std::vector<Order> orders = every_order();
  if (elements <= kEveryOrderUpTo) return run_in_orders(orders, body);
  run_in_orders({orders[large_inputs_run++ % orders.size()]}, body);
}
#else
std::string current_schedule_name() { return "gpu"; }
void for_each_schedule(const std::function<void(const std::string&)>& body) { body("gpu"); }
void for_each_schedule(std::size_t, const std::function<void(const std::string&)>& body) { body("gpu"); }
#endif

}  // namespace pplab
