// Lab 03: reduce. Sum, min or max of an array, by the lecture's "find the largest
// element" tree: each block loads two elements per thread and keeps the larger (the
// first step of the tree happens during the load), halves the number of values with
// sequential addressing in shared memory until one warp's worth is left, and lets
// that warp finish with register shuffles. The block's answer goes to a list of
// block results; the launcher runs the same kernel on that list until one block
// gives the final answer.
// Build and check: ctest --preset sim -L lab03   (the handout is README.md beside this file)
// given: do not edit
#include "reduce.cuh"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace pplab::lab03 {

inline constexpr int kWarpSize = 32;

/// The lanes that finish a block's reduction with shuffles: one whole warp, or the
/// whole block when the block is smaller than a warp (the 8-thread worked example).
template <int BLOCK_THREADS>
struct FinishingWarp {
  static constexpr int kLanes = BLOCK_THREADS < kWarpSize ? BLOCK_THREADS : kWarpSize;
  static constexpr unsigned kMask = kLanes == kWarpSize ? 0xffffffffu : (1u << kLanes) - 1u;
};

/// Reduces one value per thread to one value for the whole block, returned in thread 0
/// (what the other threads get back is unspecified). Every thread of the block must
/// call it. `shared` holds BLOCK_THREADS values.
template <int BLOCK_THREADS, class T, class Op>
__device__ T block_reduce(T value, T* shared, Op op) {
  constexpr int kLanes = FinishingWarp<BLOCK_THREADS>::kLanes;
  constexpr unsigned kMask = FinishingWarp<BLOCK_THREADS>::kMask;
  const unsigned local_i = threadIdx.x;
  shared[local_i] = value;
  __syncthreads();
  (void)kLanes, (void)kMask;

  // TODO(03.2) begin: the tree, sequential addressing. For stride = BLOCK_THREADS / 2
  //   down to kWarpSize (halving), threads with local_i < stride combine
  //   shared[local_i + stride] into shared[local_i] with op; every thread waits at a
  //   barrier after each level. The active threads are always the first `stride` ones,
  //   so whole warps either work or idle. Stop once kWarpSize values are left (a block
  //   of 32 threads or fewer skips the loop). About 5 lines.
  //   Checked by: every lab03 check; a missing barrier fails under some sim schedule.
  for (unsigned stride = BLOCK_THREADS / 2; stride >= kWarpSize; stride /= 2) {
    if (local_i < stride) shared[local_i] = op(shared[local_i], shared[local_i + stride]);
  }
  // TODO(03.2) end

  // TODO(03.3) begin: the warp-shuffle finish. The first kLanes threads read
  //   shared[local_i] into `value`, then for offset = kLanes / 2 down to 1 (halving)
  //   combine in __shfl_down_sync(kMask, value, offset, kLanes): the same tree, with
  //   registers instead of shared memory and no __syncthreads. Thread 0 ends with the
  //   block's answer. About 5 lines.
  //   Checked by: "max reproduces the lecture example (16 elements 8 threads give 20)"
  if (local_i < kLanes) {
    value = shared[local_i];
    for (int offset = kLanes / 2; offset > 0; offset /= 2)
      value = op(value, __shfl_down_sync(kMask, value, offset, kLanes));
  }
  // TODO(03.3) end
  // given: do not edit
  return value;
}

/// Block b reduces the tile in[b * 2 * BLOCK_THREADS, (b + 1) * 2 * BLOCK_THREADS)
/// (cut off at n) to one value, block_results[b].
template <int BLOCK_THREADS, class T, class Op>
__global__ void reduce_kernel(const T* __restrict__ in, T* __restrict__ block_results,
                              std::size_t n, Op op) {
  __shared__ T shared[BLOCK_THREADS];
  const std::size_t tile_start = std::size_t(blockIdx.x) * (2 * BLOCK_THREADS);
  const std::size_t i = tile_start + threadIdx.x;
  T value = op.identity();
  (void)i, (void)in, (void)n;

  // TODO(03.1) begin: first add during load. Each thread combines the two elements
  //   in[i] and in[i + BLOCK_THREADS] of its block's tile into `value`, so the tree
  //   starts with half as many values and no thread idles during the load. An element
  //   at or past n does not exist: leave `value` as op.identity() for it (not 0: the
  //   max of negative numbers is not 0). About 2 lines.
  //   Checked by: "max of negative values is negative and min of positive values is positive"
  if (i < n) value = in[i];
  if (i + BLOCK_THREADS < n) value = op(value, in[i + BLOCK_THREADS]);
  // TODO(03.1) end

  // given: do not edit
  value = block_reduce<BLOCK_THREADS>(value, shared, op);
  if (threadIdx.x == 0) block_results[blockIdx.x] = value;
}

