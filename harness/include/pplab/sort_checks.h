/// \file
/// \brief Checks that prove a sort is a sort: ordered, a permutation, and stable.
#pragma once
#include "pplab/check.h"
#include "pplab/fresh_inputs.h"
#include "pplab/parallel_parts.h"
#include "pplab/patterns.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

namespace pplab {

/// Output must be in non-decreasing order and hold exactly the input's multiset of keys.
template <class K>
CheckResult check_sorted_permutation(const CheckContext& context, const std::vector<K>& input,
                                     const std::vector<K>& output) {
  std::ostringstream report;
  if (output.size() != input.size()) {
    report << detail::header(context) << "  output has " << output.size() << " keys, input has "
           << input.size() << "\n" << detail::footer(context);
    return {false, report.str()};
  }
  // Ordered: the first descent, if any.
  for (std::size_t i = 1; i < output.size(); ++i) {
    if (output[i] < output[i - 1] || is_poison(output[i]) != is_poison(output[i - 1])) {
      std::vector<K> expected = input;
      std::stable_sort(expected.begin(), expected.end());
      CheckContext ordered = context;
      ordered.check = context.check + ": output must be in ascending order (first descent at " +
                      std::to_string(i) + ")";
      // Keys lost or doubled say more than the descent they cause.
      if (const std::string changed = patterns::lost_or_doubled(input, output); !changed.empty())
        ordered.hint = "the output is not even a permutation of the input: " + changed +
                       (context.hint.empty() ? "" : "; " + context.hint);
      return compare_arrays(ordered, expected, output);
    }
  }
  // A permutation: same keys with the same multiplicities (not merely sorted).
  std::vector<K> a = input, b = output;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (a != b) {
    CheckContext permutation = context;
    permutation.check = context.check +
                        ": output is ordered but is not a permutation of the input (keys lost, "
                        "duplicated or invented)";
    permutation.hint = patterns::lost_or_doubled(input, output) +
                       ": some slots were written twice and others never (look at where each key's "
                       "position comes from)" + (context.hint.empty() ? "" : "; " + context.hint);
    return compare_arrays(permutation, a, b);
  }
  return {};
}

/// Key-value sort: keys sorted and a permutation, and each equal-key run keeps the
/// input order of its values (values are the input positions, so stability is exact).
template <class K, class V>
CheckResult check_stable_pairs(const CheckContext& context, const std::vector<K>& keys_in,
                               const std::vector<V>& values_in, const std::vector<K>& keys_out,
                               const std::vector<V>& values_out) {
  if (auto r = check_sorted_permutation(context, keys_in, keys_out); !r.passed) return r;
  std::vector<std::size_t> order(keys_in.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return keys_in[x] < keys_in[y]; });
  std::vector<V> expected(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) expected[i] = values_in[order[i]];
  CheckContext stable = context;
  stable.output = "values";
  stable.check = context.check + ": values must follow their keys, equal keys keeping input order";
  if (context.hint.empty()) {
    // The lab's hint, when it has one, knows which step keeps ties in order.
    stable.hint = patterns::values_reordered_among_equal_keys(keys_out, expected, values_out)
                      ? "the keys are right, and each value sits among the keys equal to its own but out of "
                        "input order: a tie was broken the wrong way (the sort is not stable)"
                      : "the keys are right but some values moved without their key (or were taken from "
                        "another key): move each value with its key";
  }
  return compare_arrays(stable, expected, values_out);
}

/// Linear-time verdicts for a benchmark's checked repeats of a whole output (lab 09's
/// small sizes), where sorting the input again on the CPU for each check would cost more
/// than the timing. They say only yes or no; the lab's checks say why.
namespace linear_time {

/// A keyed fingerprint of a multiset of keys: equal multisets always agree, and with a
/// key lab code never sees, different ones collide with odds of about 2^-64.
template <class K>
std::uint64_t multiset_fingerprint(const K* keys, std::size_t n, std::uint64_t key) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &keys[i], sizeof(K));
    sum += fresh::mix(key ^ fresh::mix(bits));
  }
  return sum;
}

