// The emulator's settings from the environment, PPLAB_SIM_*: each is read through one of
// these functions and nowhere else, so every setting treats a value the same way. Unset
// or empty gives the default; anything that is not a value the setting accepts is an
// error naming the setting, the value and what it accepts (std::invalid_argument; the
// runtime ends the program with it, as a report of its own). No value is clamped or
// replaced quietly: a typo in a setting would otherwise change nothing and say nothing.
// Header-only, as schedule_choice.h: the checker parses PPLAB_SIM_SCHEDULE without the
// emulator's runtime.
#pragma once
#include <cerrno>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>

namespace pplab::sim::settings {

/// The settings the emulator reads (harness/sim/README.md says what each does).
inline constexpr const char* kSchedule = "PPLAB_SIM_SCHEDULE";
inline constexpr const char* kDevice = "PPLAB_SIM_DEVICE";
inline constexpr const char* kCheck = "PPLAB_SIM_CHECK";
inline constexpr const char* kTimeout = "PPLAB_SIM_TIMEOUT";
inline constexpr const char* kThreads = "PPLAB_SIM_THREADS";
inline constexpr const char* kStackKib = "PPLAB_SIM_STACK_KIB";

/// The setting's text as set; nothing when unset or empty.
inline std::optional<std::string> text(const char* name) {
  const char* value = std::getenv(name);
  if (!value || !*value) return std::nullopt;
  return std::string(value);
}

[[noreturn]] inline void bad_value(const char* name, const std::string& value, const std::string& accepted) {
  throw std::invalid_argument(std::string(name) + "='" + value + "' is not " + accepted);
}

/// A whole number in [least, most] (decimal digits only); `unset` when not set.
inline unsigned long whole_number(const char* name, unsigned long unset, unsigned long least, unsigned long most) {
  const auto value = text(name);
  if (!value) return unset;
  const std::string accepted = "a whole number from " + std::to_string(least) + " to " + std::to_string(most);
  if (value->find_first_not_of("0123456789") != std::string::npos || value->size() > 18) bad_value(name, *value, accepted);
  const unsigned long number = std::strtoul(value->c_str(), nullptr, 10);
  if (number < least || number > most) bad_value(name, *value, accepted);
  return number;
}

/// A number of seconds greater than 0 (such as 10 or 2.5); `unset` when not set.
inline double seconds(const char* name, double unset) {
  const auto value = text(name);
  if (!value) return unset;
  char* end = nullptr;
  errno = 0;
  const double number = std::strtod(value->c_str(), &end);
  if (end == value->c_str() || *end != '\0' || errno != 0 || !(number > 0) || number > 1e9)
    bad_value(name, *value, "a number of seconds greater than 0 (such as 10 or 2.5)");
  return number;
}

/// on or 1, off or 0; `unset` when not set.
inline bool on_off(const char* name, bool unset) {
  const auto value = text(name);
  if (!value) return unset;
  if (*value == "on" || *value == "1") return true;
  if (*value == "off" || *value == "0") return false;
  bad_value(name, *value, "on or off (or 1 or 0)");
}

}  // namespace pplab::sim::settings