/// 16-byte vectors of the element types, for the stretch kernel's loads.
template <class T>
struct Vector4;
template <>
struct Vector4<int> {
  using type = int4;
};
template <>
struct Vector4<float> {
  using type = float4;
};

/// Vectors each thread of the stretch kernel loads: 4 x 16 bytes in flight per thread.
inline constexpr int kVectorsPerThread = 4;
/// Elements per block of the stretch kernel.
template <int BLOCK_THREADS>
inline constexpr std::size_t kVectorTileItems = std::size_t(BLOCK_THREADS) * kVectorsPerThread * 4;

/// Stretch: block b reduces the tile of kVectorTileItems elements starting at
/// b * kVectorTileItems to block_results[b]. `in` is 16-byte aligned.
template <int BLOCK_THREADS, class T, class Op>
__global__ void reduce_vector_kernel(const T* __restrict__ in, T* __restrict__ block_results,
                                     std::size_t n, Op op) {
  __shared__ T shared[BLOCK_THREADS];
  using Vector = typename Vector4<T>::type;
  constexpr std::size_t kTileItems = kVectorTileItems<BLOCK_THREADS>;
  const std::size_t tile_start = std::size_t(blockIdx.x) * kTileItems;
  T value = op.identity();
  (void)tile_start, (void)in, (void)n, (void)sizeof(Vector);

  // TODO(03.4) begin (stretch): several items per thread with 16-byte loads. A GPU
  //   reads memory fastest with many wide loads in flight at once. When the whole tile
  //   is inside the array, view it as Vectors and let each thread load the
  //   kVectorsPerThread vectors tile[k * BLOCK_THREADS + threadIdx.x] (neighbouring
  //   threads read neighbouring vectors) into registers, all before combining any, then
  //   fold their 4 * kVectorsPerThread values into `value`. In the last, partial tile,
  //   combine in[tile_start + threadIdx.x + k * BLOCK_THREADS] one at a time while
  //   inside the array. About 15 lines.
  //   Checked by: every lab03 check (the launcher uses this kernel once TODO(03.5) says so).
  if (tile_start + kTileItems <= n) {
    const Vector* tile = reinterpret_cast<const Vector*>(in + tile_start);
    Vector loaded[kVectorsPerThread];
#pragma unroll
    for (int k = 0; k < kVectorsPerThread; ++k) loaded[k] = tile[k * BLOCK_THREADS + threadIdx.x];
#pragma unroll
    for (int k = 0; k < kVectorsPerThread; ++k)
      value = op(value, op(op(loaded[k].x, loaded[k].y), op(loaded[k].z, loaded[k].w)));
  } else {
    for (std::size_t i = tile_start + threadIdx.x; i < n; i += BLOCK_THREADS) value = op(value, in[i]);
  }
  // TODO(03.4) end

  // given: do not edit
  value = block_reduce<BLOCK_THREADS>(value, shared, op);
  if (threadIdx.x == 0) block_results[blockIdx.x] = value;
}

// TODO(03.5) begin (stretch): switch the launcher over to reduce_vector_kernel once
//   TODO(03.4) is done, by setting this to true. About 1 line.
//   Checked by: every lab03 check (then run on the stretch kernel).
inline constexpr bool kUseVectorKernel = true;
// TODO(03.5) end

