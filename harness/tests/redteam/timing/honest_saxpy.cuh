// The real lab 01 work, for the timing attacks in this folder: each attack does it
// whenever it answers, so what it attacks is the timer alone. Each runner includes
// this from its one attack file.
#pragma once
#include <cstddef>

#include "saxpy.cuh"

namespace pplab::lab01 {
namespace {

__global__ void saxpy_kernel(float a, const float* x, float* y, std::size_t n) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// y = a * x + y on `stream`, as the reference computes it.
void honest_saxpy(float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  const unsigned blocks = unsigned((n + 255) / 256);
  saxpy_kernel<<<blocks, 256, 0, stream>>>(a, d_x, d_y, n);
}

}  // namespace
}  // namespace pplab::lab01
