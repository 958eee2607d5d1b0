/// \file
/// \brief Inputs drawn afresh for every run a benchmark makes, so that nothing a lab's
/// code keeps from one call (an answer by hash of its input, by pointer and size, by
/// call count) is worth anything in the next.
///
/// A draw is n values, value i a hash of (the draw's seed, i), spread as asked. The
/// device fills it (fill_fresh, an untimed kernel, in the runner when the timer is the
/// checker's) and the CPU computes the same values when a repeat is checked
/// (fresh_values), so no input crosses the wire. Each draw's seed comes from a random
/// source in the timer's process that lab code never sees, one draw per run: warm-ups,
/// timed and checked repeats alike.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "pplab/device_buffer.h"

#if defined(__CUDACC__)
#define PPLAB_HOST_DEVICE __host__ __device__
#else
#define PPLAB_HOST_DEVICE
#endif

namespace pplab {

/// How a draw's values are spread.
struct Spread {
  enum class Kind : int { uniform, whole_numbers, permutation, finite_floats } kind = Kind::uniform;
  /// uniform: integers in [lo, hi], floats in [lo, hi) on a grid of 2^24 steps;
  /// whole_numbers: the integers in [lo, hi], as T (floats whose sums stay exact);
  /// finite_floats: (floats only) any finite bit pattern, every sign and exponent.
  double lo = 0, hi = 0;

