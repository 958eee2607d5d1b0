// Lab 07: stream compaction, the lecture's "select the elements greater than 50".
// Three steps, each a kernel: flags (a map), an exclusive scan of the flags across
// blocks, and a scatter (a map) that copies each kept element to its scanned position.
// The stretch step fuses all three into one pass over the input.
// Build and check: ctest --preset sim -L lab07   (the handout is README.md beside this file)
// given: do not edit
#include "compact.cuh"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace pplab::lab07 {

// ------------------------------------------------------------------------------------
// Step 1: flags. flags[i] = 1 when in[i] is kept, else 0 (one thread per element).

template <class T>
__global__ void flag_kernel(const T* __restrict__ in, unsigned* __restrict__ flags, std::size_t n,
                            T threshold) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  (void)i, (void)in, (void)flags, (void)n, (void)threshold;
  // TODO(07.1) begin: the flag map. If i is inside the array, store 1 in flags[i] when
  //   in[i] > threshold and 0 otherwise. About 2 lines.
  //   Checked by: "compact reproduces the lecture example" and every other lab07 check.
  if (i < n) flags[i] = in[i] > threshold ? 1u : 0u;
  // TODO(07.1) end
// given: do not edit
}

// ------------------------------------------------------------------------------------
// Step 2: an exclusive scan of the flags, in place, over any number of blocks.
// Each block scans one tile of BLOCK_THREADS values and writes the tile's total; the
// tile totals are scanned the same way (recursively); then every element adds the
// scanned total of the tiles before its own.

/// Exclusive scan of one tile of BLOCK_THREADS values, in place; the tile's total goes
/// to tile_sums[blockIdx.x] unless tile_sums is null. Values past n count as 0.
template <int BLOCK_THREADS>
__global__ void scan_tile_kernel(unsigned* data, unsigned* tile_sums, std::size_t n) {
  __shared__ unsigned shared[BLOCK_THREADS];
  const unsigned t = threadIdx.x;
  const std::size_t i = std::size_t(blockIdx.x) * BLOCK_THREADS + t;
  const unsigned value = i < n ? data[i] : 0u;
  unsigned exclusive = 0;  // to compute: the sum of the tile's values before this thread's
  (void)shared;
  // TODO(07.2) begin: scan the tile. Put `value` in shared[t], then Hillis-Steele: for
  //   offset = 1, 2, 4, ... below BLOCK_THREADS, each thread adds shared[t - offset] (when
  //   t >= offset) to shared[t]. Read, barrier, write, barrier: a thread must not overwrite
  //   a value another thread has yet to read. shared[t] then holds the inclusive sum;
  //   subtract `value` to get `exclusive`. About 9 lines.
  //   Checked by: "compact matches the CPU reference at edge sizes" (several tiles).
  shared[t] = value;
  __syncthreads();
  for (unsigned offset = 1; offset < BLOCK_THREADS; offset *= 2) {
    const unsigned add = t >= offset ? shared[t - offset] : 0u;
    __syncthreads();  // every thread has read before any thread writes
    shared[t] += add;
    __syncthreads();  // every thread has written before the next read
  }
  exclusive = shared[t];  // the inclusive sum
  // TODO(07.2) end
  // given: do not edit
  if (i < n) data[i] = exclusive;
  if (tile_sums != nullptr && t == BLOCK_THREADS - 1) tile_sums[blockIdx.x] = exclusive + value;
}

/// Adds the scanned total of the tiles before each element's tile to the element.
template <int BLOCK_THREADS>
__global__ void add_tile_offsets_kernel(unsigned* data, const unsigned* tile_offsets, std::size_t n) {
  const std::size_t i = std::size_t(blockIdx.x) * BLOCK_THREADS + threadIdx.x;
  if (i < n) data[i] += tile_offsets[blockIdx.x];
}

static std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

/// Scratch values exclusive_scan needs beside the data: the tile totals of every level.
static std::size_t scan_scratch_items(std::size_t n) {
  std::size_t total = 0;
  for (std::size_t tiles = ceil_div(n, kBlockThreads); tiles > 1; tiles = ceil_div(tiles, kBlockThreads))
    total += tiles;
  return total;
}

