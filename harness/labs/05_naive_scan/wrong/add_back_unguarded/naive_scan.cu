// Lab 05: the naive scan (Hillis–Steele), following the lecture's "A B C D E" figure:
// at step k every element adds the element 2^k places to its left, so after log2(n)
// steps each one holds the sum of everything up to it. One block scans one tile of
// BLOCK_THREADS elements in shared memory; longer arrays scan the tiles, scan the
// tiles' totals (the same scan, called again), and add each tile's offset back.
// Build and check: ctest --preset sim -L lab05   (the handout is README.md beside this file)
// given: do not edit
#include "naive_scan.cuh"

#include <stdexcept>
#include <string>

#include "pplab/cuda_check.h"

namespace pplab::lab05 {

/// One block scans one tile of BLOCK_THREADS elements, one element per thread.
/// Writes the tile's inclusive (or exclusive) scan to `out` and, when `tile_sums` is
/// not null, the tile's total to `tile_sums[blockIdx.x]`.
/// `in` and `out` may be the same array: each thread reads its element before any
/// thread of the block writes, and blocks touch only their own tile.
template <class T, int BLOCK_THREADS>
__global__ void scan_tile_kernel(const T* in, T* out, T* tile_sums, std::size_t n, bool inclusive) {
  // Two copies of the tile: every step reads one copy and writes the other, so no
  // thread overwrites a value that another thread still has to read in the same step.
  __shared__ T buffer[2][BLOCK_THREADS];
  const int local_i = threadIdx.x;
  const std::size_t global_i = std::size_t(blockIdx.x) * BLOCK_THREADS + local_i;
  int current = 0;  // the copy that holds the latest step
  (void)buffer, (void)global_i, (void)current, (void)in, (void)out, (void)tile_sums, (void)n, (void)inclusive;

  // TODO(05.1) begin: load. Copy in[global_i] into buffer[0][local_i], or 0 (the
  //   identity of +) when global_i >= n, then wait until the whole tile is loaded.
  //   About 2 lines.
  //   Checked by: "naive scan reproduces the lecture example A B C D E"
  buffer[0][local_i] = global_i < n ? in[global_i] : T(0);
  __syncthreads();
  // TODO(05.1) end

  // TODO(05.2) begin: the Hillis–Steele steps. For offset = 1, 2, 4, ... while
  //   offset < BLOCK_THREADS: take buffer[current][local_i], add
  //   buffer[current][local_i - offset] when local_i >= offset, store the sum in
  //   buffer[1 - current][local_i], wait for the block, then current = 1 - current.
  //   About 7 lines.
  //   Checked by: "naive scan reproduces the lecture example A B C D E"; a missing
  //   barrier fails under one of the sim's thread orders.
  for (int offset = 1; offset < BLOCK_THREADS; offset *= 2) {
    T value = buffer[current][local_i];
    if (local_i >= offset) value += buffer[current][local_i - offset];
    buffer[1 - current][local_i] = value;
    __syncthreads();  // one barrier per step is enough: the next step writes the other copy
    current = 1 - current;
  }
  // TODO(05.2) end

  // TODO(05.3) begin: write. buffer[current] holds the tile's inclusive scan. Inclusive:
  //   out[global_i] = buffer[current][local_i]. Exclusive: the element to its left, or 0
  //   for local_i == 0. Only for global_i < n. Then the last thread of the block stores
  //   the tile's total in tile_sums[blockIdx.x] if tile_sums is not null. About 5 lines.
  //   Checked by: "exclusive naive scan matches the CPU reference at edge sizes"
  if (global_i < n) {
    const T left = local_i > 0 ? buffer[current][local_i - 1] : T(0);
    out[global_i] = inclusive ? buffer[current][local_i] : left;
  }
  if (tile_sums != nullptr && local_i == BLOCK_THREADS - 1) tile_sums[blockIdx.x] = buffer[current][local_i];
  // TODO(05.3) end
// given: do not edit
}

/// Adds tile_offsets[tile] (the exclusive scan of the tile totals: everything in the
/// tiles before this one) to every element of the tile.
template <class T, int BLOCK_THREADS>
__global__ void add_tile_offsets_kernel(T* out, const T* tile_offsets, std::size_t n) {
  const std::size_t global_i = std::size_t(blockIdx.x) * BLOCK_THREADS + threadIdx.x;
  (void)out, (void)tile_offsets, (void)n, (void)global_i;

  // TODO(05.4) begin: add back. If global_i < n, add tile_offsets[blockIdx.x] to
  //   out[global_i]. About 1 line.
  //   Checked by: "inclusive naive scan matches the CPU reference at edge sizes"
  //   (sizes above one tile).
  out[global_i] += tile_offsets[blockIdx.x];
  // TODO(05.4) end
// given: do not edit
}

/// Scans n elements with tiles of BLOCK_THREADS. One tile needs one launch; more tiles
/// need three steps: scan every tile (keeping each tile's total), exclusive-scan the
/// totals (this same function, on an array BLOCK_THREADS times shorter), and add each
/// tile's offset back.
template <class T, int BLOCK_THREADS>
static void scan(const T* d_in, T* d_out, std::size_t n, bool inclusive, cudaStream_t stream) {
  const std::size_t tiles = (n + BLOCK_THREADS - 1) / BLOCK_THREADS;
  if (tiles <= 1) {
    scan_tile_kernel<T, BLOCK_THREADS><<<1, BLOCK_THREADS, 0, stream>>>(d_in, d_out, nullptr, n, inclusive);
    return;
  }
  T* tile_sums = nullptr;  // scratch: the tiles' totals, scanned in place into their offsets
  PPLAB_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&tile_sums), tiles * sizeof(T), stream));
  const unsigned grid = static_cast<unsigned>(tiles);
  scan_tile_kernel<T, BLOCK_THREADS><<<grid, BLOCK_THREADS, 0, stream>>>(d_in, d_out, tile_sums, n, inclusive);
  scan<T, BLOCK_THREADS>(tile_sums, tile_sums, tiles, /*inclusive=*/false, stream);
  add_tile_offsets_kernel<T, BLOCK_THREADS><<<grid, BLOCK_THREADS, 0, stream>>>(d_out, tile_sums, n);
  PPLAB_CUDA_CHECK(cudaFreeAsync(tile_sums, stream));
}

