// Lab 08: gather and scatter, the two ways to move data by an index map.
// Gather reads through the map (out[i] = in[map[i]]): "which input goes to output i".
// Scatter writes through it (out[map[i]] = in[i]): "where does input i go".
// The inverse of a permutation is a scatter of the positions 0, 1, 2, ...
// Build and check: ctest --preset sim -L lab08   (the handout is README.md beside this file)
// given: do not edit
#include "gather_scatter.cuh"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace pplab::lab08 {

// ------------------------------------------------------------------------------------
// Kernels: one map entry per thread. Reading map[i] and writing out[i] (gather) or
// reading in[i] (scatter) are coalesced; the access through the map is not, and it is
// what decides the speed.

template <class T>
__global__ void gather_kernel(const T* __restrict__ in, const std::uint32_t* __restrict__ map,
                              T* __restrict__ out, std::size_t n) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  (void)i, (void)in, (void)map, (void)out, (void)n;
  // TODO(08.1) begin: gather. If i is inside the map, read the input element the map
  //   names for output i and store it in out[i]. About 2 lines.
  //   Checked by: "gather and scatter put the lecture array 5 1 4 2 3 in order" and
  //   every "gather ..." check.
  if (i < n) out[i] = in[map[i]];
  // TODO(08.1) end
// given: do not edit
}

template <class T>
__global__ void scatter_kernel(const T* __restrict__ in, const std::uint32_t* __restrict__ map,
                               T* __restrict__ out, std::size_t n) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  (void)i, (void)in, (void)map, (void)out, (void)n;
  // TODO(08.2) begin: scatter. If i is inside the map, store in[i] in the output slot
  //   the map names for input i. About 2 lines.
  //   Checked by: "gather and scatter put the lecture array 5 1 4 2 3 in order" and
  //   every "scatter ..." check.
  if (i < n) out[map[i]] = in[i];
  // TODO(08.2) end
// given: do not edit
}

__global__ void inverse_permutation_kernel(const std::uint32_t* __restrict__ perm,
                                           std::uint32_t* __restrict__ inv, std::size_t n) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  (void)i, (void)perm, (void)inv, (void)n;
  // TODO(08.3) begin: the inverse permutation. perm sends position i to perm[i]; the
  //   inverse sends it back: inv[perm[i]] = i. A scatter whose input is the position
  //   itself. About 2 lines.
  //   Checked by: "inverse permutation matches the CPU reference" and "the inverse of
  //   the inverse is the original permutation".
  if (i < n) inv[perm[i]] = static_cast<std::uint32_t>(i);
  // TODO(08.3) end
// given: do not edit
}

/// Finds the first i with map[i] >= bound: every offending thread offers its i to
/// atomicMin, so the smallest one wins whatever order the threads run in.
__global__ void find_out_of_range_kernel(const std::uint32_t* __restrict__ map, std::size_t n,
                                         std::size_t bound, unsigned long long* __restrict__ first_bad) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    if (map[i] >= bound) atomicMin(first_bad, static_cast<unsigned long long>(i));
}

// ------------------------------------------------------------------------------------
// Launchers.

static unsigned blocks_for(std::size_t n) {
  return static_cast<unsigned>((n + kBlockThreads - 1) / kBlockThreads);
}

static void require_32_bit(const char* what, std::size_t value) {
  if (value > 0xffffffffu)
    throw std::invalid_argument(std::string(what) + " = " + std::to_string(value) +
                                " is too large: indices are 32-bit (at most 2^32 - 1)");
}

/// Throws std::runtime_error for a failed CUDA call.
static void cuda_ok(cudaError_t status, const char* call) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("check_indices: ") + call + " failed: " + cudaGetErrorString(status));
}

