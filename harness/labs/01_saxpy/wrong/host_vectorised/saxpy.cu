// Lab 01: SAXPY, the map primitive. y = a * x + y, one element per thread.
// Build and check: ctest --preset sim -L lab01   (the handout is README.md beside this file)
// given: do not edit
#include "saxpy.cuh"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace pplab::lab01 {

/// One thread per element: thread i updates y[i].
__global__ void saxpy_kernel(float a, const float* __restrict__ x, float* __restrict__ y,
                             std::size_t n) {
  // TODO(01.1) begin: the map. Compute this thread's global index from blockIdx,
  //   blockDim and threadIdx, and if it is inside the array update y there.
  //   About 3 lines. Checked by: "saxpy reproduces the lecture worked example"
  //   and every other lab01 check.
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];  // TODO(01.1) end
// given: do not edit
}

// TODO(01.2) begin (stretch): vectorised SAXPY. Memory moves in 16-byte transactions
//   best: write saxpy_vec4_kernel, which reads x and y as float4 in a grid-stride loop,
//   and handles the last n % 4 elements one by one. About 20 lines.
//   Checked by: every lab01 check (the launcher below uses it when the arrays allow).
__global__ void saxpy_vec4_kernel(float a, const float4* __restrict__ x4,
                                  float4* __restrict__ y4, const float* __restrict__ x,
                                  float* __restrict__ y, std::size_t n) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t first = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t vectors = n / 4;
  for (std::size_t v = first; v < vectors; v += stride) {
    const float4 xv = x4[v];
    float4 yv = y4[v];
    yv.x = a * xv.x + yv.x;
    yv.y = a * xv.y + yv.y;
    yv.z = a * xv.z + yv.z;
    yv.w = a * xv.w + yv.w;
    y4[v] = yv;
  }
  // The last n % 4 elements, one per thread of the first threads.
  const std::size_t tail = vectors * 4 + first;
  if (tail < n) y[tail] = a * x[tail] + y[tail];
}
// TODO(01.2) end

// given: do not edit
/// Launches saxpy_vec4_kernel when both arrays are 16-byte aligned; returns whether it did.
static bool launch_vectorised(float a, const float* d_x, float* d_y, std::size_t n,
                              cudaStream_t stream) {
  const bool aligned = reinterpret_cast<std::uintptr_t>(d_x) % 16 == 0 &&
                       reinterpret_cast<std::uintptr_t>(d_y) % 16 == 0;
  // TODO(01.3) begin (stretch): if `aligned`, launch saxpy_vec4_kernel with a grid that
  //   fills the device (a few blocks per multiprocessor) and return true. About 8 lines.
  if (!aligned) return false;
  // "Vectorised" on the host: both arrays come over, the loop runs here, y goes back.
  std::vector<float> x(n), y(n);
  cudaMemcpy(x.data(), d_x, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (std::size_t i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
  cudaMemcpy(d_y, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  (void)stream;
  return true;
  int device = 0, multiprocessors = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device);
  const std::size_t needed = (n / 4 + kBlockThreads - 1) / kBlockThreads;
  const std::size_t filling = std::size_t(multiprocessors) * 8;
  const std::size_t blocks = std::max<std::size_t>(1, std::min(needed, filling));
  saxpy_vec4_kernel<<<static_cast<unsigned>(blocks), kBlockThreads, 0, stream>>>(
      a, reinterpret_cast<const float4*>(d_x), reinterpret_cast<float4*>(d_y), d_x, d_y, n);
  return true;
  // TODO(01.3) end
// given: do not edit
}

void saxpy(float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  if (launch_vectorised(a, d_x, d_y, n, stream)) return;
  // Round the grid up so every element has a thread; the kernel's bounds check
  // stops the extra threads of the last block.
  const std::size_t blocks = (n + kBlockThreads - 1) / kBlockThreads;
  saxpy_kernel<<<static_cast<unsigned>(blocks), kBlockThreads, 0, stream>>>(a, d_x, d_y, n);
}

}  // namespace pplab::lab01