  static Spread uniform(double lo, double hi) { return {Kind::uniform, lo, hi}; }
  static Spread whole_numbers(double lo, double hi) { return {Kind::whole_numbers, lo, hi}; }
  /// A random permutation of 0 .. n-1 (integer types only).
  static Spread permutation() { return {Kind::permutation, 0, 0}; }
  /// Every value of an integer type, its extremes included.
  template <class T>
  static Spread full_range() {
    return {Kind::uniform, double(std::numeric_limits<T>::lowest()), double(std::numeric_limits<T>::max())};
  }
  /// Floats whose extremes a draw almost never holds: each of the 2^32 bit patterns but
  /// infinities and NaNs about equally likely, so the largest possible value turns up in
  /// a draw of 2^24 once in 256. A grid of 2^24 steps holds its end in most such draws,
  /// and a min or max kept from an earlier draw would then be right again.
  static Spread finite_floats() { return {Kind::finite_floats, 0, 0}; }
};

namespace fresh {

/// SplitMix64's finaliser: neighbouring inputs give unrelated outputs.
PPLAB_HOST_DEVICE inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// The smallest power of two at or above n, as a mask (n >= 1).
PPLAB_HOST_DEVICE inline std::uint64_t domain_mask(std::uint64_t n) {
  std::uint64_t mask = 1;
  while (mask < n) mask <<= 1;
  return mask - 1;
}

/// A bijection of [0, mask], keyed by seed: odd multiplies, xor-shifts and adds, each
/// invertible modulo a power of two.
PPLAB_HOST_DEVICE inline std::uint64_t scramble(std::uint64_t x, std::uint64_t mask, std::uint64_t seed) {
  int bits = 0;
  while ((mask >> bits) != 0) ++bits;
  const int half = bits / 2 > 0 ? bits / 2 : 1;
  for (int round = 0; round < 3; ++round) {
    const std::uint64_t key = mix(seed + std::uint64_t(round));
    x = (x * (key | 1)) & mask;
    x ^= x >> half;
    x = (x + (key >> 17)) & mask;
  }
  return x;
}

/// Value i of the draw with this seed, as type T.
template <class T>
PPLAB_HOST_DEVICE inline T value(std::uint64_t seed, std::uint64_t i, std::uint64_t n, Spread spread) {
  if constexpr (!std::is_integral_v<T>) {
    if (spread.kind == Spread::Kind::whole_numbers)
      return T(value<long long>(seed, i, n, Spread{Spread::Kind::uniform, spread.lo, spread.hi}));
  }
  if constexpr (std::is_integral_v<T>) {
    if (spread.kind == Spread::Kind::permutation) {
      // Cycle-walking: scramble the power-of-two domain until the value lands below n.
      const std::uint64_t mask = domain_mask(n);
      std::uint64_t x = i;
      do x = scramble(x, mask, seed); while (x >= n);
      return T(x);
    }
    const auto lo = static_cast<long long>(spread.lo);
    const std::uint64_t width = std::uint64_t(static_cast<long long>(spread.hi) - lo) + 1;  // 0: all 2^64
    const std::uint64_t bits = mix(seed ^ mix(i));
    return T(std::uint64_t(lo) + (width == 0 ? bits : bits % width));
  } else {
    if (spread.kind == Spread::Kind::finite_floats) {
      std::uint32_t bits = std::uint32_t(mix(seed ^ mix(i)));
      if ((bits & 0x7F800000u) == 0x7F800000u) bits ^= 0x00800000u;  // infinity or NaN: the next exponent down
      static_assert(sizeof(T) == sizeof bits, "finite_floats draws 32-bit floats");
#if defined(__CUDA_ARCH__)
      return __int_as_float(int(bits));
#else
      T value;
      std::memcpy(&value, &bits, sizeof value);
      return value;
#endif
    }
    // A 24-bit step count times a step: one rounding each way, the same on both sides.
    const float step = float((spread.hi - spread.lo) / 16777216.0);
    const float steps = float(mix(seed ^ mix(i)) >> 40);
#if defined(__CUDA_ARCH__)
    return T(__fadd_rn(float(spread.lo), __fmul_rn(steps, step)));
#else
    return T(float(spread.lo) + steps * step);
#endif
  }
}

}  // namespace fresh

/// Fills device memory with the draw of this seed (the benchmark's untimed prepare).
/// On the checker's side the runner does it: harness/remote/harness_entries.h.
void fill_fresh(int* d_out, std::size_t n, Spread spread, std::uint64_t seed, cudaStream_t stream);
void fill_fresh(unsigned* d_out, std::size_t n, Spread spread, std::uint64_t seed, cudaStream_t stream);
void fill_fresh(float* d_out, std::size_t n, Spread spread, std::uint64_t seed, cudaStream_t stream);

/// The same draw computed on the CPU (on every core: a check at 2^24 waits for it).
template <class T>
std::vector<T> fresh_values(std::size_t n, Spread spread, std::uint64_t seed);

/// A seed no lab code can predict: from this process's own random source.
std::uint64_t unpredictable_seed();

/// How many positions a sampled check of a timed repeat looks at (sample_positions).
inline constexpr std::size_t kCheckedPositions = std::size_t{1} << 16;

/// Where to check a timed repeat's output of n elements: every position when n is at
/// most `count`, else `count` positions drawn from this process's own random source
/// after the run, so lab code cannot know them. A repeat that skipped its work (an answer
/// kept from an earlier draw, a run cut short) is wrong nearly everywhere and is found at
/// once; one wrong in a fraction f of its elements passes with odds (1 - f)^count (f =
/// 10^-4: 0.14%), and skipping that little of the work saves no measurable time. The
/// check costs the same at any n, where comparing all of 2^24 outputs on the CPU cost
/// 100-500 ms a check on the H200. The lab's checks still compare every element.
std::vector<std::size_t> sample_positions(std::size_t n, std::size_t count = kCheckedPositions);

/// d_out[k] = d_src[d_positions[k]], k < count, on the device (the runner's, when the
/// timer is the checker's): a sampled check downloads its positions, not the output.
void gather_at(const int* d_src, const std::uint64_t* d_positions, std::size_t count, int* d_out, cudaStream_t stream);
void gather_at(const unsigned* d_src, const std::uint64_t* d_positions, std::size_t count, unsigned* d_out,
               cudaStream_t stream);
void gather_at(const float* d_src, const std::uint64_t* d_positions, std::size_t count, float* d_out,
               cudaStream_t stream);

/// The elements of device array `d_src` at `positions`, in their order.
template <class T>
std::vector<T> download_at(const T* d_src, const std::vector<std::size_t>& positions) {
  if (positions.empty()) return {};
  DeviceBuffer<std::uint64_t> d_positions(positions.size());
  d_positions.upload(std::vector<std::uint64_t>(positions.begin(), positions.end()));
  DeviceBuffer<T> d_out(positions.size());
  gather_at(d_src, d_positions.data(), positions.size(), d_out.data(), cudaStream_t(0));
  return d_out.download();
}

/// While one is alive, every FreshInput::next() in this process fills its current draw
/// again instead of a new one. The checker's timer asks so, after the timed repeats, a
/// question the lab's code has already answered: honest code takes as long as it did the
/// first time, code that keeps answers across calls answers at once (bench_checker.cpp).
class SameDraws {
 public:
  SameDraws();
  ~SameDraws();
  SameDraws(const SameDraws&) = delete;
  SameDraws& operator=(const SameDraws&) = delete;
};

/// Whether a SameDraws is alive.
bool drawing_the_same();

/// One input of a benchmark case, drawn afresh by each next(): call it in the case's
/// prepare(), and host() in its verify().
template <class T>
class FreshInput {
 public:
  FreshInput(std::size_t n, Spread spread) : device_(n), spread_(spread), seed_(unpredictable_seed()) { fill(); }

  /// The next draw, filled on the device (untimed); under SameDraws, the current one again.
  void next() {
    if (!drawing_the_same()) {
      seed_ = unpredictable_seed();
      host_.reset();
    }
    fill();
  }
  T* data() { return device_.data(); }
  const T* data() const { return device_.data(); }
  std::size_t size() const { return device_.size(); }
  /// Value i of the current draw, computed on its own (a sampled check's expected values).
  T at(std::size_t i) const { return fresh::value<T>(seed_, i, device_.size(), spread_); }
  /// The current draw as the CPU computes it (once per draw).
  const std::vector<T>& host() const {
    if (!host_) host_ = std::make_shared<const std::vector<T>>(fresh_values<T>(device_.size(), spread_, seed_));
    return *host_;
  }

 private:
  void fill() {
    if (device_.size() > 0) fill_fresh(device_.data(), device_.size(), spread_, seed_, cudaStream_t(0));
  }

  DeviceBuffer<T> device_;
  Spread spread_;
  std::uint64_t seed_ = 0;
  mutable std::shared_ptr<const std::vector<T>> host_;
};

}  // namespace pplab
