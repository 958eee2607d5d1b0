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

template <class T>
__global__ void gather_at_kernel(const T* src, const std::uint64_t* positions, std::size_t count, T* out) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t k = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; k < count; k += stride)
    out[k] = src[positions[k]];
}

template <class T>
void gather(const T* d_src, const std::uint64_t* d_positions, std::size_t count, T* d_out, cudaStream_t stream) {
  if (count == 0) return;
  constexpr unsigned kThreads = 256;
  const std::size_t wanted = (count + kThreads - 1) / kThreads;
  gather_at_kernel<T><<<unsigned(wanted < 1024 ? wanted : 1024), kThreads, 0, stream>>>(d_src, d_positions, count,
                                                                                          d_out);
  PPLAB_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void gather_at(const int* d_src, const std::uint64_t* d_positions, std::size_t count, int* d_out,
               cudaStream_t stream) {
  gather(d_src, d_positions, count, d_out, stream);
}
void gather_at(const unsigned* d_src, const std::uint64_t* d_positions, std::size_t count, unsigned* d_out,
               cudaStream_t stream) {
  gather(d_src, d_positions, count, d_out, stream);
}
void gather_at(const float* d_src, const std::uint64_t* d_positions, std::size_t count, float* d_out,
               cudaStream_t stream) {
  gather(d_src, d_positions, count, d_out, stream);
}

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
