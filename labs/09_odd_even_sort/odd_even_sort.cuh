/// \file
/// \brief Lab 09 contract: odd-even transposition sort (the parallel bubble sort).
///
/// Given: a device array `d_in` of `n` ints (any values, INT_MIN and INT_MAX included)
///   and a device array `d_out` of `n` ints.
/// Asked: `d_out` holds the keys of `d_in` in ascending order; `d_in` is unchanged.
/// Assume: `block_threads` is a power of two from 1 to 1024. A block sorts a window of
///   `2 * block_threads` keys, one pair of keys per thread; n is anything (0 included).
/// Cost: this is a teaching sort. It does about n²/2 compare-exchanges whatever the
///   block size, and ceil(n / block_threads) launches; use it for small arrays only.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

namespace pplab::lab09 {

/// Threads per block unless the caller asks otherwise (windows of 512 keys).
inline constexpr int kBlockThreads = 256;

/// The largest n that odd_even_phases() accepts: one block of 1024 threads.
inline constexpr std::size_t kMaxPhasesKeys = 2048;

/// Sorts d_in[0, n) into d_out in ascending order, on `stream`.
/// Throws std::invalid_argument for a block size that is not a power of two in [1, 1024].
void odd_even_sort(const int* d_in, int* d_out, std::size_t n, int block_threads = kBlockThreads,
                   cudaStream_t stream = 0);

/// Runs the first `phases` phases of odd-even transposition on d_keys[0, n) in place, in
/// one block: phase 0 compares the pairs (0,1) (2,3) ..., phase 1 the pairs (1,2) (3,4) ...
/// After n phases the keys are sorted. For following the lecture's example phase by phase.
/// Throws std::invalid_argument when n > kMaxPhasesKeys.
void odd_even_phases(int* d_keys, std::size_t n, int phases, cudaStream_t stream = 0);

}  // namespace pplab::lab09