/// Each `segment` keys of output (all of them when segment is 0) are in non-decreasing
/// order and hold exactly the keys of the same segment of input.
template <class K>
bool sorted_permutation(const std::vector<K>& input, const std::vector<K>& output, std::size_t segment = 0) {
  if (input.size() != output.size()) return false;
  const std::size_t n = input.size(), step = segment == 0 ? std::max<std::size_t>(n, 1) : segment;
  const std::uint64_t key = unpredictable_seed();
  for (std::size_t begin = 0; begin < n; begin += step) {
    const std::size_t end = std::min(n, begin + step);
    for (std::size_t i = begin + 1; i < end; ++i)
      if (output[i] < output[i - 1]) return false;
    if (multiset_fingerprint(&input[begin], end - begin, key) != multiset_fingerprint(&output[begin], end - begin, key))
      return false;
  }
  return true;
}

}  // namespace linear_time

/// A benchmark's checked repeats of a sort, at positions drawn after the run
/// (pplab/fresh_inputs.h: sample_positions, download_at), where even a linear check of
/// the whole output costs more than the timing (200-460 ms a check at 2^24 on the H200).
/// Each sampled element must be exactly what the sort puts there, so a repeat that
/// skipped its work, or sorted part of it, is found; computed by the timer alone, from
/// the input and the sampled elements, in one pass over the input split over the cores.
namespace sampled {

namespace detail {

/// The rank of a key among sorted distinct keys (std::lower_bound's answer), found in
/// a table of where each value of a 32-bit key's top 16 bits begins: a pass over 2^24
/// input keys makes one lookup each, and a binary search over 65,536 sampled keys cost
/// it most of a check's time. Keys of another size are searched as they are.
template <class K>
class RankLookup {
 public:
  explicit RankLookup(const std::vector<K>& distinct) : distinct_(distinct) {
    if constexpr (kTabled) {
      begins_.assign((std::size_t{1} << 16) + 1, distinct.size());
      for (std::size_t b = distinct.size(); b-- > 0;) begins_[top(distinct[b])] = b;
      for (std::size_t t = begins_.size() - 1; t-- > 0;) begins_[t] = std::min(begins_[t], begins_[t + 1]);
    }
  }

  /// The first b with !(distinct[b] < key).
  std::size_t operator()(const K& key) const {
    if constexpr (!kTabled) {
      return std::size_t(std::lower_bound(distinct_.begin(), distinct_.end(), key) - distinct_.begin());
    } else {
      const std::size_t t = top(key);
      std::size_t b = std::size_t(std::lower_bound(distinct_.begin() + std::ptrdiff_t(begins_[t]),
                                                   distinct_.begin() + std::ptrdiff_t(begins_[t + 1]), key) -
                                  distinct_.begin());
      // Keys equal but for their bits (a float's -0 and +0) may sit in the bucket before.
      while (b > 0 && !(distinct_[b - 1] < key)) --b;
      return b;
    }
  }

 private:
  static constexpr bool kTabled =
      sizeof(K) == 4 && (std::is_integral_v<K> || std::is_same_v<K, float>);

