/// \file
/// \brief Checks that prove a sort is a sort: ordered, a permutation, and stable.
#pragma once
#include "pplab/check.h"
#include "pplab/fresh_inputs.h"
#include "pplab/patterns.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <numeric>
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

/// Linear-time verdicts for a benchmark's checked repeats, where sorting the input
/// again on the CPU for each check would cost more than the timing. They say only
/// yes or no; the lab's checks say why.
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

/// A stable key-value sort whose input values were the positions 0 .. n-1: the keys
/// ascend, each value names the input position its key came from, every position once,
/// and equal keys keep their positions in order. Together that is the stable sort.
template <class K, class V>
bool stable_pairs_of_positions(const std::vector<K>& keys_in, const std::vector<K>& keys_out,
                               const std::vector<V>& values_out) {
  const std::size_t n = keys_in.size();
  if (keys_out.size() != n || values_out.size() != n) return false;
  std::vector<bool> seen(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t from = std::size_t(values_out[i]);
    if (from >= n || seen[from] || !(keys_in[from] == keys_out[i])) return false;
    seen[from] = true;
    if (i > 0 && (keys_out[i] < keys_out[i - 1] || (keys_out[i] == keys_out[i - 1] && values_out[i] < values_out[i - 1])))
      return false;
  }
  return true;
}

}  // namespace linear_time

}  // namespace pplab
