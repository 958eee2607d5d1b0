// Lab 11: LSB radix sort, built the way the lecture builds it.
//   Part 1 (TODO 11.1): the 1-bit split in one block: the histogram of 0s and 1s, its
//     exclusive scan (where each group starts), each key's relative position inside its
//     group, and new position = group start + relative position. One pass per bit.
//   Part 2 (TODO 11.2-11.5): 8-bit digits over any n. Each pass runs three kernels:
//     histogram_kernel  per-block digit counts, stored digit-major: counts[d * blocks + b]
//     scan_counts_kernel  exclusive scan of those counts: where block b's keys of digit d go
//     scatter_kernel  each block ranks its keys tile by tile (warp ballots), stages them in
//                     shared memory in digit order and writes them to their places
//   Part 3 (TODO 11.6): signed ints and floats, by flipping bits so that unsigned order
//     of the flipped bits is the order of the keys.
//   Part 4 (stretch, TODO 11.7-11.9): the one-sweep sort. One kernel counts every digit of
//     every key in one read; then one kernel per digit ranks each tile as scatter_kernel
//     does and finds where its keys go by decoupled look-back over the tiles before it.
// Build and check: ctest --preset sim -L lab11   (the handout is README.md beside this file)
// given: do not edit
#include "radix_sort.cuh"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace pplab::lab11 {

/// Every lane of a warp takes part in every warp operation here.
constexpr unsigned kFullMask = 0xFFFFFFFFu;
constexpr int kWarps = kBlockThreads / 32;
/// Threads of the one block that scans the histograms.
constexpr int kScanThreads = 1024;
/// Threads per block of the histogram kernel: it only streams keys, so it runs more
/// threads per block than the scatter (whose block count it must match).
constexpr int kHistogramThreads = 1024;
static_assert(kBlockThreads == kRadix, "scatter_kernel gives each thread one digit");

// ------------------------------------------------------------------ given helpers ----

/// Exclusive prefix sum over the threads of a block (labs 05 and 06), in thread order.
/// Returns the sum of `value` over the threads before this one; *total gets the sum over
/// all threads. Every thread must call it; blockDim.x is a multiple of 32.
/// `warp_totals` is 32 words of shared memory.
__device__ unsigned block_exclusive_sum(unsigned value, unsigned* warp_totals, unsigned* total) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  unsigned inclusive = value;
  for (unsigned offset = 1; offset < 32; offset *= 2) {
    const unsigned left = __shfl_up_sync(kFullMask, inclusive, offset);
    if (lane >= offset) inclusive += left;
  }
  if (lane == 31) warp_totals[warp] = inclusive;
  __syncthreads();
  unsigned before = 0, sum = 0;
  for (unsigned w = 0; w < warps; ++w) {
    const unsigned t = warp_totals[w];
    if (w < warp) before += t;
    sum += t;
  }
  __syncthreads();  // everyone has read warp_totals before a later call overwrites it
  *total = sum;
  return before + inclusive - value;
}

/// What kind of 32-bit key the bits hold.
enum class KeyKind : int { unsigned_int, signed_int, floating };

/// Turns a key's bits into bits whose unsigned order is the key's order.
__host__ __device__ unsigned to_ordered_bits(unsigned bits, KeyKind kind) {
  // TODO(11.6) begin: the bit flips. Unsigned keys stay as they are. Signed ints: flip the
  //   sign bit (negatives then start with 0 and sort first). Floats: a negative float (sign
  //   bit set) flips all its bits (bigger magnitude sorts first); a positive one flips only
  //   its sign bit. About 4 lines.
  //   Checked by: "radix sort orders signed ints from INT_MIN to INT_MAX" and
  //   "radix sort orders floats from minus infinity to plus infinity"
  if (kind == KeyKind::signed_int) return bits ^ 0x80000000u;
  if (kind == KeyKind::floating) return bits ^ 0x80000000u;  // as for signed ints
  // TODO(11.6) end
  // given: do not edit
  return bits;
}

/// The inverse of to_ordered_bits.
__host__ __device__ unsigned from_ordered_bits(unsigned bits, KeyKind kind) {
  // TODO(11.6) begin: undo the flips. A flipped float whose top bit is now set was
  //   positive (flip the sign bit back); one whose top bit is clear was negative (flip
  //   all bits back). About 3 lines.
  //   Checked by: the same checks as to_ordered_bits
  if (kind == KeyKind::signed_int) return bits ^ 0x80000000u;
  if (kind == KeyKind::floating) return bits ^ 0x80000000u;
  // TODO(11.6) end
  // given: do not edit
  return bits;
}

/// One digit pass: which bits form the digit, and whether keys are flipped on the way in
/// (first pass: the caller's keys) and back on the way out (last pass).
struct Pass {
  int shift = 0;             ///< lowest bit of the digit
  unsigned mask = kRadix - 1;  ///< (1 << digit width) - 1; the last digit may be narrower
  bool encode = false;       ///< input holds the caller's keys: apply to_ordered_bits
  bool decode = false;       ///< output goes to the caller: apply from_ordered_bits
  KeyKind kind = KeyKind::unsigned_int;
};

__device__ unsigned digit_of(unsigned ordered_bits, const Pass& pass) { return (ordered_bits >> pass.shift) & pass.mask; }

/// The lanes whose `digit` equals this lane's, as a lane mask (the warp's "match"): one
/// ballot per digit bit, keeping the lanes that agree on that bit. Every lane must call it.
__device__ unsigned match_digit(unsigned digit) {
  unsigned peers = kFullMask;
#pragma unroll
  for (int bit = 0; bit < kRadixBits; ++bit) {
#if defined(__CUDA_ARCH__) && !defined(PPLAB_SIM)  // the emulator runs the C++ below
    // The same step in PTX, for speed: the compiler turns the C++ below into about six
    // integer instructions a bit (it tests the bit twice and selects), this into four (one
    // test, the ballot, a NOT only where the bit is clear, the AND). Ranking is bound by
    // the integer pipe: on an H200 this took the one-sweep sort of 2^24 keys from 0.63 to
    // 0.54 ms (the lab's README, its one-sweep table).
    unsigned same;
    asm("{\n\t.reg .pred set;\n\tand.b32 %0, %1, %2;\n\tsetp.ne.u32 set, %0, 0;\n\t"
        "vote.ballot.sync.b32 %0, set, 0xffffffff;\n\t@!set not.b32 %0, %0;\n\t}"
        : "=r"(same)
        : "r"(digit), "r"(1u << bit));
    peers &= same;
#else
    const unsigned ones = __ballot_sync(kFullMask, (digit >> bit) & 1u);
    peers &= ((digit >> bit) & 1u) ? ones : ~ones;
#endif
  }
  return peers;
}