  // The top 16 bits of a 32-bit key whose unsigned order is the key's order.
  static std::size_t top(const K& key) {
    std::uint32_t bits;
    std::memcpy(&bits, &key, sizeof bits);
    if constexpr (std::is_same_v<K, float>) bits = (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
    else if constexpr (std::is_signed_v<K>) bits ^= 0x80000000u;
    return bits >> 16;
  }

  const std::vector<K>& distinct_;
  std::vector<std::size_t> begins_;
};

}  // namespace detail

/// `keys[k]` and (when given) `values[k]` are the sorted output's key and value at
/// `positions[k]` (sorted, repeats allowed). True when each key is the input's key of
/// that rank and, for a stable sort whose input values were the positions 0 .. n-1, each
/// value is the input position the stable order puts there.
template <class K, class V = std::uint32_t>
bool stable_sort_at(const std::vector<K>& input, const std::vector<std::size_t>& positions, const std::vector<K>& keys,
                    const std::vector<V>* values = nullptr) {
  const std::size_t m = positions.size(), n = input.size();
  if (keys.size() != m || (values && values->size() != m)) return false;
  for (std::size_t k = 0; k < m; ++k)
    if (positions[k] >= n || (k > 0 && (positions[k] < positions[k - 1] || keys[k] < keys[k - 1]))) return false;
  std::vector<K> distinct(keys);
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  const std::size_t d = distinct.size();
  // Per part of the input: how many keys fall below each distinct sampled key (and above
  // the one before it), how many equal it, and where the equal ones are.
  struct Counts {
    std::vector<std::size_t> below, equal;
    std::vector<std::pair<std::size_t, std::size_t>> hits;  // (distinct key, input position)
  };
  std::vector<Counts> counts(part_count(n));
  const detail::RankLookup<K> rank(distinct);
  for_each_part(n, [&](std::size_t part, std::size_t begin, std::size_t end) {
    Counts& c = counts[part];
    c.below.assign(d + 1, 0);
    c.equal.assign(d, 0);
    for (std::size_t i = begin; i < end; ++i) {
      const std::size_t b = rank(input[i]);
      if (b < d && !(input[i] < distinct[b])) {
        ++c.equal[b];
        if (values) c.hits.push_back({b, i});
      } else {
        ++c.below[b];
      }
    }
  });
  // first[b]: how many input keys are smaller than distinct[b]; equal[b]: how many match.
  std::vector<std::size_t> first(d, 0), equal(d, 0);
  std::vector<std::pair<std::size_t, std::size_t>> hits;
  std::size_t smaller = 0;
  for (std::size_t b = 0; b < d; ++b) {
    for (const Counts& c : counts) smaller += c.below[b];
    first[b] = smaller;
    for (const Counts& c : counts) equal[b] += c.equal[b];
    smaller += equal[b];
  }
  for (const Counts& c : counts) hits.insert(hits.end(), c.hits.begin(), c.hits.end());  // in input order
  std::stable_sort(hits.begin(), hits.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (std::size_t k = 0; k < m; ++k) {
    const std::size_t b = rank(keys[k]);
    if (positions[k] < first[b] || positions[k] >= first[b] + equal[b]) return false;
    if (!values) continue;
    const std::size_t from = std::size_t((*values)[k]);
    if (from >= n || input[from] < keys[k] || keys[k] < input[from]) return false;
    // A stable sort puts the key from input position `from` after the equal keys before it.
    const auto same = std::equal_range(hits.begin(), hits.end(), std::pair<std::size_t, std::size_t>{b, 0},
                                       [](const auto& x, const auto& y) { return x.first < y.first; });
    const auto before = std::lower_bound(same.first, same.second, from,
                                         [](const auto& hit, std::size_t i) { return hit.second < i; });
    if (positions[k] != first[b] + std::size_t(before - same.first)) return false;
  }
  return true;
}

/// Each `segment` keys of the output sorted on their own (lab 12's warps): `keys[k]` is
/// the output's key at `positions[k]` (sorted); `key_at(i)` the input's key at i.
template <class K, class KeyAt>
bool segments_sorted_at(std::size_t n, std::size_t segment, const std::vector<std::size_t>& positions,
                        const std::vector<K>& keys, KeyAt key_at) {
  if (keys.size() != positions.size() || segment == 0) return false;
  std::vector<K> sorted;
  std::size_t loaded = n;  // the segment whose keys `sorted` holds
  for (std::size_t k = 0; k < positions.size(); ++k) {
    if (positions[k] >= n) return false;
    const std::size_t begin = positions[k] / segment * segment;
    if (begin != loaded) {
      sorted.clear();
      for (std::size_t i = begin; i < std::min(n, begin + segment); ++i) sorted.push_back(key_at(i));
      std::sort(sorted.begin(), sorted.end());
      loaded = begin;
    }
    if (sorted[positions[k] - begin] < keys[k] || keys[k] < sorted[positions[k] - begin]) return false;
  }
  return true;
}

}  // namespace sampled

}  // namespace pplab
