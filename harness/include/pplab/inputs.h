/// \file
/// \brief Seeded input generators and the standard test sizes.
///
/// Every random input comes from the run's seed: `PPLAB_SEED=<n>` (or `--seed=<n>`
/// on a test binary) reproduces a failure exactly. Each generator call mixes the
/// seed with a caller-chosen stream number so inputs of one test do not depend on
/// which other tests ran before it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "pplab/seed.h"  // kDefaultSeed, parse_seed

namespace pplab {

/// The run's seed: --seed, else PPLAB_SEED, else kDefaultSeed.
std::uint64_t run_seed();
/// Set by the test main from `--seed=<n>`.
void set_run_seed(std::uint64_t seed);

/// A random engine for one input: the run seed mixed with `stream`.
std::mt19937_64 make_rng(std::uint64_t stream);

/// n uniformly random values in [lo, hi] (integers) or [lo, hi) (floating point).
template <class T>
std::vector<T> random_values(std::size_t n, T lo, T hi, std::uint64_t stream) {
  auto rng = make_rng(stream);
  std::vector<T> values(n);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> dist(lo, hi);
    for (auto& v : values) v = dist(rng);
  } else {
    using Wide = std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>;
    std::uniform_int_distribution<Wide> dist(lo, hi);
    for (auto& v : values) v = static_cast<T>(dist(rng));
  }
  return values;
}

/// n random values over the whole range of an integer type (including its extremes).
template <class T>
std::vector<T> random_full_range(std::size_t n, std::uint64_t stream) {
  return random_values<T>(n, std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max(), stream);
}

/// The values reductions are timed on (labs 03 and 04, the lab's code and CUB alike):
/// ints in [-1000, 1000] (stream 1) or floats in [-1, 1) (stream 2).
template <class T>
std::vector<T> reduce_bench_values(std::size_t n) {
  return std::is_same_v<T, int> ? random_values<T>(n, T(-1000), T(1000), 1) : random_values<T>(n, T(-1), T(1), 2);
}

/// 0, 1, 2, ... n-1 converted to T.
template <class T>
std::vector<T> iota_values(std::size_t n, T first = T(0)) {
  std::vector<T> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<T>(first + static_cast<T>(i));
  return values;
}

/// Sizes every lab is checked at: empty, one, around a warp, around 1024, and
/// non-powers of two spanning several blocks, up to 65537 but none past large_size():
/// where PPLAB_LARGE_N makes the large input smaller (compute-sanitizer's run, where each
/// access is checked and a sort at 65537 takes minutes), the large-input check is the
/// largest size, and 4099 the largest edge.
const std::vector<std::size_t>& edge_sizes();

/// The size of the "large random input" check: 1 << 22 on a GPU, smaller on the CPU
/// emulator so the whole suite stays quick. PPLAB_LARGE_N overrides it.
std::size_t large_size();

}  // namespace pplab