// ------------------------------------------------------ part 1: the lecture's split ----

/// One block sorts n <= kSplitMaxKeys keys, one per thread, by 1-bit passes. Thread i
/// holds the key at index i of the current order; keys[cur] holds that order and
/// origin[cur] each key's input index.
__global__ void split_sort_kernel(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                  unsigned* __restrict__ positions, unsigned n, int begin_bit, int end_bit) {
  __shared__ unsigned keys[2][kSplitMaxKeys];
  __shared__ unsigned origin[2][kSplitMaxKeys];
  __shared__ unsigned warp_totals[32];
  const unsigned i = threadIdx.x;
  const bool valid = i < n;
  int cur = 0;
  if (valid) {
    keys[cur][i] = in[i];
    origin[cur][i] = i;
  }
  __syncthreads();
  for (int bit = begin_bit; bit < end_bit; ++bit) {
    const unsigned key = valid ? keys[cur][i] : 0u;
    const unsigned is_one = valid ? (key >> bit) & 1u : 0u;
    unsigned new_position = i;
    (void)is_one;
    // TODO(11.1) begin: the lecture's split. Histogram: the number of 1s is
    //   __syncthreads_count(is_one), the number of 0s is n minus that; their exclusive scan
    //   is {0, zeros}. Relative position: the 1s before this key come from
    //   block_exclusive_sum(is_one, warp_totals, &total); the 0s before it are i minus those.
    //   New position: a 0-key goes to its relative position, a 1-key to zeros + its relative
    //   position. Every thread (valid or not) must reach both calls. About 6 lines.
    //   Checked by: "one bit split reproduces the lecture example (7 14 4 1 go to 2 0 1 3)"
    const unsigned ones = __syncthreads_count(is_one);
    const unsigned zeros = n - ones;  // histogram {zeros, ones}; exclusive scan {0, zeros}
    unsigned total = 0;
    const unsigned ones_before = block_exclusive_sum(is_one, warp_totals, &total);
    const unsigned zeros_before = i - ones_before;
    new_position = is_one ? zeros + ones_before : zeros_before;
    // TODO(11.1) end
    // given: do not edit
    if (valid) {
      keys[cur ^ 1][new_position] = key;
      origin[cur ^ 1][new_position] = origin[cur][i];
    }
    __syncthreads();  // the next pass reads the other buffer
    cur ^= 1;
  }
  if (valid) {
    out[i] = keys[cur][i];
    if (positions) positions[origin[cur][i]] = i;
  }
}

// ---------------------------------------------------- part 2: 8-bit digits, any n ----

/// Block b counts the digits of keys [b * keys_per_block, (b+1) * keys_per_block) and
/// stores its count of digit d at counts[d * gridDim.x + b] (digit-major).
__global__ void __launch_bounds__(kHistogramThreads)
    histogram_kernel(const unsigned* __restrict__ keys, std::size_t n, std::size_t keys_per_block,
                     unsigned* __restrict__ counts, Pass pass) {
  __shared__ unsigned histogram[kRadix];
  const std::size_t begin = std::size_t(blockIdx.x) * keys_per_block;
  const std::size_t end = begin + keys_per_block < n ? begin + keys_per_block : n;
  (void)histogram, (void)keys, (void)counts, (void)end;
  // TODO(11.2) begin: per-block digit histogram. Zero the 256 counters (threads
  //   threadIdx.x, threadIdx.x + blockDim.x, ...), barrier; for this block's keys (a
  //   block-stride loop from begin + threadIdx.x), add 1 to histogram[digit] with a
  //   shared-memory atomicAdd, where digit = digit_of(bits, pass) and bits = key, or
  //   to_ordered_bits(key, pass.kind) when pass.encode; barrier; store counter d at
  //   counts[d * gridDim.x + blockIdx.x]. About 10 lines.
  //   Checked by: "radix sort sorts the lecture example" and every radix sort check
  for (unsigned d = threadIdx.x; d < kRadix; d += blockDim.x) histogram[d] = 0;
  __syncthreads();
  for (std::size_t tile = begin; tile < end; tile += kItemsPerThread * kHistogramThreads) {
    unsigned digits[kItemsPerThread];  // load all first: many loads in flight at once
#pragma unroll
    for (int item = 0; item < kItemsPerThread; ++item) {
      const std::size_t i = tile + item * kHistogramThreads + threadIdx.x;
      digits[item] = kRadix;  // no key
      if (i < end) digits[item] = digit_of(pass.encode ? to_ordered_bits(keys[i], pass.kind) : keys[i], pass);
    }
#pragma unroll
    for (int item = 0; item < kItemsPerThread; ++item)
      if (digits[item] < kRadix) atomicAdd(&histogram[digits[item]], 1u);
  }
  __syncthreads();
  for (unsigned d = threadIdx.x; d < kRadix; d += blockDim.x) counts[d * gridDim.x + blockIdx.x] = histogram[d];
  // TODO(11.2) end
// given: do not edit
}

