/// \file
/// \brief Lab 05 contract: the naive (Hillis–Steele) scan, inclusive and exclusive.
///
/// Given: a device array `d_in` of `n` elements (int or float), a device array `d_out`
/// of `n` elements.
/// Asked: inclusive scan `d_out[i] = in[0] + ... + in[i]`, or exclusive scan
/// `d_out[i] = in[0] + ... + in[i-1]` (`d_out[0] = 0`), for every i in [0, n);
/// `d_in` is not changed.
/// Assume: `block_threads` is a power of two from 8 to 1024; n is anything (0 writes
/// nothing); `d_in` and `d_out` may be the same array (an in-place scan), but must not
/// otherwise overlap. Integer sums wrap like the CPU's; float sums may be added in any
/// order and are checked with a tolerance.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

namespace pplab::lab05 {

/// Threads per block (and elements per tile) unless the caller asks otherwise.
inline constexpr int kBlockThreads = 256;

/// d_out[i] = d_in[0] + ... + d_in[i], on `stream`. Throws std::invalid_argument for a
/// block size that is not a power of two in [8, 1024].
void inclusive_scan(const int* d_in, int* d_out, std::size_t n, int block_threads = kBlockThreads,
                    cudaStream_t stream = 0);
void inclusive_scan(const float* d_in, float* d_out, std::size_t n, int block_threads = kBlockThreads,
                    cudaStream_t stream = 0);

/// d_out[i] = d_in[0] + ... + d_in[i-1] and d_out[0] = 0, on `stream`. Same block sizes.
void exclusive_scan(const int* d_in, int* d_out, std::size_t n, int block_threads = kBlockThreads,
                    cudaStream_t stream = 0);
void exclusive_scan(const float* d_in, float* d_out, std::size_t n, int block_threads = kBlockThreads,
                    cudaStream_t stream = 0);

}  // namespace pplab::lab05
