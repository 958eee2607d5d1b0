/// \file
/// \brief What the radix sorts' traces (labs 11 and 12) share: one pass per key bit over
/// a ping-pong array of two buffers, each pass opened by a vote on its bit.
///
/// The kernel loads the keys into buffer 0; pass b votes on bit b of every key (a
/// `__syncthreads_count()` or a `__ballot_sync()`, an exchange step), then moves each key
/// of the buffer it reads, b % 2, to its new position in the other one.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "pplab/trace.h"

namespace pplab::trace {

/// The lecture's example, which both traces sort: keys 7 14 4 1, by bits 0 to 3.
inline const std::vector<unsigned> kLectureKeys{7, 14, 4, 1};
inline constexpr int kLectureEndBit = 4;

/// A trace of a sort of the lecture's keys, begun by begin_lecture_sort().
struct LectureSortTrace {
  Options options;                  ///< the command line's
  Tracer& tracer;                   ///< begun on unsigned keys
  const std::vector<unsigned>& in;  ///< kLectureKeys
  int n;                            ///< in.size()
  int end_bit;                      ///< kLectureEndBit: the sort is by bits 0 … end_bit - 1
  unsigned* d_in;                   ///< `in`, on the device
  unsigned* d_out;                  ///< n unsigned keys on the device, unset, for the sorted keys
};
#ifdef PPLAB_TRACE_SOURCE
/// Parses the command line (`what` as for parse_options()), begins the tracer on unsigned
/// keys and puts the lecture's keys and an output array of as many on the device. Both
/// radix sorts' traces begin this way, so that they sort the same keys from the same start
/// and the set-up is written once; each lab then adds what only its kernel needs.
inline LectureSortTrace begin_lecture_sort(int argc, char** argv, const char* what) {
  const Options options = parse_options(argc, argv, what);
  Tracer& t = tracer();
  t.begin(sizeof(unsigned));
  const int n = static_cast<int>(kLectureKeys.size());
  return {options, t, kLectureKeys, n, kLectureEndBit, to_device(kLectureKeys), device_array<unsigned>(n)};
}
#endif

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

/// What each bit's vote handed back to thread 0 (the count of 1s, or the ballot's mask), for
/// bits 0 … end_bit - 1 (bit_of from bit_of_steps(), `votes` as given to it); 0 for a bit
/// whose vote thread 0 did not take part in.
inline std::vector<unsigned> vote_results(const std::vector<Step>& steps, const std::vector<int>& bit_of,
                                          const std::function<bool(const Step&)>& votes, int end_bit) {
  std::vector<unsigned> results(static_cast<std::size_t>(end_bit), 0);
  for (std::size_t k = 0; k < steps.size(); ++k)
    if (const Lane* l = steps[k].lane(0); votes(steps[k]) && l && bit_of[k] < end_bit)
      results[static_cast<std::size_t>(bit_of[k])] = static_cast<unsigned>(l->received);
  return results;
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

/// A write of a step of pass `bit` (from bit_of_steps()) to the ping-pong array `name` of
/// two buffers of `half` keys, as both traces word it where it belongs to no sorted bit: at
/// the load "keys[0][2] = 4", past the last bit (bit >= end_bit) "4 → 2". Nothing for a
/// write of bits 0 … end_bit - 1, which only the lab can explain (its format.what).
inline std::optional<std::string> write_outside_passes(int bit, int end_bit, const std::string& name,
                                                       std::size_t half, const Write& w) {
  const unsigned key = as<unsigned>(w.after);
  const std::size_t position = w.index % half;
  if (bit < 0) return name + "[0][" + std::to_string(position) + "] = " + std::to_string(key);
  if (bit >= end_bit) return std::to_string(key) + " → " + std::to_string(position);
  return std::nullopt;
}

/// The step table of the bit passes over the ping-pong array `name` of two buffers of
/// `half` elements, the same in both radix sorts' traces: the first `keys` elements of each
/// buffer and the `keys` threads that hold a key, values as unsigned keys, steps titled by
/// bit_pass_title() (`load`, `vote`) and each vote's lanes by bit_vote_lane(). The lab adds
/// what only its kernel shows (show, exchange_row, what). Keeps references to `tracer` and
/// `bit_of`, which must outlive the format.
inline Format bit_pass_format(const Tracer& tracer, const std::vector<int>& bit_of, const std::string& name,
                              std::size_t half, int keys, const std::string& load, const std::string& vote) {
  Format format;
  format.array = name;
  for (std::size_t i = 0; i < static_cast<std::size_t>(keys); ++i) format.shown.push_back(i);
  for (std::size_t i = 0; i < static_cast<std::size_t>(keys); ++i) format.shown.push_back(half + i);
  for (int t = 0; t < keys; ++t) format.threads.push_back(t);
  format.value = text_of<unsigned>;
  const std::string last = std::to_string(keys - 1);
  format.row_heading = "`" + name + "[0][0…" + last + "] ‖ " + name + "[1][0…" + last + "]` afterwards";
  format.title = [&bit_of, name, half, load, vote](std::size_t k, const Step& s) {
    return bit_pass_title(bit_of[k], s, name, half, load, vote);
  };
  format.lane = [&tracer, &bit_of, half](std::size_t k, const Step& s, const Lane& l) {
    return bit_vote_lane(tracer, bit_of[k], s, l, half);
  };
  return format;
}

}  // namespace pplab::trace
