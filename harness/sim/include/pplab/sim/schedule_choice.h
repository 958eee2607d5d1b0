// The one reading of PPLAB_SIM_SCHEDULE: the emulator, the checker and the harness all
// parse and print a thread order through these two functions, so a name that one accepts
// the others accept too.
#pragma once
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>

#include "pplab/sim/runtime.h"
#include "pplab/sim/settings.h"

namespace pplab::sim {

/// A thread order and, for `random`, its seed: what PPLAB_SIM_SCHEDULE names.
struct ScheduleChoice {
  Schedule schedule = Schedule::forward;
  unsigned seed = 0;
};

/// "forward", "reverse", "random" or "random:<seed>"; nothing for any other text.
inline std::optional<ScheduleChoice> parse_schedule(const std::string& text) {
  const auto colon = text.find(':');
  const std::string name = text.substr(0, colon);
  ScheduleChoice choice;
  if (name == "forward") choice.schedule = Schedule::forward;
  else if (name == "reverse") choice.schedule = Schedule::reverse;
  else if (name == "random") choice.schedule = Schedule::random;
  else return std::nullopt;
  if (colon == std::string::npos) return choice;
  const std::string digits = text.substr(colon + 1);
  if (name != "random" || digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  choice.seed = static_cast<unsigned>(std::strtoul(digits.c_str(), nullptr, 10));
  return choice;
}

/// The name parse_schedule reads back: a report's `schedule =` and its reproduce line.
inline std::string schedule_name(const ScheduleChoice& choice) {
  switch (choice.schedule) {
    case Schedule::forward: return "forward";
    case Schedule::reverse: return "reverse";
    case Schedule::random: return "random:" + std::to_string(choice.seed);
  }
  return "?";
}

/// PPLAB_SIM_SCHEDULE as set: nothing when unset or empty; throws on a bad name
/// (settings.h's rule).
inline std::optional<ScheduleChoice> schedule_from_environment() {
  const auto text = settings::text(settings::kSchedule);
  if (!text) return std::nullopt;
  if (auto choice = parse_schedule(*text)) return choice;
  settings::bad_value(settings::kSchedule, *text, "one of forward, reverse, random, random:<seed>");
}

}  // namespace pplab::sim