/// Exclusive scan of data[0 .. n) in place. 2^28 values take four levels:
/// 2^28 values -> 2^20 tile totals -> 2^12 -> 16 -> one tile.
static void exclusive_scan(unsigned* data, std::size_t n, unsigned* scratch, cudaStream_t stream) {
  const std::size_t tiles = ceil_div(n, kBlockThreads);
  if (tiles <= 1) {
    scan_tile_kernel<kBlockThreads><<<1, kBlockThreads, 0, stream>>>(data, nullptr, n);
    return;
  }
  unsigned* tile_sums = scratch;
  scan_tile_kernel<kBlockThreads><<<static_cast<unsigned>(tiles), kBlockThreads, 0, stream>>>(data, tile_sums, n);
  exclusive_scan(tile_sums, tiles, scratch + tiles, stream);
  add_tile_offsets_kernel<kBlockThreads><<<static_cast<unsigned>(tiles), kBlockThreads, 0, stream>>>(data, tile_sums, n);
}

// ------------------------------------------------------------------------------------
// Step 3: scatter. Each kept element goes to out[positions[i]]; the thread of the last
// element writes the count.

template <class T>
__global__ void scatter_kernel(const T* __restrict__ in, const unsigned* __restrict__ positions,
                               T* __restrict__ out, unsigned* __restrict__ count, std::size_t n,
                               T threshold) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  (void)i, (void)in, (void)positions, (void)out, (void)count, (void)n, (void)threshold;
  // TODO(07.3) begin: the scatter map. If i is inside the array and in[i] > threshold,
  //   copy in[i] to out[positions[i]]. The thread of the last element (i == n - 1) also
  //   writes *count: the kept elements before it plus itself if it is kept. About 5 lines.
  //   Checked by: "compact reproduces the lecture example" and every other lab07 check.
  if (i >= n) return;
  const bool keep = in[i] > threshold;
  if (keep) out[positions[i]] = in[i];
  if (i == n - 1) *count = positions[i] + (keep ? 1u : 0u);
  // TODO(07.3) end
// given: do not edit
}

// ------------------------------------------------------------------------------------
// Stretch: one pass. The three kernels above read and write the input-sized flag array
// several times; the fast version reads the input once and writes only the kept
// elements. Each block takes one tile of kTileItems elements, counts its kept elements,
// and learns how many the tiles before it kept by "decoupled look-back" (Merrill and
// Garland, 2016): every tile publishes a status word as soon as it can, first its own
// count (an "aggregate"), then the count of everything up to and including itself (an
// "inclusive prefix"). A tile adds up its predecessors' words, walking back until it
// meets an inclusive prefix, so it rarely waits for more than the tile just before it.

inline constexpr int kSinglePassThreads = 256;
inline constexpr int kItemsPerThread = 16;
inline constexpr int kTileItems = kSinglePassThreads * kItemsPerThread;  // 4096 elements
/// Blocks each multiprocessor should hold at once: as many as fit, so that while one block
/// waits for its predecessors, the others keep the memory busy. The count caps registers
/// (65536 / (count * 256) a thread), and a count the GPU cannot hold caps nothing (ptxas
/// ignores it, with a warning), so each GPU's device pass asks for what that GPU holds:
/// 8 on sm_80 and sm_90 (2048 threads; 32 registers), 5 on sm_86 and sm_89 (100 KiB of
/// shared memory, 16 KiB a block and 1 KiB the GPU keeps for each; 48 registers), 3 on
/// sm_75 (64 KiB; 80 registers). Other GPUs get 5: asking for fewer than fit is safe.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 900 || __CUDA_ARCH__ == 1000
inline constexpr int kSinglePassBlocksPerSM = 8;
#elif __CUDA_ARCH__ == 750
inline constexpr int kSinglePassBlocksPerSM = 3;
#else
inline constexpr int kSinglePassBlocksPerSM = 5;
#endif
inline constexpr unsigned kFullMask = 0xffffffffu;

/// What a tile's status word says: its state in the high 32 bits, a count in the low 32.
enum TileState : unsigned {
  kTileNotReady = 0,   ///< nothing published yet (the memset before the launch)
  kTileAggregate = 1,  ///< the count is the tile's own number of kept elements
  kTilePrefix = 2,     ///< the count is the kept elements of this tile and all before it
};

/// Publishes a tile's status word; other blocks may read it at once. The state and the
/// count travel in one aligned 64-bit store, so a reader sees both or neither: no
/// __threadfence() is needed to order them (it would be, were they two words).
__device__ inline void publish_tile(unsigned long long* status, unsigned tile, TileState state, unsigned count) {
  *reinterpret_cast<volatile unsigned long long*>(status + tile) =
      (static_cast<unsigned long long>(state) << 32) | count;
}

/// Reads a tile's status word past the caches that could hold a stale copy.
__device__ inline unsigned long long read_tile(const unsigned long long* status, long long tile) {
  return *reinterpret_cast<const volatile unsigned long long*>(status + tile);
}

