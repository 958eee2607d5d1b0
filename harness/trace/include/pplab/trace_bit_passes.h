/// \file
/// \brief What the radix sorts' traces (labs 11 and 12) share: one pass per key bit over
/// a ping-pong array of two buffers, each pass opened by a vote on its bit.
///
/// The kernel loads the keys into buffer 0; pass b votes on bit b of every key (a
/// `__syncthreads_count()` or a `__ballot_sync()`, an exchange step), then moves each key
/// of the buffer it reads, b % 2, to its new position in the other one.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "pplab/trace.h"

namespace pplab::trace {

/// The bit of each step: a step for which `votes` holds opens the next bit's pass (0, 1,
/// …), and the steps after it belong to that pass; the steps before the first vote (the
/// load) get -1.
inline std::vector<int> bit_of_steps(const std::vector<Step>& steps, const std::function<bool(const Step&)>& votes) {
  std::vector<int> bit_of(steps.size(), -1);
  for (std::size_t k = 0, bit = 0, voted = 0; k < steps.size(); ++k) {
    if (votes(steps[k])) bit = voted++;
    if (voted > 0) bit_of[k] = static_cast<int>(bit);
  }
  return bit_of;
}

/// The title of a step of pass `bit` (from bit_of_steps()) over the ping-pong array `name`
/// of two buffers of `half` elements: `load` before the first vote, "bit b: `vote`" at a
/// vote, else where the pass put its keys ("… in keys[1]"; the reference writes the other
/// buffer each pass).
inline std::string bit_pass_title(int bit, const Step& s, const std::string& name, std::size_t half,
                                  const std::string& load, const std::string& vote) {
  if (bit < 0) return load;
  const std::string prefix = "bit " + std::to_string(bit);
  if (!s.lanes.empty()) return prefix + ": " + vote;
  std::string where;
  for (const Write& w : s.writes) {
    const std::string buffer = name + "[" + std::to_string(w.index / half) + "]";
    if (where.empty()) where = buffer;
    else if (where != buffer) where = "both buffers";
  }
  if (where.empty()) return prefix + ": no key moved";
  return prefix + ": each key to its new position, in " + where;
}

/// What a thread hands to pass `bit`'s vote: its key, the key's low 4 bits and the bit it
/// votes with, e.g. "14 = 1110 (bit 0)".
inline std::string bit_vote_lane(const Tracer& tracer, int bit, const Step& s, const Lane& l, std::size_t half) {
  const unsigned key = as<unsigned>(tracer.value(s.before, (bit % 2) * half + static_cast<std::size_t>(l.thread)));
  return std::to_string(key) + " = " + binary(key, 4) + " (bit " + std::to_string(l.sent) + ")";
}

}  // namespace pplab::trace
