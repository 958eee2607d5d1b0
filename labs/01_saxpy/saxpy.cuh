/// \file
/// \brief Lab 01 contract: SAXPY, the map primitive.
///
/// Given: device arrays `d_x` and `d_y` of `n` floats, a scalar `a`.
/// Asked: `d_y[i] = a * d_x[i] + d_y[i]` for every i in [0, n), nothing else written.
/// Assume: nothing about n (0 and sizes that are not multiples of the block are checked);
/// the arrays do not overlap; they may start at any 4-byte-aligned address.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

namespace pplab::lab01 {

/// Threads per block of the main launch.
inline constexpr int kBlockThreads = 256;

/// y = a * x + y over n elements, on `stream`. Returns once the work is queued.
void saxpy(float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t stream = 0);

}  // namespace pplab::lab01