__device__ inline TileState state_of(unsigned long long word) { return static_cast<TileState>(word >> 32); }
__device__ inline unsigned count_of(unsigned long long word) { return static_cast<unsigned>(word); }

/// Inclusive sum across the 32 lanes of a warp (all lanes must call it).
__device__ inline unsigned warp_inclusive_sum(unsigned value, unsigned lane) {
  for (unsigned offset = 1; offset < 32; offset *= 2) {
    const unsigned below = __shfl_up_sync(kFullMask, value, offset);
    if (lane >= offset) value += below;
  }
  return value;
}

/// Waits about `nanoseconds` before polling again, so that warps waiting for their
/// predecessors do not flood the memory system with reads (on the emulator, a yield).
__device__ inline void back_off(unsigned nanoseconds) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  __nanosleep(nanoseconds);
#else
  (void)nanoseconds;
#endif
}

/// Sum across the 32 lanes of a warp, returned to every lane (all lanes must call it).
__device__ inline unsigned warp_sum(unsigned value) {
  for (unsigned offset = 16; offset > 0; offset /= 2) value += __shfl_xor_sync(kFullMask, value, offset);
  return value;
}

// TODO(07.4) begin (stretch): the single-pass kernel compact_single_pass_kernel<T>. One
//   block per tile; the tile number comes from atomicAdd on *tile_counter (so tile t-1
//   belongs to a block that is already running); each thread loads kItemsPerThread
//   consecutive elements (16-byte vector loads when `vector_loads` and the tile is full),
//   the block scans the threads' kept counts (warp_inclusive_sum plus one total per
//   warp), warp 0 looks back over tile_status with publish_tile/read_tile (32
//   predecessors at a time; __any_sync until none is kTileNotReady, with back_off
//   between polls; __ballot_sync for the nearest kTilePrefix), the kept elements are
//   staged in shared memory at their place in the tile and written out together, and
//   the last tile writes *count. Declare the kernel
//   __launch_bounds__(kSinglePassThreads, kSinglePassBlocksPerSM) (see the handout for
//   why). About 90 lines.
//   Checked by: every lab07 check (the launcher uses it when written).

/// The 16-byte vector type of a 4-byte element type.
template <class T> struct Vector4;
template <> struct Vector4<int> { using type = int4; };
template <> struct Vector4<float> { using type = float4; };

/// Warp 0 of the block: publishes the tile's own count, adds up the counts of the tiles
/// before it, publishes its inclusive prefix, and returns the exclusive prefix (how many
/// elements the tiles before this one kept) to every lane.
__device__ inline unsigned look_back(unsigned long long* tile_status, unsigned tile, unsigned tile_count,
                                     unsigned lane) {
  if (tile == 0) {
    if (lane == 0) publish_tile(tile_status, 0, kTilePrefix, tile_count);
    return 0;
  }
  if (lane == 0) publish_tile(tile_status, tile, kTileAggregate, tile_count);
  unsigned exclusive = 0;
  long long nearest = static_cast<long long>(tile) - 1;  // lane l reads tile nearest - l
  for (;;) {
    const long long predecessor = nearest - lane;
    unsigned long long word = 0;
    for (unsigned pause = 32;; pause = pause < 512 ? 2 * pause : pause) {
      // Before tile 0 counts as an inclusive prefix of 0.
      word = predecessor >= 0 ? read_tile(tile_status, predecessor)
                              : static_cast<unsigned long long>(kTilePrefix) << 32;
      if (!__any_sync(kFullMask, state_of(word) == kTileNotReady)) break;
      back_off(pause);
    }
    const unsigned prefixes = __ballot_sync(kFullMask, state_of(word) == kTilePrefix);
    if (prefixes != 0) {
      const unsigned stop = __ffs(prefixes) - 1;  // the nearest inclusive prefix
      exclusive += warp_sum(lane <= stop ? count_of(word) : 0u);
      break;
    }
    exclusive += warp_sum(count_of(word));  // 32 aggregates: keep walking back
    nearest -= 32;
  }
  if (lane == 0) publish_tile(tile_status, tile, kTilePrefix, exclusive + tile_count);
  return exclusive;
}

