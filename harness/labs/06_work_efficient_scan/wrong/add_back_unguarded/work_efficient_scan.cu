// Lab 06: the work-efficient scan (Blelloch). One block scans a tile of 2 * BLOCK_THREADS
// elements in shared memory in two sweeps over a balanced tree: the up-sweep builds
// partial sums towards the root (a reduction, n - 1 additions), the down-sweep pushes
// prefixes back to the leaves (n - 1 more). That is O(n) work, against the naive scan's
// O(n log n). Longer arrays scan their tiles, scan the tiles' totals and add them back.
//
// Stretch (06.6): a single-pass scan with decoupled look-back (Merrill & Garland,
// 2016), which reads each element once and writes it once; the launcher uses it when
// it is written.
// Build and check: ctest --preset sim -L lab06   (the handout is README.md beside this file)
// given: do not edit
#include "work_efficient_scan.cuh"

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "pplab/cuda_check.h"

namespace pplab::lab06 {

// ---------------------------------------------------------------------------------------
// Part 1: the Blelloch scan of one tile, and tiles across the array.
// ---------------------------------------------------------------------------------------

/// Shared memory has 32 banks of 4 bytes; log2 of that count.
constexpr int kLogBanks = 5;

/// The shared-memory slot of tile element i. The trees read and write elements whose
/// indices are multiples of 2, 4, 8, ...: without padding, the threads of a warp land in
/// the same few banks and their accesses are served one after another.
__host__ __device__ inline int padded(int i) {
  int padding = 0;
  (void)kLogBanks;
  // TODO(06.3) begin: bank-conflict padding. Leave one empty slot after every 32
  //   elements: padding = i / 32, written as a shift by kLogBanks. About 1 line.
  //   Checked by: "bank conflict padding adds one slot every 32 elements"
  padding = i >> kLogBanks;
  // TODO(06.3) end
  // given: do not edit
  return i + padding;
}

int shared_slot(int i) { return padded(i); }

/// One block scans one tile of TILE = 2 * BLOCK_THREADS elements: thread t owns elements
/// t and t + BLOCK_THREADS of the tile. Writes the tile's exclusive (or inclusive) scan
/// to `out` and, when `tile_sums` is not null, the tile's total to tile_sums[blockIdx.x].
/// `in` and `out` may be the same array: each element is read and written by one thread.
template <class T, int BLOCK_THREADS>
__global__ void scan_tile_kernel(const T* in, T* out, T* tile_sums, std::size_t n, bool inclusive) {
  constexpr int TILE = 2 * BLOCK_THREADS;
  __shared__ T tile[TILE + TILE / 32];  // room for the padding of step 06.3
  const int t = threadIdx.x;
  const std::size_t tile_start = std::size_t(blockIdx.x) * TILE;
  const int a = t, b = t + BLOCK_THREADS;  // this thread's two elements (coalesced loads)
  const T in_a = tile_start + a < n ? in[tile_start + a] : T(0);
  const T in_b = tile_start + b < n ? in[tile_start + b] : T(0);
  tile[padded(a)] = in_a;
  tile[padded(b)] = in_b;
  (void)out, (void)tile_sums, (void)inclusive;

  // TODO(06.1) begin: up-sweep. For stride = 1, 2, 4, ... while stride < TILE: wait for
  //   the block (the first wait also covers the loads above), then each of the first
  //   TILE / (2 * stride) threads adds tile[left] into tile[right], where
  //   left = stride * (2t + 1) - 1 and right = stride * (2t + 2) - 1. Index shared
  //   memory through padded(). The tile's total ends in the last element. About 8 lines.
  //   Checked by: "work efficient scan reproduces the up-sweep and down-sweep of 8 elements"
  for (int stride = 1; stride < TILE; stride *= 2) {
    __syncthreads();
    if (t < TILE / (2 * stride)) {
      const int left = stride * (2 * t + 1) - 1;
      const int right = stride * (2 * t + 2) - 1;
      tile[padded(right)] += tile[padded(left)];
    }
  }
  // TODO(06.1) end

  // TODO(06.2) begin: down-sweep. Thread 0 (which wrote the root) stores the tile's total
  //   in tile_sums[blockIdx.x] when tile_sums is not null, and replaces the root with 0.
  //   Then for stride = TILE / 2, ..., 2, 1: wait for the block, and each of the first
  //   TILE / (2 * stride) threads, with left and right as in 06.1, swaps and adds:
  //   the left child gets the parent's value, the right child gets parent + old left.
  //   Wait for the block once more at the end. About 14 lines.
  //   Checked by: "work efficient scan reproduces the up-sweep and down-sweep of 8 elements"
  if (t == 0) {
    if (tile_sums != nullptr) tile_sums[blockIdx.x] = tile[padded(TILE - 1)];
    tile[padded(TILE - 1)] = T(0);
  }
  for (int stride = TILE / 2; stride >= 1; stride /= 2) {
    __syncthreads();
    if (t < TILE / (2 * stride)) {
      const int left = stride * (2 * t + 1) - 1;
      const int right = stride * (2 * t + 2) - 1;
      const T left_value = tile[padded(left)];
      tile[padded(left)] = tile[padded(right)];
      tile[padded(right)] += left_value;
    }
  }
  __syncthreads();
  // TODO(06.2) end

  // TODO(06.4) begin: write. The tile now holds its exclusive scan. Store element a at
  //   out[tile_start + a] and element b at out[tile_start + b], each only when inside
  //   the array; an inclusive scan adds the element itself (in_a, in_b). About 4 lines.
  //   Checked by: "inclusive work efficient scan matches the CPU reference at edge sizes"
  if (tile_start + a < n) out[tile_start + a] = inclusive ? tile[padded(a)] + in_a : tile[padded(a)];
  if (tile_start + b < n) out[tile_start + b] = inclusive ? tile[padded(b)] + in_b : tile[padded(b)];
  // TODO(06.4) end
// given: do not edit
}

/// Adds tile_offsets[tile] (the exclusive scan of the tile totals) to every element of
/// the tile; thread t handles elements t and t + BLOCK_THREADS, as in the scan.
template <class T, int BLOCK_THREADS>
__global__ void add_tile_offsets_kernel(T* out, const T* tile_offsets, std::size_t n) {
  const std::size_t tile_start = std::size_t(blockIdx.x) * 2 * BLOCK_THREADS;
  const std::size_t a = tile_start + threadIdx.x, b = a + BLOCK_THREADS;
  (void)out, (void)tile_offsets, (void)n, (void)a, (void)b;

  // TODO(06.5) begin: add back. Add tile_offsets[blockIdx.x] to out[a] and out[b], each
  //   only when inside the array. About 3 lines.
  //   Checked by: "exclusive work efficient scan matches the CPU reference at edge sizes"
  //   (sizes above one tile).
  const T offset = tile_offsets[blockIdx.x];
  out[a] += offset;
  out[b] += offset;
  // TODO(06.5) end
// given: do not edit
}

/// How many tile totals a scan of n elements keeps at every level together.
static std::size_t tile_sums_needed(std::size_t n, std::size_t tile) {
  std::size_t total = 0;
  for (std::size_t tiles = (n + tile - 1) / tile; tiles > 1; tiles = (tiles + tile - 1) / tile) total += tiles;
  return total;
}

/// Scans n elements with tiles of 2 * BLOCK_THREADS: scan every tile (keeping its
/// total in `scratch`), exclusive-scan the totals in place (the same function, on an
/// array TILE times shorter, using the rest of `scratch`), and add them back.
template <class T, int BLOCK_THREADS>
static void scan_tiles(const T* d_in, T* d_out, std::size_t n, bool inclusive, T* scratch,
                       cudaStream_t stream) {
  constexpr std::size_t TILE = 2 * BLOCK_THREADS;
  const std::size_t tiles = (n + TILE - 1) / TILE;
  if (tiles <= 1) {
    scan_tile_kernel<T, BLOCK_THREADS><<<1, BLOCK_THREADS, 0, stream>>>(d_in, d_out, nullptr, n, inclusive);
    return;
  }
  T* tile_sums = scratch;
  const unsigned grid = static_cast<unsigned>(tiles);
  scan_tile_kernel<T, BLOCK_THREADS><<<grid, BLOCK_THREADS, 0, stream>>>(d_in, d_out, tile_sums, n, inclusive);
  scan_tiles<T, BLOCK_THREADS>(tile_sums, tile_sums, tiles, /*inclusive=*/false, scratch + tiles, stream);
  add_tile_offsets_kernel<T, BLOCK_THREADS><<<grid, BLOCK_THREADS, 0, stream>>>(d_out, tile_sums, n);
}

// ---------------------------------------------------------------------------------------
// Part 2 (stretch): one pass with decoupled look-back.
//
// Tiles are numbered in the order their blocks start (an atomic counter), so every
// earlier tile belongs to a block that is running or done. Each tile publishes, in one
// 64-bit word per tile, a status and a value: AGGREGATE (the tile's own total) as soon
// as it is known, PREFIX (the total of everything up to and including the tile) once
// its look-back is done. A tile looks back over the words of earlier tiles, adding
// aggregates until it meets a prefix, so it rarely waits for the tile just before it.
// ---------------------------------------------------------------------------------------

constexpr int kPassThreads = 256;                     // threads per block
constexpr int kPassWarps = kPassThreads / 32;
constexpr int kVectors = 4;                           // 16-byte vectors per thread
constexpr int kItems = 4 * kVectors;                  // items per thread
constexpr int kWarpItems = 32 * kItems;               // items per warp (512)
constexpr int kTileItems = kPassThreads * kItems;     // items per tile (4096)

/// A tile's status word: the status in the high 32 bits, the value's bits in the low.
using StatusWord = unsigned long long;
enum : unsigned { kInvalid = 0, kAggregate = 1, kPrefix = 2 };

template <class T>
__host__ __device__ inline StatusWord pack(unsigned status, T value) {
  static_assert(sizeof(T) == 4, "the status word packs a 4-byte value");
  unsigned bits;
  std::memcpy(&bits, &value, sizeof bits);
  return (StatusWord(status) << 32) | bits;
}
__host__ __device__ inline unsigned status_of(StatusWord word) { return unsigned(word >> 32); }
template <class T>
__host__ __device__ inline T value_of(StatusWord word) {
  const unsigned bits = unsigned(word);
  T value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

/// Publishes a tile's word. One 64-bit atomic store: a reader sees the old word or the
/// new one, never a status with half a value. The fence orders this thread's earlier
/// global writes before the flag (needed when value and flag are separate words; with
/// one packed word it is cheap insurance).
__device__ inline void publish(StatusWord* word, StatusWord packed) {
  __threadfence();
  atomicExch(word, packed);
}

/// Reads a tile's word from memory every time (volatile: not from a register or L1).
__device__ inline StatusWord read_status(const StatusWord* word) {
  return *reinterpret_cast<const volatile StatusWord*>(word);
}

/// Called by the 32 lanes of warp 0 of tile `tile` (> 0) with the tile's total.
/// Publishes AGGREGATE, adds up earlier tiles until it meets a PREFIX, publishes this
/// tile's PREFIX, and returns the exclusive prefix (the total of tiles 0 .. tile-1) to
/// every lane.
template <class T>
__device__ T look_back(StatusWord* status, long long tile, T aggregate) {
  const int lane = threadIdx.x % 32;
  T exclusive = T(0);
  (void)status, (void)tile, (void)aggregate, (void)lane;

  // TODO(06.6) begin (stretch): decoupled look-back.
  //   1. Lane 0 publishes pack(kAggregate, aggregate) at status[tile] (use publish()).
  //   2. Look at a window of 32 earlier tiles, lane l reading tile (end - 1 - l), starting
  //      with end = tile; a tile before 0 reads as a PREFIX of 0. While any lane of the
  //      warp reads kInvalid, read again (__any_sync keeps the warp together).
  //   3. __ballot_sync the lanes that read kPrefix. Lanes up to and including the first
  //      such lane (the nearest PREFIX) contribute their value, the others 0; add the
  //      warp's sum (shuffles) to `exclusive`. Stop if there was a PREFIX, else end -= 32.
  //   4. Lane 0 publishes pack(kPrefix, exclusive + aggregate). About 25 lines.
  //   Checked by: "single pass scan matches the CPU reference at edge sizes"
  if (lane == 0) publish(&status[tile], pack(kAggregate, aggregate));
  long long end = tile;  // this window holds tiles end - 32 .. end - 1
  while (true) {
    const long long earlier = end - 1 - lane;
    StatusWord word;
    do {
      word = earlier >= 0 ? read_status(&status[earlier]) : pack(kPrefix, T(0));
    } while (__any_sync(0xffffffffu, status_of(word) == kInvalid));
    const unsigned prefix_lanes = __ballot_sync(0xffffffffu, status_of(word) == kPrefix);
    const int nearest_prefix = prefix_lanes != 0 ? __ffs(int(prefix_lanes)) - 1 : 31;
    T value = lane <= nearest_prefix ? value_of<T>(word) : T(0);
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_xor_sync(0xffffffffu, value, offset);
    exclusive += value;
    if (prefix_lanes != 0) break;
    end -= 32;
  }
  if (lane == 0) publish(&status[tile], pack(kPrefix, exclusive + aggregate));
  // TODO(06.6) end
  // given: do not edit
  return exclusive;
}

/// 16-byte vector types for the loads and stores of the single-pass scan.
template <class T> struct Vector4;
template <> struct Vector4<int> { using type = int4; };
template <> struct Vector4<float> { using type = float4; };

/// One block scans one tile of kTileItems in a single pass. Warp w of the tile owns
/// items [w * 512, (w + 1) * 512); lane l holds, for k = 0..3, the 4 consecutive items
/// at k * 128 + l * 4, so each 16-byte load of a warp reads 512 contiguous bytes.
template <class T>
__global__ void __launch_bounds__(kPassThreads)
    single_pass_scan_kernel(const T* in, T* out, std::size_t n, bool inclusive, bool aligned,
                            StatusWord* status, unsigned* tile_counter) {
  using Vec = typename Vector4<T>::type;
  __shared__ unsigned tile_index;
  __shared__ T warp_totals[kPassWarps];
  __shared__ T tile_exclusive;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;

  // Tiles in the order blocks start, not blockIdx order: a block may only wait for
  // tiles that were handed to blocks already running.
  if (threadIdx.x == 0) tile_index = atomicAdd(tile_counter, 1u);
  __syncthreads();
  const long long tile = tile_index;
  const std::size_t warp_start = std::size_t(tile) * kTileItems + std::size_t(warp) * kWarpItems;
  const bool full = aligned && warp_start + kWarpItems <= n;  // vector loads and stores

  T items[kVectors][4];
  for (int k = 0; k < kVectors; ++k) {
    const std::size_t first = warp_start + k * 128 + lane * 4;
    if (full) {
      const Vec v = *reinterpret_cast<const Vec*>(in + first);
      items[k][0] = v.x, items[k][1] = v.y, items[k][2] = v.z, items[k][3] = v.w;
    } else {
      for (int j = 0; j < 4; ++j) items[k][j] = first + j < n ? in[first + j] : T(0);
    }
  }

  // Scan the warp's items in order: for chunk k, each lane sums its 4 items, the warp
  // scans the 32 lane sums with shuffles, and the chunk's total carries to chunk k + 1.
  T running = T(0);  // the warp's items before chunk k
  for (int k = 0; k < kVectors; ++k) {
    const T lane_sum = items[k][0] + items[k][1] + items[k][2] + items[k][3];
    T lane_inclusive = lane_sum;
    for (int offset = 1; offset < 32; offset *= 2) {
      const T other = __shfl_up_sync(0xffffffffu, lane_inclusive, offset);
      if (lane >= offset) lane_inclusive += other;
    }
    T lane_exclusive = __shfl_up_sync(0xffffffffu, lane_inclusive, 1);
    if (lane == 0) lane_exclusive = T(0);
    T sum = running + lane_exclusive;
    for (int j = 0; j < 4; ++j) {
      const T x = items[k][j];
      items[k][j] = inclusive ? sum + x : sum;
      sum += x;
    }
    running += __shfl_sync(0xffffffffu, lane_inclusive, 31);
  }
  if (lane == 0) warp_totals[warp] = running;
  __syncthreads();

  T warp_exclusive = T(0), aggregate = T(0);  // every thread adds in the same order
  for (int w = 0; w < kPassWarps; ++w) {
    if (w == warp) warp_exclusive = aggregate;
    aggregate += warp_totals[w];
  }

  if (warp == 0) {
    T exclusive = T(0);
    if (tile == 0) {
      if (lane == 0) publish(&status[0], pack(kPrefix, aggregate));
    } else {
      exclusive = look_back(status, tile, aggregate);
    }
    if (lane == 0) tile_exclusive = exclusive;
  }
  __syncthreads();

  const T offset = tile_exclusive + warp_exclusive;
  for (int k = 0; k < kVectors; ++k) {
    const std::size_t first = warp_start + k * 128 + lane * 4;
    for (int j = 0; j < 4; ++j) items[k][j] += offset;
    if (full) {
      Vec v;
      v.x = items[k][0], v.y = items[k][1], v.z = items[k][2], v.w = items[k][3];
      *reinterpret_cast<Vec*>(out + first) = v;
    } else {
      for (int j = 0; j < 4; ++j)
        if (first + j < n) out[first + j] = items[k][j];
    }
  }
}

bool single_pass_available() {
  // TODO(06.6) begin (stretch): once look_back() is written, return true here so the
  //   launcher uses the single-pass scan. About 1 line.
  //   Checked by: "single pass scan matches the CPU reference at edge sizes"
  return true;
  // TODO(06.6) end
  // given: do not edit
  return false;
}

// ---------------------------------------------------------------------------------------
// Launchers.
// ---------------------------------------------------------------------------------------

/// Device scratch memory kept between calls and grown when a call needs more: tile
/// totals for the tiles algorithm, status words for the single-pass scan. Allocating
/// on every call would cost more than a whole scan of a million elements. It is never
/// freed (the process's end releases it); see the contract about concurrent scans.
static void* scratch(std::size_t bytes) {
  static void* memory = nullptr;
  static std::size_t capacity = 0;
  if (bytes > capacity) {
    if (memory != nullptr) PPLAB_CUDA_CHECK(cudaFree(memory));  // waits for work that used it
    memory = nullptr;
    PPLAB_CUDA_CHECK(cudaMalloc(&memory, bytes));
    capacity = bytes;
  }
  return memory;
}

template <class T>
static void run_single_pass(const T* d_in, T* d_out, std::size_t n, bool inclusive, cudaStream_t stream) {
  const std::size_t tiles = (n + kTileItems - 1) / kTileItems;
  // One word per tile, then the tile counter; all start at 0 (kInvalid, tile 0).
  const std::size_t bytes = (tiles + 1) * sizeof(StatusWord);
  auto* status = static_cast<StatusWord*>(scratch(bytes));
  auto* tile_counter = reinterpret_cast<unsigned*>(status + tiles);
  PPLAB_CUDA_CHECK(cudaMemsetAsync(status, 0, bytes, stream));
  const bool aligned = reinterpret_cast<std::uintptr_t>(d_in) % 16 == 0 &&
                       reinterpret_cast<std::uintptr_t>(d_out) % 16 == 0;
  single_pass_scan_kernel<T><<<static_cast<unsigned>(tiles), kPassThreads, 0, stream>>>(
      d_in, d_out, n, inclusive, aligned, status, tile_counter);
}

template <class T, int BLOCK_THREADS>
static void run_tiles(const T* d_in, T* d_out, std::size_t n, bool inclusive, cudaStream_t stream) {
  const std::size_t sums = tile_sums_needed(n, 2 * BLOCK_THREADS);
  T* tile_sums = sums > 0 ? static_cast<T*>(scratch(sums * sizeof(T))) : nullptr;
  scan_tiles<T, BLOCK_THREADS>(d_in, d_out, n, inclusive, tile_sums, stream);
}

template <class T>
static void scan(const T* d_in, T* d_out, std::size_t n, bool inclusive, Algorithm algorithm,
                 int block_threads, cudaStream_t stream) {
  if (block_threads < 4 || block_threads > 1024 || (block_threads & (block_threads - 1)) != 0)
    throw std::invalid_argument("work efficient scan: block_threads must be a power of two from 4 to 1024, not " +
                                std::to_string(block_threads));
  if (algorithm == Algorithm::single_pass && !single_pass_available())
    throw std::logic_error("single-pass scan: the stretch step TODO(06.6) is not written yet");
  if (n == 0) return;
  if (algorithm != Algorithm::tiles && single_pass_available())
    return run_single_pass(d_in, d_out, n, inclusive, stream);
  switch (block_threads) {  // the tile size is a compile-time constant
    case 4: return run_tiles<T, 4>(d_in, d_out, n, inclusive, stream);
    case 8: return run_tiles<T, 8>(d_in, d_out, n, inclusive, stream);
    case 16: return run_tiles<T, 16>(d_in, d_out, n, inclusive, stream);
    case 32: return run_tiles<T, 32>(d_in, d_out, n, inclusive, stream);
    case 64: return run_tiles<T, 64>(d_in, d_out, n, inclusive, stream);
    case 128: return run_tiles<T, 128>(d_in, d_out, n, inclusive, stream);
    case 256: return run_tiles<T, 256>(d_in, d_out, n, inclusive, stream);
    case 512: return run_tiles<T, 512>(d_in, d_out, n, inclusive, stream);
    case 1024: return run_tiles<T, 1024>(d_in, d_out, n, inclusive, stream);
  }
}

void exclusive_scan(const int* d_in, int* d_out, std::size_t n, Algorithm algorithm, int block_threads,
                    cudaStream_t stream) {
  scan(d_in, d_out, n, false, algorithm, block_threads, stream);
}
void exclusive_scan(const float* d_in, float* d_out, std::size_t n, Algorithm algorithm, int block_threads,
                    cudaStream_t stream) {
  scan(d_in, d_out, n, false, algorithm, block_threads, stream);
}
void inclusive_scan(const int* d_in, int* d_out, std::size_t n, Algorithm algorithm, int block_threads,
                    cudaStream_t stream) {
  scan(d_in, d_out, n, true, algorithm, block_threads, stream);
}
void inclusive_scan(const float* d_in, float* d_out, std::size_t n, Algorithm algorithm, int block_threads,
                    cudaStream_t stream) {
  scan(d_in, d_out, n, true, algorithm, block_threads, stream);
}

}  // namespace pplab::lab06
