/// \file
/// \brief CPU references: the answers kernels are checked against.
///
/// Sums are accumulated in double (or exactly, for integers), so the reference is
/// closer to the true value than any float order a kernel might use.
#pragma once
#include <cstddef>
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

}  // namespace pplab::cpu