template <class T>
__global__ void __launch_bounds__(kSinglePassThreads, kSinglePassBlocksPerSM)
    compact_single_pass_kernel(const T* __restrict__ in, T* __restrict__ out, unsigned* __restrict__ count,
                               unsigned long long* tile_status, unsigned* tile_counter, std::size_t n,
                               T threshold, bool vector_loads) {
  constexpr int kWarps = kSinglePassThreads / 32;
  __shared__ T staged[kTileItems];
  __shared__ unsigned warp_totals[kWarps];
  __shared__ unsigned tile_shared, offset_shared;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  // Tiles in the order blocks start, so every earlier tile belongs to a running block.
  if (threadIdx.x == 0) tile_shared = atomicAdd(tile_counter, 1u);
  __syncthreads();
  const unsigned tile = tile_shared;
  const std::size_t tile_begin = std::size_t(tile) * kTileItems;
  const std::size_t first = tile_begin + std::size_t(threadIdx.x) * kItemsPerThread;

  // Load this thread's consecutive elements and flag them (bit j: element first + j).
  T items[kItemsPerThread];
  unsigned keep_bits = 0;
  if (vector_loads && tile_begin + kTileItems <= n) {
    using V = typename Vector4<T>::type;
    const V* vectors = reinterpret_cast<const V*>(in + first);
#pragma unroll
    for (int v = 0; v < kItemsPerThread / 4; ++v) {
      const V q = vectors[v];
      items[4 * v + 0] = q.x;
      items[4 * v + 1] = q.y;
      items[4 * v + 2] = q.z;
      items[4 * v + 3] = q.w;
    }
#pragma unroll
    for (int j = 0; j < kItemsPerThread; ++j) keep_bits |= (items[j] > threshold ? 1u : 0u) << j;
  } else {
#pragma unroll
    for (int j = 0; j < kItemsPerThread; ++j) {
      const bool inside = first + j < n;
      items[j] = inside ? in[first + j] : threshold;
      keep_bits |= (inside && items[j] > threshold ? 1u : 0u) << j;
    }
  }
  const unsigned kept = __popc(keep_bits);

  // Block-wide exclusive scan of the kept counts: within each warp, then across warps.
  const unsigned inclusive = warp_inclusive_sum(kept, lane);
  if (lane == 31) warp_totals[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    const unsigned total = warp_inclusive_sum(lane < kWarps ? warp_totals[lane] : 0u, lane);
    if (lane < kWarps) warp_totals[lane] = total;
  }
  __syncthreads();
  const unsigned tile_count = warp_totals[kWarps - 1];
  unsigned rank = (warp > 0 ? warp_totals[warp - 1] : 0u) + inclusive - kept;

  // Warp 0 finds where the tile's output starts while the others stage their elements.
  if (warp == 0) {
    const unsigned exclusive = look_back(tile_status, tile, tile_count, lane);
    if (lane == 0) offset_shared = exclusive;
  }
#pragma unroll
  for (int j = 0; j < kItemsPerThread; ++j)
    if (keep_bits & (1u << j)) staged[rank++] = items[j];
  __syncthreads();

  // Coalesced write of the tile's kept elements.
  const std::size_t offset = offset_shared;
  for (unsigned i = threadIdx.x; i < tile_count; i += kSinglePassThreads) out[offset + i] = staged[i];
  if (threadIdx.x == 0 && tile == gridDim.x - 1) *count = static_cast<unsigned>(offset + tile_count);
}
// TODO(07.4) end

// given: do not edit
/// Scratch bytes of the single pass: one status word per tile, then the tile counter.
static std::size_t single_pass_temp_bytes(std::size_t n) {
  return (ceil_div(n, kTileItems) + 1) * sizeof(unsigned long long);
}

/// Runs the single pass when it is written; returns whether it did.
template <class T>
static bool launch_single_pass(const T* d_in, T* d_out, unsigned* d_count, std::size_t n, T threshold,
                               void* d_temp, cudaStream_t stream) {
  const std::size_t tiles = ceil_div(n, kTileItems);
  auto* tile_status = static_cast<unsigned long long*>(d_temp);
  auto* tile_counter = reinterpret_cast<unsigned*>(tile_status + tiles);
  const bool vector_loads = reinterpret_cast<std::uintptr_t>(d_in) % 16 == 0;
  (void)tile_counter, (void)vector_loads;
  // TODO(07.5) begin (stretch): zero the status words and the tile counter (one
  //   cudaMemsetAsync of single_pass_temp_bytes(n) on `stream`), launch
  //   compact_single_pass_kernel<T> with one block of kSinglePassThreads per tile, and
  //   return true. About 5 lines.
  //   Checked by: every lab07 check (the tests ask for the single pass first).
  cudaMemsetAsync(d_temp, 0, single_pass_temp_bytes(n), stream);
  compact_single_pass_kernel<T><<<static_cast<unsigned>(tiles), kSinglePassThreads, 0, stream>>>(
      d_in, d_out, d_count, tile_status, tile_counter, n, threshold, vector_loads);
  return true;
  // TODO(07.5) end
// given: do not edit
}