template <class T>
static void dispatch(const T* d_in, T* d_out, std::size_t n, bool inclusive, int block_threads,
                     cudaStream_t stream) {
  if (block_threads < 8 || block_threads > 1024 || (block_threads & (block_threads - 1)) != 0)
    throw std::invalid_argument("naive scan: block_threads must be a power of two from 8 to 1024, not " +
                                std::to_string(block_threads));
  if (n == 0) return;
  switch (block_threads) {  // the tile size is a compile-time constant
    case 8: return scan<T, 8>(d_in, d_out, n, inclusive, stream);
    case 16: return scan<T, 16>(d_in, d_out, n, inclusive, stream);
    case 32: return scan<T, 32>(d_in, d_out, n, inclusive, stream);
    case 64: return scan<T, 64>(d_in, d_out, n, inclusive, stream);
    case 128: return scan<T, 128>(d_in, d_out, n, inclusive, stream);
    case 256: return scan<T, 256>(d_in, d_out, n, inclusive, stream);
    case 512: return scan<T, 512>(d_in, d_out, n, inclusive, stream);
    case 1024: return scan<T, 1024>(d_in, d_out, n, inclusive, stream);
  }
}

void inclusive_scan(const int* d_in, int* d_out, std::size_t n, int block_threads, cudaStream_t stream) {
  dispatch(d_in, d_out, n, true, block_threads, stream);
}
void inclusive_scan(const float* d_in, float* d_out, std::size_t n, int block_threads, cudaStream_t stream) {
  dispatch(d_in, d_out, n, true, block_threads, stream);
}
void exclusive_scan(const int* d_in, int* d_out, std::size_t n, int block_threads, cudaStream_t stream) {
  dispatch(d_in, d_out, n, false, block_threads, stream);
}
void exclusive_scan(const float* d_in, float* d_out, std::size_t n, int block_threads, cudaStream_t stream) {
  dispatch(d_in, d_out, n, false, block_threads, stream);
}

}  // namespace pplab::lab05
