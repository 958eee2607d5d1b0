/// \file
/// \brief Lab 02 contract: the dot product by a shared-memory tree reduction.
///
/// Given: device arrays `d_a`, `d_b` of `n` floats, a device float `d_result`.
/// Asked: `*d_result = a[0]*b[0] + ... + a[n-1]*b[n-1]` (0 for n = 0).
/// Assume: `block_threads` is a power of two from 8 to 1024; n is anything.
/// The float sum may be added in any order: it is checked with a tolerance that
/// grows with n.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

namespace pplab::lab02 {

/// Threads per block unless the caller asks otherwise.
inline constexpr int kBlockThreads = 256;

/// Writes the dot product of a and b to *d_result, on `stream`.
/// Throws std::invalid_argument for a block size that is not a power of two in [8, 1024].
void dot_product(const float* d_a, const float* d_b, float* d_result, std::size_t n,
                 int block_threads = kBlockThreads, cudaStream_t stream = 0);

}  // namespace pplab::lab02
