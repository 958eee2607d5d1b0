/// \file
/// \brief CPU references: the answers kernels are checked against.
///
/// Sums are accumulated in double (or exactly, for integers), so the reference is
/// closer to the true value than any float order a kernel might use.
#pragma once
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <type_traits>
#include <vector>

namespace pplab::cpu {

/// The accumulator type of a reference sum: double for floating point, T otherwise
/// (integer sums wrap like the GPU's).
template <class T>
using Accumulator = std::conditional_t<std::is_floating_point_v<T>, double, T>;

/// Folds `values` with `op` starting from `identity`.
template <class T, class Op>
T reduce(const std::vector<T>& values, T identity, Op op) {
  T result = identity;
  for (const T& v : values) result = op(result, v);
  return result;
}

/// The sum of `values`, accumulated in Accumulator<T>.
template <class T>
T sum(const std::vector<T>& values) {
  Accumulator<T> total{};
  for (const T& v : values) total += v;
  return static_cast<T>(total);
}

/// out[i] = in[0] + ... + in[i].
template <class T>
std::vector<T> inclusive_scan(const std::vector<T>& in) {
  std::vector<T> out(in.size());
  Accumulator<T> running{};
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = static_cast<T>(running += in[i]);
  return out;
}

/// out[i] = in[0] + ... + in[i-1]; out[0] = 0.
template <class T>
std::vector<T> exclusive_scan(const std::vector<T>& in) {
  std::vector<T> out(in.size());
  Accumulator<T> running{};
  for (std::size_t i = 0; i < in.size(); ++i) {
    out[i] = static_cast<T>(running);
    running += in[i];
  }
  return out;
}

/// The scan of `in` at `positions` only (sorted, repeats allowed; a sampled check's
/// expected values, pplab/fresh_inputs.h), in one pass and without the whole output.
template <class T>
std::vector<T> scan_at(const std::vector<T>& in, const std::vector<std::size_t>& positions, bool inclusive) {
  std::vector<T> out;
  out.reserve(positions.size());
  Accumulator<T> running{};
  std::size_t next = 0;
  for (std::size_t i = 0; i < in.size() && next < positions.size(); ++i) {
    if (!inclusive)
      for (; next < positions.size() && positions[next] == i; ++next) out.push_back(static_cast<T>(running));
    running += in[i];
    if (inclusive)
      for (; next < positions.size() && positions[next] == i; ++next) out.push_back(static_cast<T>(running));
  }
  return out;
}

/// The positions of `keys` in stably sorted order: keys[order[0]] <= keys[order[1]] <=
/// ..., equal keys in input order. An LSD radix sort, 8 bits a pass, so 2^28 keys take
/// seconds, not the minutes a comparison sort of pairs would.
inline std::vector<std::uint32_t> stable_sort_order(const std::vector<std::uint32_t>& keys) {
  std::vector<std::uint32_t> order(keys.size()), next(keys.size());
  std::iota(order.begin(), order.end(), std::uint32_t(0));
  for (int shift = 0; shift < 32; shift += 8) {
    std::vector<std::size_t> start(257, 0);
    for (std::uint32_t i : order) ++start[((keys[i] >> shift) & 255u) + 1];
    for (int digit = 0; digit < 256; ++digit) start[digit + 1] += start[digit];
    for (std::uint32_t i : order) next[start[(keys[i] >> shift) & 255u]++] = i;
    order.swap(next);
  }
  return order;
}

}  // namespace pplab::cpu