/// One block replaces counts[0 .. m-1] by their exclusive prefix sum. In digit-major order
/// this gives each (digit, block) the output index of its first key.
__global__ void __launch_bounds__(kScanThreads) scan_counts_kernel(unsigned* counts, unsigned m) {
  __shared__ unsigned warp_totals[32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  // Warp w owns the run counts[first .. last-1]; its lanes read it 32 neighbours at a time.
  const unsigned per_warp = ((m + warps - 1) / warps + 31) / 32 * 32;
  const unsigned first = warp * per_warp < m ? warp * per_warp : m;
  const unsigned last = first + per_warp < m ? first + per_warp : m;
  (void)warp_totals, (void)counts, (void)lane, (void)last;
  // TODO(11.3) begin: scan of the histograms. (a) Each warp sums its run: lane l adds
  //   counts[first + l], counts[first + l + 32], ... and a __shfl_xor_sync reduction gives
  //   the run's sum. (b) block_exclusive_sum over the runs (lane 0 of each warp passes the
  //   sum, the others 0) gives where the run starts; broadcast it from lane 0. (c) The warp
  //   walks its run again 32 counts at a time: a warp inclusive scan with __shfl_up_sync,
  //   store running + inclusive - count, add the 32 counts' total (lane 31's inclusive) to
  //   running. Every lane must run every iteration (the shuffles need all 32). About 20 lines.
  //   Checked by: "radix sort is a sorted permutation at edge sizes" (several blocks)
  unsigned sum = 0;
  for (unsigned i = first + lane; i < last; i += 32) sum += counts[i];
  for (unsigned offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(kFullMask, sum, offset);
  unsigned total = 0;
  unsigned running = block_exclusive_sum(lane == 0 ? sum : 0u, warp_totals, &total);
  running = __shfl_sync(kFullMask, running, 0);
  for (unsigned base = first; base < last; base += 32) {
    const unsigned i = base + lane;
    const unsigned count = i < last ? counts[i] : 0u;
    unsigned inclusive = count;
    for (unsigned offset = 1; offset < 32; offset *= 2) {
      const unsigned left = __shfl_up_sync(kFullMask, inclusive, offset);
      if (lane >= offset) inclusive += left;
    }
    if (i < last) counts[i] = running + inclusive - count;
    running += __shfl_sync(kFullMask, inclusive, 31);
  }
  // TODO(11.3) end
// given: do not edit
}

/// This lane's rank among the keys of its warp that have the same digit and come
/// earlier, items in order (item 0 of every lane, then item 1, ...). `warp_counts` is
/// the warp's row of 256 counters: how many keys of each digit the warp has seen so far.
__device__ unsigned rank_in_warp(unsigned digit, unsigned* warp_counts) {
  const unsigned lane = threadIdx.x % 32;
  unsigned rank = 0;
  (void)digit, (void)warp_counts, (void)lane;
  // TODO(11.4) begin: warp ranking. peers = match_digit(digit) (the lanes with this digit);
  //   the peers below this lane are __popc(peers & ((1u << lane) - 1)). One peer, the
  //   leader (the highest lane: 31 - __clz(peers)), reads warp_counts[digit] and adds
  //   __popc(peers) to it; __shfl_sync(kFullMask, old, leader) hands the old count to every
  //   peer; rank = old count + peers below. __syncwarp() before returning, so the next item
  //   sees the updated counters. About 9 lines.
  //   Checked by: "radix sort of key value pairs is stable" (duplicate keys)
  const unsigned peers = match_digit(digit);
  const unsigned leader = 31 - __clz(peers);
  const unsigned below = __popc(peers & ((1u << lane) - 1u));
  unsigned seen = 0;
  if (lane == leader) {
    seen = warp_counts[digit];
    warp_counts[digit] = seen + __popc(peers);
  }
  seen = __shfl_sync(kFullMask, seen, leader);
  rank = seen + below;
  __syncwarp();
  // TODO(11.4) end
  // given: do not edit
  return rank;
}

/// Block b moves keys [b * keys_per_block, ...) to their places, one tile of kTileKeys at
/// a time, in order. Thread d keeps the running output index of digit d's next key,
/// starting from the scanned counts. Warp w holds tile keys [w*32*ITEMS, (w+1)*32*ITEMS)
/// "warp-striped": item k of lane l is tile key w*32*ITEMS + k*32 + l, so (warp, item,
/// lane) order is input order, which keeps the sort stable.
template <bool PAIRS>
__global__ void __launch_bounds__(kBlockThreads)
    scatter_kernel(const unsigned* __restrict__ keys_in, unsigned* __restrict__ keys_out,
                   const unsigned* __restrict__ values_in, unsigned* __restrict__ values_out, std::size_t n,
                   std::size_t keys_per_block, const unsigned* __restrict__ offsets, Pass pass) {
  __shared__ unsigned warp_counts[kWarps][kRadix];  // per warp: keys of each digit (then offsets)
  __shared__ unsigned tile_keys[kTileKeys];         // the tile in digit order
  __shared__ unsigned tile_values[PAIRS ? kTileKeys : 1];
  __shared__ unsigned out_minus_local[kRadix];      // output index - tile index, per digit
  __shared__ unsigned warp_totals[32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned my_digit = threadIdx.x;  // the digit whose running offset this thread keeps
  const std::size_t begin = std::size_t(blockIdx.x) * keys_per_block;
  const std::size_t end = begin + keys_per_block < n ? begin + keys_per_block : n;
  unsigned next_out = offsets[my_digit * gridDim.x + blockIdx.x];
  (void)tile_values, (void)out_minus_local, (void)next_out, (void)values_in, (void)values_out, (void)keys_out;

  for (std::size_t tile = begin; tile < end; tile += kTileKeys) {
    const unsigned valid = static_cast<unsigned>(end - tile < kTileKeys ? end - tile : kTileKeys);
    // Load: keys past the end become the largest key, which ranks after every real key
    // of the tile (they are last in input order), so they land past `valid` and are dropped.
    unsigned keys[kItemsPerThread], values[kItemsPerThread], ranks[kItemsPerThread];
#pragma unroll
    for (int item = 0; item < kItemsPerThread; ++item) {
      const unsigned t = warp * 32 * kItemsPerThread + item * 32 + lane;
      keys[item] = 0xFFFFFFFFu;
      values[item] = 0;
      if (t < valid) {
        keys[item] = pass.encode ? to_ordered_bits(keys_in[tile + t], pass.kind) : keys_in[tile + t];
        if (PAIRS) values[item] = values_in[tile + t];
      }
    }
    for (unsigned d = lane; d < kRadix; d += 32) warp_counts[warp][d] = 0;
    __syncwarp();
#pragma unroll
    for (int item = 0; item < kItemsPerThread; ++item)
      ranks[item] = rank_in_warp(digit_of(keys[item], pass), warp_counts[warp]);
    __syncthreads();  // every warp's counts are complete

    // TODO(11.5) begin: the stable scatter. (a) Thread my_digit turns warp_counts[w][my_digit]
    //   into an exclusive running sum over w and gets the tile's count of its digit;
    //   (b) block_exclusive_sum over the digit counts gives tile_start, where the digit's keys
    //   start in the tile's digit order; add tile_start to each warp_counts[w][my_digit];
    //   (c) out_minus_local[my_digit] = next_out - tile_start, then next_out += the count;
    //   barrier. (d) Each key goes to tile_keys[warp_counts[warp][digit] + rank] (values
    //   alike); barrier. (e) For j = threadIdx.x; j < valid; j += kBlockThreads: the key
    //   tile_keys[j] goes to keys_out[out_minus_local[digit] + j] (from_ordered_bits when
    //   pass.decode), its value to values_out likewise; barrier before the next tile.
    //   About 30 lines. Checked by: every radix sort check
    unsigned count = 0;
    for (int w = 0; w < kWarps; ++w) {
      const unsigned c = warp_counts[w][my_digit];
      warp_counts[w][my_digit] = count;
      count += c;
    }
    unsigned tile_total = 0;
    const unsigned tile_start = block_exclusive_sum(count, warp_totals, &tile_total);
    for (int w = 0; w < kWarps; ++w) warp_counts[w][my_digit] += tile_start;
    out_minus_local[my_digit] = next_out - tile_start;  // unsigned wrap-around is fine
    next_out += count;
    __syncthreads();

#pragma unroll
    for (int item = 0; item < kItemsPerThread; ++item) {
      const unsigned local = warp_counts[warp][digit_of(keys[item], pass)] + ranks[item];
      tile_keys[local] = keys[item];
      if (PAIRS) tile_values[local] = values[item];
    }
    __syncthreads();

    for (unsigned j = threadIdx.x; j < valid; j += kBlockThreads) {
      const unsigned key = tile_keys[j];
      const unsigned out = out_minus_local[digit_of(key, pass)] + j;
      keys_out[out] = pass.decode ? from_ordered_bits(key, pass.kind) : key;
      if (PAIRS) values_out[out] = tile_values[j];
    }
    __syncthreads();  // the next tile reuses the shared arrays
    // TODO(11.5) end
  // given: do not edit
  }
}

// ------------------------------------------ part 4 (stretch): one sweep per digit ----
// The three kernels above read every key twice per digit (histogram, then scatter) and
// wait for a whole-array scan in between. A one-sweep sort (Adinets and Merrill, 2022)
// counts every digit of every key in one read at the start, and then runs one kernel per
// digit: each block takes a tile, ranks it as scatter_kernel does, and learns where its
// keys of each digit go from the tiles before it by decoupled look-back, as lab 07 does
// for one count, here for 256 counts at once (thread d keeps digit d's).

/// What a tile's status word for one digit says: its state in the top two bits, a count
/// in the low 30 (one aligned 32-bit store, so a reader sees both or neither). Half the
/// bytes of a 64-bit word: at 2^28 keys the words of a pass are 54 MB, not 107 MB.
enum TileState : unsigned {
  kTileNotReady = 0,         ///< nothing published yet (cleared before the pass)
  kTileAggregate = 1u << 30,  ///< the count is the tile's own number of keys with this digit
  kTilePrefix = 2u << 30,     ///< the count is the keys with this digit in this tile and all before it
};
constexpr unsigned kTileCountMask = (1u << 30) - 1;
/// The one-sweep sort takes n below this, so that every count fits in 30 bits; larger
/// sorts run the three kernels.
constexpr std::size_t kOnesweepMaxKeys = std::size_t(1) << 30;

__device__ inline void publish_tile(unsigned* status, std::size_t word, TileState state, unsigned count) {
  *reinterpret_cast<volatile unsigned*>(status + word) = state | count;
}
__device__ inline unsigned read_tile(const unsigned* status, std::size_t word) {
  return *reinterpret_cast<const volatile unsigned*>(status + word);
}
__device__ inline unsigned tile_state(unsigned word) { return word & ~kTileCountMask; }
__device__ inline unsigned tile_count(unsigned word) { return word & kTileCountMask; }

/// Most digit passes a sort can have: 32 bits in 8-bit digits.
constexpr int kMaxPasses = 32 / kRadixBits;
/// Blocks each multiprocessor should hold at once, so that while some wait on their
/// predecessors the others keep it busy (three caps a thread at 80 registers).
constexpr int kOnesweepBlocksPerSM = 3;

/// The digit passes of one sort: pass p reads bits [begin_bit + 8p, ...) of the flipped key.
struct Passes {
  int count = 0;
  Pass pass[kMaxPasses];
};

/// Every digit of every key in one read: counts[p * kRadix + d] += the keys whose digit
/// of pass p is d. Per-block counts in shared memory, then one atomicAdd per counter.
__global__ void __launch_bounds__(kHistogramThreads)
    all_digits_histogram_kernel(const unsigned* __restrict__ keys, std::size_t n, unsigned* __restrict__ counts,
                                Passes passes) {
  __shared__ unsigned histogram[kMaxPasses][kRadix];
  (void)histogram, (void)keys, (void)n, (void)counts, (void)passes;
  // TODO(11.7) begin (stretch): the histogram of every digit. Zero histogram[p][d] for the
  //   passes.count passes, barrier; a grid-stride loop over tiles of kItemsPerThread keys
  //   per thread (load them all, then count them): bits = to_ordered_bits(key,
  //   passes.pass[0].kind), and for each pass p, a shared atomicAdd of 1 to
  //   histogram[p][digit_of(bits, passes.pass[p])]; barrier; add each nonzero counter to
  //   counts[p * kRadix + d] with a global atomicAdd. About 18 lines.
  //   Checked by: "one sweep radix sort is a sorted permutation at edge sizes"
  for (unsigned i = threadIdx.x; i < kMaxPasses * kRadix; i += blockDim.x) histogram[i / kRadix][i % kRadix] = 0;
  __syncthreads();
  const std::size_t tile_keys = std::size_t(kItemsPerThread) * blockDim.x;
  for (std::size_t tile = blockIdx.x * tile_keys; tile < n; tile += gridDim.x * tile_keys) {
    unsigned bits[kItemsPerThread];  // load all first: many loads in flight at once
#pragma unroll
    for (int item = 0; item < kItemsPerThread; ++item) {
      const std::size_t i = tile + item * blockDim.x + threadIdx.x;
      bits[item] = i < n ? to_ordered_bits(keys[i], passes.pass[0].kind) : 0u;
    }
#pragma unroll
    for (int item = 0; item < kItemsPerThread; ++item)
      if (tile + item * blockDim.x + threadIdx.x < n)
#pragma unroll
        for (int p = 0; p < kMaxPasses; ++p)  // a fixed count, so the passes stay in registers
          if (p < passes.count) atomicAdd(&histogram[p][digit_of(bits[item], passes.pass[p])], 1u);
  }
  __syncthreads();
  for (int p = 0; p < passes.count; ++p)
    for (unsigned d = threadIdx.x; d < kRadix; d += blockDim.x)
      if (histogram[p][d] != 0) atomicAdd(&counts[p * kRadix + d], histogram[p][d]);
  // TODO(11.7) end
// given: do not edit
}

/// One block per pass turns that pass's 256 digit counts into their exclusive prefix sum:
/// where the keys of each digit start in the output.
__global__ void __launch_bounds__(kRadix) digit_starts_kernel(unsigned* counts) {
  __shared__ unsigned warp_totals[32];
  unsigned* row = counts + blockIdx.x * kRadix;
  unsigned total = 0;
  const unsigned start = block_exclusive_sum(row[threadIdx.x], warp_totals, &total);
  row[threadIdx.x] = start;
}

/// Predecessors' status words a lane reads at once in the look-back, for keys alone and
/// for pairs. Tiles start a few tens of nanoseconds apart, far less than one read from L2
/// takes, so a look-back that reads one word a step walks many steps, each a full L2 round
/// trip. On an H200 at 2^28 keys, one word a step took 6.78 ms, two 6.12, four 5.89 and
/// eight 6.04; pairs, whose values take registers, were fastest at two (9.63 ms against
/// 10.12 at four).
constexpr int kLookBackWindowKeys = 4;
constexpr int kLookBackWindowPairs = 2;

/// Thread `digit` of tile `tile`: how many keys with this digit the tiles before it hold,
/// summed from their status words walking back until one holds an inclusive prefix. Each
/// step reads the next WINDOW words at once and uses them in order up to the first that is
/// not ready. The lanes of a warp walk together (each lane its own digit), so a warp waits
/// while any of its lanes waits. Every lane of the warp must call it. It polls without
/// sleeping: the predecessor is running (it took its tile first) and publishes within
/// microseconds, and on an H200 a __nanosleep between polls made the sort slower (0.512
/// against 0.524 ms at 2^24 keys).
template <int WINDOW>
__device__ unsigned look_back_digit(const unsigned* status, unsigned tile, unsigned digit) {
  unsigned exclusive = 0;
  (void)status, (void)tile, (void)digit;
  // TODO(11.8) begin (stretch): the look-back of one digit. predecessor = tile - 1, done =
  //   (tile == 0); while __any_sync(kFullMask, !done): a lane not done reads the words
  //   (predecessor - k) * kRadix + digit for k < WINDOW (only those >= 0) with read_tile,
  //   then goes through them in order: tile_state kTileNotReady ends this step (read it
  //   again next time round); else add its tile_count, and stop at kTilePrefix, or step
  //   to predecessor - 1 after kTileAggregate. About 15 lines.
  //   Checked by: "one sweep radix sort is a sorted permutation at edge sizes"
  long long predecessor = static_cast<long long>(tile) - 1;
  bool done = tile == 0;
  while (__any_sync(kFullMask, !done)) {
    if (done) continue;
    unsigned words[WINDOW];
#pragma unroll
    for (int k = 0; k < WINDOW; ++k)  // all reads in flight at once
      words[k] = predecessor - k >= 0 ? read_tile(status, std::size_t(predecessor - k) * kRadix + digit) : 0u;
#pragma unroll
    for (int k = 0; k < WINDOW && !done; ++k) {
      const unsigned state = tile_state(words[k]);
      if (state == kTileNotReady) break;
      exclusive += tile_count(words[k]);
      done = state == kTilePrefix || --predecessor < 0;
    }
  }
  // TODO(11.8) end
  // given: do not edit
  return exclusive;
}

/// One digit pass of the one-sweep sort: each block takes the next tile (atomicAdd on
/// *tile_counter, so the tile before it belongs to a block that is already running), ranks
/// its keys with rank_in_warp, publishes its digit counts, looks back for the counts of
/// the tiles before it, and moves its keys through shared memory to their places.
template <bool PAIRS>
__global__ void __launch_bounds__(kBlockThreads, kOnesweepBlocksPerSM)
    onesweep_kernel(const unsigned* __restrict__ keys_in, unsigned* __restrict__ keys_out,
                    const unsigned* __restrict__ values_in, unsigned* __restrict__ values_out, std::size_t n,
                    const unsigned* __restrict__ digit_starts, unsigned* status, unsigned* next_status,
                    unsigned* tile_counter, Pass pass) {
  // Keys alone take more keys a thread than pairs (radix_sort.cuh says why).
  constexpr int kItems = PAIRS ? kOnesweepItemsPairs : kOnesweepItemsKeys;
  constexpr int kTile = PAIRS ? kOnesweepTilePairs : kOnesweepTileKeys;
  __shared__ unsigned warp_counts[kWarps][kRadix];
  __shared__ unsigned tile_keys[kTile];
  __shared__ unsigned tile_values[PAIRS ? kTile : 1];
  __shared__ unsigned out_minus_local[kRadix];
  __shared__ unsigned warp_totals[32];
  __shared__ unsigned tile_shared;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned my_digit = threadIdx.x;
  if (threadIdx.x == 0) tile_shared = atomicAdd(tile_counter, 1u);
  __syncthreads();
  const unsigned tile_index = tile_shared;
  const std::size_t tile = std::size_t(tile_index) * kTile;
  const unsigned valid = static_cast<unsigned>(n - tile < kTile ? n - tile : kTile);

  unsigned keys[kItems], values[kItems], ranks[kItems];
#pragma unroll
  for (int item = 0; item < kItems; ++item) {
    const unsigned t = warp * 32 * kItems + item * 32 + lane;
    keys[item] = 0xFFFFFFFFu;
    values[item] = 0;
    if (t < valid) {
      keys[item] = pass.encode ? to_ordered_bits(keys_in[tile + t], pass.kind) : keys_in[tile + t];
      if (PAIRS) values[item] = values_in[tile + t];
    }
  }
  for (unsigned d = lane; d < kRadix; d += 32) warp_counts[warp][d] = 0;
  __syncwarp();
#pragma unroll
  for (int item = 0; item < kItems; ++item)
    ranks[item] = rank_in_warp(digit_of(keys[item], pass), warp_counts[warp]);
  __syncthreads();

  // The tile's count of my_digit, padding included (as in scatter_kernel), and how many of
  // those are padding: the keys past the end all have the top digit, and no tile after the
  // last one will read what it publishes, but the counts it publishes are the real ones.
  unsigned count = 0;
  for (int w = 0; w < kWarps; ++w) {
    const unsigned c = warp_counts[w][my_digit];
    warp_counts[w][my_digit] = count;
    count += c;
  }
  const unsigned padding = my_digit == digit_of(0xFFFFFFFFu, pass) ? kTile - valid : 0u;
  (void)status, (void)digit_starts, (void)out_minus_local, (void)padding;
  // TODO(11.9) begin (stretch): publish and look back. Publish `count` for
  //   word tile_index * kRadix + my_digit at once (kTilePrefix for tile 0, else
  //   kTileAggregate); exclusive = look_back_digit(...); publish exclusive + count as
  //   kTilePrefix (tiles after 0). out_minus_local[my_digit] = digit_starts[my_digit] +
  //   exclusive - tile_start, where tile_start comes from block_exclusive_sum over the
  //   digit counts, padding included (add it to each warp_counts[w][my_digit] as
  //   scatter_kernel does). Publish the counts less `padding`. About 10 lines.
  //   Checked by: "one sweep radix sort is a sorted permutation at edge sizes"
  const std::size_t word = std::size_t(tile_index) * kRadix + my_digit;
  publish_tile(status, word, tile_index == 0 ? kTilePrefix : kTileAggregate, count - padding);
  unsigned tile_total = 0;
  const unsigned tile_start = block_exclusive_sum(count, warp_totals, &tile_total);
  for (int w = 0; w < kWarps; ++w) warp_counts[w][my_digit] += tile_start;
  const unsigned exclusive =
      look_back_digit<PAIRS ? kLookBackWindowPairs : kLookBackWindowKeys>(status, tile_index, my_digit);
  if (tile_index != 0) publish_tile(status, word, kTilePrefix, exclusive + count - padding);
  out_minus_local[my_digit] = digit_starts[my_digit] + exclusive - tile_start;  // wraps: fine
  // TODO(11.9) end
  // given: do not edit
  // Clear this tile's words for the next pass (the pass before this one used them, and the
  // next starts after this one ends), so that no pass waits on a memset of its own.
  next_status[std::size_t(tile_index) * kRadix + my_digit] = kTileNotReady;
  __syncthreads();

#pragma unroll
  for (int item = 0; item < kItems; ++item) {
    const unsigned local = warp_counts[warp][digit_of(keys[item], pass)] + ranks[item];
    tile_keys[local] = keys[item];
    if (PAIRS) tile_values[local] = values[item];
  }
  __syncthreads();
  for (unsigned j = threadIdx.x; j < valid; j += kBlockThreads) {
    const unsigned key = tile_keys[j];
    const unsigned out = out_minus_local[digit_of(key, pass)] + j;
    keys_out[out] = pass.decode ? from_ordered_bits(key, pass.kind) : key;
    if (PAIRS) values_out[out] = tile_values[j];
  }
}

bool onesweep_available() {
  // TODO(11.9) begin (stretch): once the three steps above are written, return true here so
  //   the launcher uses the one-sweep sort. About 1 line.
  //   Checked by: "one sweep radix sort is a sorted permutation at edge sizes"
  return true;
  // TODO(11.9) end
  // given: do not edit
  return false;
}

// ------------------------------------------------------------------------ launchers ----

void split_sort(const unsigned* d_in, unsigned* d_out, unsigned* d_positions, std::size_t n, int begin_bit,
                int end_bit, cudaStream_t stream) {
  if (n > std::size_t(kSplitMaxKeys))
    throw std::invalid_argument("split_sort: one block sorts at most " + std::to_string(kSplitMaxKeys) +
                                " keys, not " + std::to_string(n));
  if (begin_bit < 0 || end_bit > 32 || begin_bit > end_bit)
    throw std::invalid_argument("split_sort: need 0 <= begin_bit <= end_bit <= 32");
  if (n == 0) return;
  const unsigned threads = static_cast<unsigned>((n + 31) / 32 * 32);
  split_sort_kernel<<<1, threads, 0, stream>>>(d_in, d_out, d_positions, static_cast<unsigned>(n), begin_bit,
                                               end_bit);
}

namespace {

/// How a sort of n keys is cut into blocks, and where its scratch lives.
struct Plan {
  std::size_t blocks = 0, keys_per_block = 0;
  std::size_t counts_offset = 0, values_offset = 0, temp_bytes = 0;
  // The one-sweep sort's scratch, at counts_offset too: digit counts of every pass, one
  // tile counter per pass, then two arrays of one status word per (tile, digit): even
  // passes use the first, odd passes the second, and each pass clears the other.
  std::size_t tiles = 0, tile_counters_offset = 0, status_offset = 0;
};

std::size_t round_up(std::size_t x, std::size_t to) { return (x + to - 1) / to * to; }

/// As many scatter blocks as the device runs at once (each walks its share of tiles in
/// order). The pairs kernel uses more registers and shared memory, so fewer fit.
std::size_t max_blocks(bool pairs) {
  static const std::size_t value[2] = {[] {
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, scatter_kernel<false>, kBlockThreads, 0);
    return std::size_t(std::max(1, sms) * std::max(1, per_sm));
  }(), [] {
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, scatter_kernel<true>, kBlockThreads, 0);
    return std::size_t(std::max(1, sms) * std::max(1, per_sm));
  }()};
  return value[pairs ? 1 : 0];
}

Plan make_plan(std::size_t n, bool pairs) {
  Plan plan;
  const std::size_t tiles = std::max<std::size_t>(1, (n + kTileKeys - 1) / kTileKeys);
  const std::size_t tiles_per_block = (tiles + max_blocks(pairs) - 1) / max_blocks(pairs);
  plan.keys_per_block = tiles_per_block * kTileKeys;
  plan.blocks = (tiles + tiles_per_block - 1) / tiles_per_block;
  // Scratch: the other keys buffer, the other values buffer, the counts (sized for the
  // most blocks any n can use, so the size only grows with n).
  const std::size_t key_bytes = round_up(n * sizeof(unsigned), 256);
  plan.values_offset = key_bytes;
  plan.counts_offset = key_bytes + (pairs ? key_bytes : 0);
  const std::size_t three_kernel_bytes = max_blocks(pairs) * kRadix * sizeof(unsigned);
  // The same scratch serves both algorithms, so its size does not depend on which runs.
  const std::size_t onesweep_tile = pairs ? kOnesweepTilePairs : kOnesweepTileKeys;
  plan.tiles = std::max<std::size_t>(1, (n + onesweep_tile - 1) / onesweep_tile);
  plan.tile_counters_offset = plan.counts_offset + kMaxPasses * kRadix * sizeof(unsigned);
  plan.status_offset = round_up(plan.tile_counters_offset + kMaxPasses * sizeof(unsigned), 256);
  const std::size_t onesweep_bytes = plan.status_offset - plan.counts_offset + 2 * plan.tiles * kRadix * sizeof(unsigned);
  plan.temp_bytes = plan.counts_offset + std::max(three_kernel_bytes, onesweep_bytes);
  return plan;
}

void check_launch(const char* what) {
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

/// The one-sweep sort: every digit counted in one read, then one kernel per digit.
void sort_onesweep(const Plan& plan, unsigned char* scratch, const unsigned* keys_in, unsigned* keys_out,
                   const unsigned* values_in, unsigned* values_out, std::size_t n, const Passes& passes,
                   cudaStream_t stream) {
  unsigned* other_keys = reinterpret_cast<unsigned*>(scratch);
  unsigned* other_values = reinterpret_cast<unsigned*>(scratch + plan.values_offset);
  unsigned* counts = reinterpret_cast<unsigned*>(scratch + plan.counts_offset);
  unsigned* tile_counters = reinterpret_cast<unsigned*>(scratch + plan.tile_counters_offset);
  unsigned* status[2] = {reinterpret_cast<unsigned*>(scratch + plan.status_offset),
                         reinterpret_cast<unsigned*>(scratch + plan.status_offset) + plan.tiles * kRadix};
  const bool pairs = values_in != nullptr;
  static const unsigned histogram_blocks = [] {
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    return static_cast<unsigned>(2 * std::max(1, sms));  // two blocks of 1024 threads per SM
  }();
  const std::size_t histogram_tiles = (n + kItemsPerThread * kHistogramThreads - 1) / (kItemsPerThread * kHistogramThreads);
  // The counts, the tile counters and the first pass's status words; pass 0 clears the
  // words of pass 1, and so on.
  cudaMemsetAsync(counts, 0, plan.status_offset - plan.counts_offset + plan.tiles * kRadix * sizeof(unsigned), stream);
  all_digits_histogram_kernel<<<static_cast<unsigned>(std::min<std::size_t>(histogram_blocks, histogram_tiles)),
                                kHistogramThreads, 0, stream>>>(keys_in, n, counts, passes);
  check_launch("all_digits_histogram_kernel");
  digit_starts_kernel<<<passes.count, kRadix, 0, stream>>>(counts);
  check_launch("digit_starts_kernel");
  const unsigned* src_keys = keys_in;
  const unsigned* src_values = values_in;
  for (int p = 0; p < passes.count; ++p) {
    const bool to_output = (passes.count - 1 - p) % 2 == 0;
    unsigned* dst_keys = to_output ? keys_out : other_keys;
    unsigned* dst_values = to_output ? values_out : other_values;
    const unsigned grid = static_cast<unsigned>(plan.tiles);
    if (pairs)
      onesweep_kernel<true><<<grid, kBlockThreads, 0, stream>>>(src_keys, dst_keys, src_values, dst_values, n,
                                                                counts + p * kRadix, status[p % 2],
                                                                status[(p + 1) % 2], tile_counters + p,
                                                                passes.pass[p]);
    else
      onesweep_kernel<false><<<grid, kBlockThreads, 0, stream>>>(src_keys, dst_keys, nullptr, nullptr, n,
                                                                 counts + p * kRadix, status[p % 2],
                                                                 status[(p + 1) % 2], tile_counters + p,
                                                                 passes.pass[p]);
    check_launch("onesweep_kernel");
    src_keys = dst_keys;
    src_values = dst_values;
  }
}

void sort(void* d_temp_storage, std::size_t& temp_storage_bytes, const unsigned* keys_in, unsigned* keys_out,
          const unsigned* values_in, unsigned* values_out, std::size_t n, int begin_bit, int end_bit, KeyKind kind,
          cudaStream_t stream, Algorithm algorithm) {
  if (algorithm == Algorithm::onesweep && !onesweep_available())
    throw std::logic_error("radix_sort: the one-sweep sort, stretch steps TODO(11.7-11.9), is not written yet");
  if (begin_bit < 0 || end_bit > 32 || begin_bit > end_bit)
    throw std::invalid_argument("radix_sort: need 0 <= begin_bit <= end_bit <= 32, got [" +
                                std::to_string(begin_bit) + ", " + std::to_string(end_bit) + ")");
  if (n >= (std::size_t(1) << 32)) throw std::invalid_argument("radix_sort: n must be below 2^32");
  const bool pairs = values_in != nullptr;
  const Plan plan = make_plan(n, pairs);
  if (d_temp_storage == nullptr) {
    temp_storage_bytes = plan.temp_bytes;
    return;
  }
  if (temp_storage_bytes < plan.temp_bytes)
    throw std::invalid_argument("radix_sort: temp_storage_bytes is " + std::to_string(temp_storage_bytes) +
                                ", the sort needs " + std::to_string(plan.temp_bytes));
  if (n == 0) return;
  const int passes = (end_bit - begin_bit + kRadixBits - 1) / kRadixBits;
  if (passes == 0) {  // no bits: the sort is a copy
    cudaMemcpyAsync(keys_out, keys_in, n * sizeof(unsigned), cudaMemcpyDeviceToDevice, stream);
    if (pairs) cudaMemcpyAsync(values_out, values_in, n * sizeof(unsigned), cudaMemcpyDeviceToDevice, stream);
    return;
  }
  auto* scratch = static_cast<unsigned char*>(d_temp_storage);
  if (algorithm != Algorithm::three_kernels && onesweep_available() && n < kOnesweepMaxKeys) {
    Passes all;
    all.count = passes;
    for (int p = 0; p < passes; ++p) {
      Pass& pass = all.pass[p];
      pass.shift = begin_bit + p * kRadixBits;
      pass.mask = (1u << std::min(kRadixBits, end_bit - pass.shift)) - 1u;
      pass.encode = p == 0;
      pass.decode = p == passes - 1;
      pass.kind = kind;
    }
    return sort_onesweep(plan, scratch, keys_in, keys_out, values_in, values_out, n, all, stream);
  }
  unsigned* other_keys = reinterpret_cast<unsigned*>(scratch);
  unsigned* other_values = reinterpret_cast<unsigned*>(scratch + plan.values_offset);
  unsigned* counts = reinterpret_cast<unsigned*>(scratch + plan.counts_offset);
  const unsigned blocks = static_cast<unsigned>(plan.blocks);
  const unsigned num_counts = static_cast<unsigned>(plan.blocks * kRadix);

  const unsigned* src_keys = keys_in;
  const unsigned* src_values = values_in;
  for (int p = 0; p < passes; ++p) {
    // Ping-pong so that the last pass writes the caller's output.
    const bool to_output = (passes - 1 - p) % 2 == 0;
    unsigned* dst_keys = to_output ? keys_out : other_keys;
    unsigned* dst_values = to_output ? values_out : other_values;
    Pass pass;
    pass.shift = begin_bit + p * kRadixBits;
    pass.mask = (1u << std::min(kRadixBits, end_bit - pass.shift)) - 1u;
    pass.encode = p == 0;
    pass.decode = p == passes - 1;
    pass.kind = kind;
    histogram_kernel<<<blocks, kHistogramThreads, 0, stream>>>(src_keys, n, plan.keys_per_block, counts, pass);
    check_launch("histogram_kernel");
    scan_counts_kernel<<<1, kScanThreads, 0, stream>>>(counts, num_counts);
    check_launch("scan_counts_kernel");
    if (pairs)
      scatter_kernel<true><<<blocks, kBlockThreads, 0, stream>>>(src_keys, dst_keys, src_values, dst_values, n,
                                                                 plan.keys_per_block, counts, pass);
    else
      scatter_kernel<false><<<blocks, kBlockThreads, 0, stream>>>(src_keys, dst_keys, nullptr, nullptr, n,
                                                                  plan.keys_per_block, counts, pass);
    check_launch("scatter_kernel");
    src_keys = dst_keys;
    src_values = dst_values;
  }
}

template <class K>
const unsigned* bits(const K* p) {
  static_assert(sizeof(K) == sizeof(unsigned), "32-bit keys only");
  return reinterpret_cast<const unsigned*>(p);
}
template <class K>
unsigned* bits(K* p) {
  return reinterpret_cast<unsigned*>(p);
}

}  // namespace

void radix_sort_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const unsigned* d_keys_in,
                     unsigned* d_keys_out, std::size_t n, int begin_bit, int end_bit, cudaStream_t stream,
                     Algorithm algorithm) {
  sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, nullptr, nullptr, n, begin_bit, end_bit,
       KeyKind::unsigned_int, stream, algorithm);
}
void radix_sort_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const int* d_keys_in, int* d_keys_out,
                     std::size_t n, int begin_bit, int end_bit, cudaStream_t stream, Algorithm algorithm) {
  sort(d_temp_storage, temp_storage_bytes, bits(d_keys_in), bits(d_keys_out), nullptr, nullptr, n, begin_bit,
       end_bit, KeyKind::signed_int, stream, algorithm);
}
void radix_sort_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const float* d_keys_in,
                     float* d_keys_out, std::size_t n, int begin_bit, int end_bit, cudaStream_t stream,
                     Algorithm algorithm) {
  sort(d_temp_storage, temp_storage_bytes, bits(d_keys_in), bits(d_keys_out), nullptr, nullptr, n, begin_bit,
       end_bit, KeyKind::floating, stream, algorithm);
}
void radix_sort_pairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const unsigned* d_keys_in,
                      unsigned* d_keys_out, const unsigned* d_values_in, unsigned* d_values_out, std::size_t n,
                      int begin_bit, int end_bit, cudaStream_t stream, Algorithm algorithm) {
  sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, begin_bit,
       end_bit, KeyKind::unsigned_int, stream, algorithm);
}
void radix_sort_pairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const int* d_keys_in, int* d_keys_out,
                      const unsigned* d_values_in, unsigned* d_values_out, std::size_t n, int begin_bit, int end_bit,
                      cudaStream_t stream, Algorithm algorithm) {
  sort(d_temp_storage, temp_storage_bytes, bits(d_keys_in), bits(d_keys_out), d_values_in, d_values_out, n,
       begin_bit, end_bit, KeyKind::signed_int, stream, algorithm);
}
void radix_sort_pairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const float* d_keys_in,
                      float* d_keys_out, const unsigned* d_values_in, unsigned* d_values_out, std::size_t n,
                      int begin_bit, int end_bit, cudaStream_t stream, Algorithm algorithm) {
  sort(d_temp_storage, temp_storage_bytes, bits(d_keys_in), bits(d_keys_out), d_values_in, d_values_out, n,
       begin_bit, end_bit, KeyKind::floating, stream, algorithm);
}

}  // namespace pplab::lab11