void check_indices(const char* what, const std::uint32_t* d_map, std::size_t n, std::size_t bound,
                   cudaStream_t stream) {
  if (n == 0) return;
  unsigned long long* d_first_bad = nullptr;
  cuda_ok(cudaMalloc(&d_first_bad, sizeof *d_first_bad), "cudaMalloc");
  unsigned long long first_bad = ~0ull;
  std::uint32_t value = 0;
  cudaError_t status = cudaMemsetAsync(d_first_bad, 0xFF, sizeof *d_first_bad, stream);  // "none"
  if (status == cudaSuccess) {
    const unsigned blocks = std::min(blocks_for(n), 4096u);  // a grid-stride loop covers the rest
    find_out_of_range_kernel<<<blocks, kBlockThreads, 0, stream>>>(d_map, n, bound, d_first_bad);
    status = cudaMemcpyAsync(&first_bad, d_first_bad, sizeof first_bad, cudaMemcpyDeviceToHost, stream);
  }
  if (status == cudaSuccess) status = cudaStreamSynchronize(stream);
  if (status == cudaSuccess && first_bad < n)
    status = cudaMemcpy(&value, d_map + first_bad, sizeof value, cudaMemcpyDeviceToHost);
  cudaFree(d_first_bad);
  cuda_ok(status, "the index check");
  if (first_bad < n)
    throw std::invalid_argument(std::string(what) + "[" + std::to_string(first_bad) + "] = " +
                                std::to_string(value) + " is out of range: it must be below " +
                                std::to_string(bound) + " (n = " + std::to_string(n) + ")");
}

template <class T>
static void launch_gather(const T* d_in, const std::uint32_t* d_map, T* d_out, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  gather_kernel<T><<<blocks_for(n), kBlockThreads, 0, stream>>>(d_in, d_map, d_out, n);
}

template <class T>
static void launch_scatter(const T* d_in, const std::uint32_t* d_map, T* d_out, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  scatter_kernel<T><<<blocks_for(n), kBlockThreads, 0, stream>>>(d_in, d_map, d_out, n);
}

template <class T>
static void checked_gather(const T* d_in, std::size_t in_size, const std::uint32_t* d_map, T* d_out, std::size_t n,
                           cudaStream_t stream) {
  require_32_bit("gather: n", n);
  check_indices("gather: map", d_map, n, in_size, stream);
  launch_gather(d_in, d_map, d_out, n, stream);
}

template <class T>
static void checked_scatter(const T* d_in, const std::uint32_t* d_map, T* d_out, std::size_t out_size, std::size_t n,
                            cudaStream_t stream) {
  require_32_bit("scatter: n", n);
  check_indices("scatter: map", d_map, n, out_size, stream);
  launch_scatter(d_in, d_map, d_out, n, stream);
}

void gather(const int* d_in, std::size_t in_size, const std::uint32_t* d_map, int* d_out, std::size_t n,
            cudaStream_t stream) {
  checked_gather(d_in, in_size, d_map, d_out, n, stream);
}
void gather(const float* d_in, std::size_t in_size, const std::uint32_t* d_map, float* d_out, std::size_t n,
            cudaStream_t stream) {
  checked_gather(d_in, in_size, d_map, d_out, n, stream);
}
void scatter(const int* d_in, const std::uint32_t* d_map, int* d_out, std::size_t out_size, std::size_t n,
             cudaStream_t stream) {
  checked_scatter(d_in, d_map, d_out, out_size, n, stream);
}
void scatter(const float* d_in, const std::uint32_t* d_map, float* d_out, std::size_t out_size, std::size_t n,
             cudaStream_t stream) {
  checked_scatter(d_in, d_map, d_out, out_size, n, stream);
}

void inverse_permutation(const std::uint32_t* d_perm, std::uint32_t* d_inv, std::size_t n, cudaStream_t stream) {
  require_32_bit("inverse_permutation: n", n);
  check_indices("inverse_permutation: perm", d_perm, n, n, stream);
  inverse_permutation_unchecked(d_perm, d_inv, n, stream);
}

void gather_unchecked(const int* d_in, const std::uint32_t* d_map, int* d_out, std::size_t n, cudaStream_t stream) {
  launch_gather(d_in, d_map, d_out, n, stream);
}
void gather_unchecked(const float* d_in, const std::uint32_t* d_map, float* d_out, std::size_t n,
                      cudaStream_t stream) {
  launch_gather(d_in, d_map, d_out, n, stream);
}
void scatter_unchecked(const int* d_in, const std::uint32_t* d_map, int* d_out, std::size_t n, cudaStream_t stream) {
  launch_scatter(d_in, d_map, d_out, n, stream);
}
void scatter_unchecked(const float* d_in, const std::uint32_t* d_map, float* d_out, std::size_t n,
                       cudaStream_t stream) {
  launch_scatter(d_in, d_map, d_out, n, stream);
}

void inverse_permutation_unchecked(const std::uint32_t* d_perm, std::uint32_t* d_inv, std::size_t n,
                                   cudaStream_t stream) {
  if (n == 0) return;
  inverse_permutation_kernel<<<blocks_for(n), kBlockThreads, 0, stream>>>(d_perm, d_inv, n);
}

}  // namespace pplab::lab08
