// The device's half of pplab/fresh_inputs.h: one thread per value, grid-strided, so a
// draw of 2^24 values costs the timer microseconds on a GPU.
#include "pplab/cuda_check.h"
#include "pplab/fresh_inputs.h"

namespace pplab {
namespace {

template <class T>
__global__ void fill_fresh_kernel(T* out, std::size_t n, Spread spread, std::uint64_t seed) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = fresh::value<T>(seed, i, n, spread);
}

template <class T>
void fill(T* d_out, std::size_t n, Spread spread, std::uint64_t seed, cudaStream_t stream) {
  if (n == 0) return;
  constexpr unsigned kThreads = 256;
  const std::size_t wanted = (n + kThreads - 1) / kThreads;
  const unsigned blocks = unsigned(wanted < 4096 ? wanted : 4096);
  fill_fresh_kernel<T><<<blocks, kThreads, 0, stream>>>(d_out, n, spread, seed);
  PPLAB_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void fill_fresh(int* d_out, std::size_t n, Spread spread, std::uint64_t seed, cudaStream_t stream) {
  fill(d_out, n, spread, seed, stream);
}
void fill_fresh(unsigned* d_out, std::size_t n, Spread spread, std::uint64_t seed, cudaStream_t stream) {
  fill(d_out, n, spread, seed, stream);
}
void fill_fresh(float* d_out, std::size_t n, Spread spread, std::uint64_t seed, cudaStream_t stream) {
  fill(d_out, n, spread, seed, stream);
}

}  // namespace pplab
