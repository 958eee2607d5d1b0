#include "pplab/schedules.h"

#include <cuda_runtime.h>

#include <cstdlib>
#include <cstring>

#include "pplab/inputs.h"

namespace pplab {
namespace {
bool failed_since_reset = false;
}  // namespace

void note_check_failed() { failed_since_reset = true; }

#ifdef PPLAB_SIM
namespace {
std::string name_of(sim::Schedule schedule, unsigned seed) {
  switch (schedule) {
    case sim::Schedule::forward: return "forward";
    case sim::Schedule::reverse: return "reverse";
    case sim::Schedule::random: return "random:" + std::to_string(seed);
  }
  return "?";
}
unsigned current_seed = 0;

// PPLAB_SIM_SCHEDULE=random:<seed> names its seed; the others have none.
unsigned seed_from_environment() {
  const char* text = std::getenv("PPLAB_SIM_SCHEDULE");
  const char* colon = text ? std::strchr(text, ':') : nullptr;
  return colon ? unsigned(std::strtoul(colon + 1, nullptr, 10)) : 0;
}
}  // namespace

std::string current_schedule_name() { return name_of(sim::schedule(), current_seed); }

void for_each_schedule(const std::function<void(const std::string&)>& body) {
  // The orders most likely to expose a missing barrier: threads in index order,
  // in reverse, and a shuffle drawn from the run's seed.
  const unsigned random_seed = static_cast<unsigned>(run_seed() % 1000003u);
  const struct { sim::Schedule schedule; unsigned seed; } orders[] = {
      {sim::Schedule::forward, 0}, {sim::Schedule::reverse, 0}, {sim::Schedule::random, random_seed}};
  if (const char* chosen = std::getenv("PPLAB_SIM_SCHEDULE"); chosen && *chosen) {
    current_seed = seed_from_environment();  // reproducing one order: run just that one
    body(name_of(sim::schedule(), current_seed));
    return;
  }
  const sim::Schedule saved = sim::schedule();
  failed_since_reset = false;
  for (const auto& order : orders) {
    sim::set_schedule(order.schedule, order.seed);
    current_seed = order.seed;
    body(name_of(order.schedule, order.seed));
    if (failed_since_reset) break;  // one report per mistake is enough
  }
  sim::set_schedule(saved, 0);
  current_seed = 0;
}
#else
std::string current_schedule_name() { return "gpu"; }
void for_each_schedule(const std::function<void(const std::string&)>& body) { body("gpu"); }
#endif

}  // namespace pplab
