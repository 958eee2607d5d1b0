/// \file
/// \brief What shape a wrong answer has, for hints chosen by the pattern seen.
///
/// A lab's checks call these on the expected and the actual output to say which of a
/// few common mistakes the output looks like, so that the hint names that mistake:
/// - every element (or every element of a tile) off by the same amount: a value added
///   once too often or never, e.g. a scan's root not cleared (off by the tile's total);
/// - the right values one place to the side: an off-by-one index, or inclusive where
///   exclusive was asked;
/// - keys lost or doubled: a sort or scatter that wrote some slots twice;
/// - keys right but values not following them;
/// - each tile sorted but the tiles not merged.
#pragma once
#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "pplab/poison.h"

namespace pplab::patterns {

/// The amount every element of got[begin, end) differs from expected by, when it is one
/// nonzero amount for them all (integer outputs only: float sums differ by roundings).
template <class T>
std::optional<T> constant_offset(const std::vector<T>& expected, const std::vector<T>& got, std::size_t begin,
                                 std::size_t end) {
  if constexpr (!std::is_integral_v<T>) {
    return std::nullopt;
  } else {
    end = std::min({end, expected.size(), got.size()});
    if (begin >= end) return std::nullopt;
    if (is_poison(got[begin])) return std::nullopt;
    const T offset = T(got[begin] - expected[begin]);
    if (offset == T(0)) return std::nullopt;
    for (std::size_t i = begin; i < end; ++i)
      if (is_poison(got[i]) || T(got[i] - expected[i]) != offset) return std::nullopt;
    return offset;
  }
}

/// Whether each tile of `tile` elements is off by one constant amount of its own (not all
/// zero); `offsets` (if given) gets each tile's amount, 0 for a right tile. Integer outputs only.
template <class T>
bool offset_per_tile(const std::vector<T>& expected, const std::vector<T>& got, std::size_t tile,
                     std::vector<T>* offsets = nullptr) {
  if (tile == 0 || expected.size() != got.size() || got.empty()) return false;
  std::vector<T> found;
  bool any = false;
  for (std::size_t begin = 0; begin < got.size(); begin += tile) {
    const std::size_t end = std::min(got.size(), begin + tile);
    bool right = true;
    for (std::size_t i = begin; i < end && right; ++i) right = got[i] == expected[i];
    if (right) {
      found.push_back(T(0));
      continue;
    }
    const auto offset = constant_offset(expected, got, begin, end);
    if (!offset) return false;
    found.push_back(*offset);
    any = true;
  }
  if (offsets) *offsets = found;
  return any;
}

/// The k (|k| <= max_shift, k != 0) with got[i] == expected[i - k] wherever both exist,
/// when there is one: the right values, k places to the right (k > 0) or left.
template <class T>
std::optional<long> shift(const std::vector<T>& expected, const std::vector<T>& got, long max_shift = 2) {
  const long n = long(std::min(expected.size(), got.size()));
  for (long k = 1; k <= max_shift; ++k) {
    for (long sign : {1L, -1L}) {
      const long s = k * sign;
      if (n <= k + 1) continue;
      bool all = true;
      for (long i = std::max(0L, s); i < std::min(n, n + s) && all; ++i) all = got[i] == expected[i - s];
      if (all) return s;
    }
  }
  return std::nullopt;
}

/// "key 7 lost (1 in the input, 0 in the output), key 9 doubled (1, 2)": at most `limit`
/// keys whose counts differ; empty when output is a permutation of input.
template <class K>
std::string lost_or_doubled(const std::vector<K>& input, const std::vector<K>& output, std::size_t limit = 3) {
  std::map<K, long> count;
  for (const K& k : input) ++count[k];
  for (const K& k : output) --count[k];
  std::size_t lost = 0, extra = 0, shown = 0;
  std::string text;
  for (const auto& [key, diff] : count) {
    if (diff == 0) continue;
    (diff > 0 ? lost : extra) += std::size_t(diff > 0 ? diff : -diff);
    if (shown++ < limit) {
      if (!text.empty()) text += ", ";
      text += (is_poison(key) ? std::string("<never written>") : std::to_string(key)) +
              (diff > 0 ? " lost" : " extra");
    }
  }
  if (text.empty()) return {};
  return std::to_string(lost) + " keys lost and " + std::to_string(extra) + " extra (" + text +
         (shown > limit ? ", ..." : "") + ")";
}

/// Whether every tile of `tile` keys is in order (the block sort's work) while the whole
/// is not (the merges' work).
template <class K>
bool tiles_sorted_not_merged(const std::vector<K>& output, std::size_t tile) {
  if (tile == 0 || output.size() <= tile) return false;
  bool whole = true;
  for (std::size_t i = 1; i < output.size(); ++i) {
    if (output[i] < output[i - 1]) {
      if (i % tile != 0) return false;  // a descent inside a tile
      whole = false;
    }
  }
  return !whole;
}

/// Whether the values are a permutation of the expected ones that differs only among
/// equal keys (stability lost) rather than values taken from other keys.
template <class K, class V>
bool values_reordered_among_equal_keys(const std::vector<K>& keys, const std::vector<V>& expected,
                                       const std::vector<V>& got) {
  if (keys.size() != expected.size() || got.size() != expected.size()) return false;
  for (std::size_t begin = 0; begin < keys.size();) {
    std::size_t end = begin + 1;
    while (end < keys.size() && keys[end] == keys[begin]) ++end;
    std::vector<V> a(expected.begin() + long(begin), expected.begin() + long(end));
    std::vector<V> b(got.begin() + long(begin), got.begin() + long(end));
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a != b) return false;
    begin = end;
  }
  return true;
}

}  // namespace pplab::patterns
