// Red team (timing, sampled checks): a lab 08 file whose kernels are right, but whose
// scatter and inverse permutation skip the work on every other call after the first few,
// leaving the last draw's answer in place. At 2^18 elements the timer checks a repeat at
// 65,536 positions drawn after the run (pplab/fresh_inputs.h): a stale answer is wrong
// at nearly all of them, so both measurements must be unverified.
#include <cstddef>
#include <cstdint>

#include "gather_scatter.cuh"

namespace pplab::lab08 {
namespace {

template <class T>
__global__ void gather_kernel(const T* in, const std::uint32_t* map, T* out, std::size_t n) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[map[i]];
}

template <class T>
__global__ void scatter_kernel(const T* in, const std::uint32_t* map, T* out, std::size_t n) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[map[i]] = in[i];
}

__global__ void inverse_kernel(const std::uint32_t* perm, std::uint32_t* inv, std::size_t n) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) inv[perm[i]] = std::uint32_t(i);
}

unsigned blocks(std::size_t n) { return unsigned((n + kBlockThreads - 1) / kBlockThreads); }

// Right for the first calls (the warm-ups), then every other call returns at once.
bool skip_this_call() {
  static int calls = 0;
  ++calls;
  return calls > 3 && calls % 2 == 1;
}

}  // namespace

void gather_unchecked(const int* d_in, const std::uint32_t* d_map, int* d_out, std::size_t n, cudaStream_t stream) {
  if (n) gather_kernel<<<blocks(n), kBlockThreads, 0, stream>>>(d_in, d_map, d_out, n);
}
void gather_unchecked(const float* d_in, const std::uint32_t* d_map, float* d_out, std::size_t n, cudaStream_t stream) {
  if (n) gather_kernel<<<blocks(n), kBlockThreads, 0, stream>>>(d_in, d_map, d_out, n);
}
void scatter_unchecked(const int* d_in, const std::uint32_t* d_map, int* d_out, std::size_t n, cudaStream_t stream) {
  if (n && !skip_this_call()) scatter_kernel<<<blocks(n), kBlockThreads, 0, stream>>>(d_in, d_map, d_out, n);
}
void scatter_unchecked(const float* d_in, const std::uint32_t* d_map, float* d_out, std::size_t n,
                       cudaStream_t stream) {
  if (n) scatter_kernel<<<blocks(n), kBlockThreads, 0, stream>>>(d_in, d_map, d_out, n);
}
void inverse_permutation_unchecked(const std::uint32_t* d_perm, std::uint32_t* d_inv, std::size_t n,
                                   cudaStream_t stream) {
  if (n && !skip_this_call()) inverse_kernel<<<blocks(n), kBlockThreads, 0, stream>>>(d_perm, d_inv, n);
}

// The checked forms without their check: this file is timed, never graded.
void gather(const int* d_in, std::size_t, const std::uint32_t* d_map, int* d_out, std::size_t n, cudaStream_t s) {
  gather_unchecked(d_in, d_map, d_out, n, s);
}
void gather(const float* d_in, std::size_t, const std::uint32_t* d_map, float* d_out, std::size_t n, cudaStream_t s) {
  gather_unchecked(d_in, d_map, d_out, n, s);
}
void scatter(const int* d_in, const std::uint32_t* d_map, int* d_out, std::size_t, std::size_t n, cudaStream_t s) {
  scatter_unchecked(d_in, d_map, d_out, n, s);
}
void scatter(const float* d_in, const std::uint32_t* d_map, float* d_out, std::size_t, std::size_t n, cudaStream_t s) {
  scatter_unchecked(d_in, d_map, d_out, n, s);
}
void inverse_permutation(const std::uint32_t* d_perm, std::uint32_t* d_inv, std::size_t n, cudaStream_t s) {
  inverse_permutation_unchecked(d_perm, d_inv, n, s);
}
void check_indices(const char*, const std::uint32_t*, std::size_t, std::size_t, cudaStream_t) {}

}  // namespace pplab::lab08