// given: do not edit
/// Device memory for block results, kept between calls and grown when too small.
static void* scratch(std::size_t bytes) {
  static void* buffer = nullptr;
  static std::size_t capacity = 0;
  if (bytes > capacity) {
    if (buffer) cudaFree(buffer);  // waits for earlier work that may still read it
    buffer = nullptr;
    capacity = 0;
    if (cudaMalloc(&buffer, bytes) != cudaSuccess)
      throw std::runtime_error("reduce: cannot allocate " + std::to_string(bytes) + " bytes of scratch");
    capacity = bytes;
  }
  return buffer;
}

static bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

/// Pass after pass: n values become one per block, those become one per block of the
/// next pass, ... until a pass needs only one block, which writes *d_out. Two scratch
/// lists take turns holding the block results. With n = 0 the one block of the first
/// pass reads nothing and writes op.identity().
template <int BLOCK_THREADS, class T, class Op>
static void reduce_passes(const T* d_in, T* d_out, std::size_t n, Op op, cudaStream_t stream) {
  constexpr std::size_t kScalarTile = 2 * BLOCK_THREADS;
  constexpr std::size_t kVectorTile = kVectorTileItems<BLOCK_THREADS>;
  auto blocks_for = [](std::size_t count, std::size_t tile) {
    return std::max<std::size_t>(1, (count + tile - 1) / tile);
  };
  // The lists never hold more than the first pass's results (by the smaller tile),
  // and the second list never more than a second pass's.
  const std::size_t first_results = blocks_for(n, kScalarTile);
  const std::size_t second_offset = (first_results + 3) / 4 * 4;  // keep it 16-byte aligned
  T* lists = static_cast<T*>(scratch((second_offset + blocks_for(first_results, kScalarTile)) * sizeof(T)));
  T* results[2] = {lists, lists + second_offset};

  const T* in = d_in;
  std::size_t count = n;
  for (int pass = 0;; ++pass) {
    const bool vectorised = kUseVectorKernel && aligned16(in);
    const std::size_t blocks = blocks_for(count, vectorised ? kVectorTile : kScalarTile);
    T* out = blocks == 1 ? d_out : results[pass % 2];
    if (vectorised)
      reduce_vector_kernel<BLOCK_THREADS><<<static_cast<unsigned>(blocks), BLOCK_THREADS, 0, stream>>>(
          in, out, count, op);
    else
      reduce_kernel<BLOCK_THREADS><<<static_cast<unsigned>(blocks), BLOCK_THREADS, 0, stream>>>(
          in, out, count, op);
    if (blocks == 1) return;
    in = out;
    count = blocks;
  }
}

template <class T, class Op>
void reduce(const T* d_in, T* d_out, std::size_t n, Op op, int block_threads, cudaStream_t stream) {
  switch (block_threads) {  // the tree's size is a compile-time constant
    case 8: return reduce_passes<8>(d_in, d_out, n, op, stream);
    case 16: return reduce_passes<16>(d_in, d_out, n, op, stream);
    case 32: return reduce_passes<32>(d_in, d_out, n, op, stream);
    case 64: return reduce_passes<64>(d_in, d_out, n, op, stream);
    case 128: return reduce_passes<128>(d_in, d_out, n, op, stream);
    case 256: return reduce_passes<256>(d_in, d_out, n, op, stream);
    case 512: return reduce_passes<512>(d_in, d_out, n, op, stream);
    case 1024: return reduce_passes<1024>(d_in, d_out, n, op, stream);
  }
  throw std::invalid_argument("reduce: block_threads must be a power of two from 8 to 1024, not " +
                              std::to_string(block_threads));
}

// The six reductions the contract promises.
template void reduce<int, Sum<int>>(const int*, int*, std::size_t, Sum<int>, int, cudaStream_t);
template void reduce<int, Min<int>>(const int*, int*, std::size_t, Min<int>, int, cudaStream_t);
template void reduce<int, Max<int>>(const int*, int*, std::size_t, Max<int>, int, cudaStream_t);
template void reduce<float, Sum<float>>(const float*, float*, std::size_t, Sum<float>, int, cudaStream_t);
template void reduce<float, Min<float>>(const float*, float*, std::size_t, Min<float>, int, cudaStream_t);
template void reduce<float, Max<float>>(const float*, float*, std::size_t, Max<float>, int, cudaStream_t);

}  // namespace pplab::lab03