// ------------------------------------------------------------------------------------
// Launchers.

/// The largest n: counts and positions are 32-bit.
static constexpr std::size_t kMaxItems = 0xffffffffu;

std::size_t compact_temp_bytes(std::size_t n) {
  const std::size_t three_kernels = (n + scan_scratch_items(n)) * sizeof(unsigned);
  return std::max(three_kernels, single_pass_temp_bytes(n));
}

static void check_size(std::size_t n) {
  if (n > kMaxItems)
    throw std::invalid_argument("compact: n = " + std::to_string(n) + " is too large (at most 2^32 - 1)");
}

template <class T>
static CompactPath run_compact(const T* d_in, T* d_out, unsigned* d_count, std::size_t n, T threshold,
                               void* d_temp, std::size_t temp_bytes, CompactPath path, cudaStream_t stream) {
  check_size(n);
  if (temp_bytes < compact_temp_bytes(n))
    throw std::invalid_argument("compact: temp_bytes = " + std::to_string(temp_bytes) + " but n = " +
                                std::to_string(n) + " needs " + std::to_string(compact_temp_bytes(n)));
  if (n == 0) {  // nothing to select: only the count to write
    cudaMemsetAsync(d_count, 0, sizeof(unsigned), stream);
    return CompactPath::three_kernels;
  }
  if (path == CompactPath::single_pass &&
      launch_single_pass(d_in, d_out, d_count, n, threshold, d_temp, stream))
    return CompactPath::single_pass;

  unsigned* positions = static_cast<unsigned*>(d_temp);  // flags, then their exclusive scan
  const unsigned blocks = static_cast<unsigned>(ceil_div(n, kBlockThreads));
  flag_kernel<T><<<blocks, kBlockThreads, 0, stream>>>(d_in, positions, n, threshold);
  exclusive_scan(positions, n, positions + n, stream);
  scatter_kernel<T><<<blocks, kBlockThreads, 0, stream>>>(d_in, positions, d_out, d_count, n, threshold);
  return CompactPath::three_kernels;
}

CompactPath compact_async(const int* d_in, int* d_out, unsigned* d_count, std::size_t n, int threshold,
                          void* d_temp, std::size_t temp_bytes, CompactPath path, cudaStream_t stream) {
  return run_compact(d_in, d_out, d_count, n, threshold, d_temp, temp_bytes, path, stream);
}

CompactPath compact_async(const float* d_in, float* d_out, unsigned* d_count, std::size_t n,
                          float threshold, void* d_temp, std::size_t temp_bytes, CompactPath path,
                          cudaStream_t stream) {
  return run_compact(d_in, d_out, d_count, n, threshold, d_temp, temp_bytes, path, stream);
}

/// Device memory that frees itself.
struct Scratch {
  void* data = nullptr;
  explicit Scratch(std::size_t bytes) {
    if (cudaMalloc(&data, std::max<std::size_t>(bytes, 1)) != cudaSuccess)
      throw std::runtime_error("compact: cudaMalloc of " + std::to_string(bytes) + " bytes failed");
  }
  ~Scratch() { cudaFree(data); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
};

template <class T>
static std::size_t compact_and_wait(const T* d_in, T* d_out, std::size_t n, T threshold, CompactPath path,
                                    cudaStream_t stream) {
  check_size(n);
  const std::size_t temp_bytes = compact_temp_bytes(n);
  Scratch temp(temp_bytes), count(sizeof(unsigned));
  run_compact(d_in, d_out, static_cast<unsigned*>(count.data), n, threshold, temp.data, temp_bytes, path, stream);
  unsigned kept = 0;
  cudaError_t status = cudaMemcpyAsync(&kept, count.data, sizeof kept, cudaMemcpyDeviceToHost, stream);
  if (status == cudaSuccess) status = cudaStreamSynchronize(stream);
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("compact: reading the count failed: ") + cudaGetErrorString(status));
  return kept;
}

std::size_t compact(const int* d_in, int* d_out, std::size_t n, int threshold, CompactPath path,
                    cudaStream_t stream) {
  return compact_and_wait(d_in, d_out, n, threshold, path, stream);
}

std::size_t compact(const float* d_in, float* d_out, std::size_t n, float threshold, CompactPath path,
                    cudaStream_t stream) {
  return compact_and_wait(d_in, d_out, n, threshold, path, stream);
}

}  // namespace pplab::lab07
