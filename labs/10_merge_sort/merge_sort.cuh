/// \file
/// \brief Lab 10 contract: merge sort (block sort of tiles, then parallel merges along
/// the merge path).
///
/// Given: device arrays of `n` keys (`int` or `unsigned`, any values including the
///   extremes of the type) and, for pairs, `n` values (`std::uint32_t`).
/// Asked: the keys in ascending order; equal keys keep their input order (the sort is
///   stable), and each value travels with its key. The inputs are unchanged unless
///   the output is the same array (sorting in place is allowed).
/// Assume: n is anything from 0 to 2^31 - 1. The sort takes scratch memory for n keys
///   (and n values) with cudaMallocAsync on `stream` and gives it back on the same stream.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace pplab::lab10 {

/// Threads per block of the merge passes (and of the other kernels but the block sort).
inline constexpr int kBlockThreads = 256;
/// Keys each thread sorts or merges. Odd, so that thread t's keys at t * 17 + k fall in
/// different shared-memory banks for neighbouring threads.
inline constexpr int kItemsPerThread = 17;
/// Keys per tile of a merge pass: what one block merges.
inline constexpr int kTileItems = kBlockThreads * kItemsPerThread;
/// Threads per block of the block sort where its tile fits the device's shared memory:
/// the largest block, because a merge round in shared memory costs far less than a merge
/// pass through global memory, and each doubling of the sorted tile saves one pass.
inline constexpr int kSortBlockThreads = 1024;
/// Keys per sorted tile of that block sort: what one of its blocks sorts (4 merge tiles).
inline constexpr int kSortTileItems = kSortBlockThreads * kItemsPerThread;
/// Threads per block of the block sort on a device with less shared memory: half as many,
/// a tile of 8704 keys (2 merge tiles), which every GPU from sm_70 on holds.
inline constexpr int kSmallSortBlockThreads = 512;
inline constexpr int kSmallSortTileItems = kSmallSortBlockThreads * kItemsPerThread;
static_assert(kSortTileItems <= 65536 && kSmallSortTileItems <= 65536, "a key's position in its tile is 16 bits");
static_assert(kSmallSortTileItems % kTileItems == 0, "a sorted run is whole merge tiles");

/// The block sort's dynamic shared memory for blocks of `sort_threads` threads: the tile's
/// 32-bit keys and, for pairs, each key's 16-bit position in the tile (69,632 bytes for
/// keys at 1024 threads, 104,448 for pairs; 34,816 and 52,224 at 512).
constexpr std::size_t block_sort_shared_bytes(int sort_threads, bool pairs) {
  return std::size_t(sort_threads) * kItemsPerThread *
         (sizeof(std::uint32_t) + (pairs ? sizeof(std::uint16_t) : 0));
}

/// The rule for the block sort's size, in one place: kSortBlockThreads when its tile fits
/// `optin_bytes`, the most dynamic shared memory a block of the device may opt into
/// (cudaDevAttrMaxSharedMemoryPerBlockOptin), else kSmallSortBlockThreads. Keys take 1024
/// threads from 68 KiB on (V100, A10, L4, A100, H100, H200), pairs from 102 KiB on (A100,
/// H100, H200); a T4 (64 KiB) sorts both with 512.
constexpr int sort_block_threads_for(std::size_t optin_bytes, bool pairs) {
  return block_sort_shared_bytes(kSortBlockThreads, pairs) <= optin_bytes ? kSortBlockThreads
                                                                          : kSmallSortBlockThreads;
}
// The small tile fits the least that a GPU from sm_70 on lets a block opt into: a T4's 64 KiB.
static_assert(block_sort_shared_bytes(kSmallSortBlockThreads, true) <= 65536, "the small tile fits a T4");

/// Which kernel merges sorted runs in the passes after the block sort.
enum class MergeKernel {
  global,  ///< TODO 10.5: each thread finds its split in global memory and merges its keys there
  tiled,   ///< stretch TODO 10.7-10.9: a block stages its tile of both runs in shared memory
  tiled_splits_first,  ///< tiled, with every tile's split found by a kernel before it, as for many tiles
  best,    ///< tiled when written (kTiledMergeWritten), else global
};

/// Which block sort sorts the tiles before the merge passes.
enum class SortTile {
  best,   ///< the device's: sort_block_threads_for(its opt-in shared memory, keys or pairs)
  small,  ///< kSmallSortBlockThreads, what a T4 runs, on any device: the checks run it everywhere
};

/// The threads per block of the block sort that sort_keys (pairs false) or sort_pairs
/// (pairs true) runs with `tile` on the current device: for SortTile::best,
/// sort_block_threads_for(its cudaDevAttrMaxSharedMemoryPerBlockOptin, pairs). Its tile is
/// that many times kItemsPerThread keys, the first run of the merge passes.
int sort_block_threads(bool pairs, SortTile tile = SortTile::best);

/// Whether the stretch steps 10.7-10.9 are switched on (kTiledMergeWritten): until then
/// MergeKernel::tiled, tiled_splits_first and best run the global merge passes, and the
/// checks name the global passes' steps.
bool tiled_merge_available();

/// Sorts d_keys_in[0, n) into d_keys_out, stably, on `stream`. d_keys_out may be d_keys_in.
template <class Key>
void sort_keys(const Key* d_keys_in, Key* d_keys_out, std::size_t n, cudaStream_t stream = 0,
               MergeKernel merge = MergeKernel::best, SortTile tile = SortTile::best);

/// Sorts the pairs (d_keys_in[i], d_values_in[i]) by key, stably, into d_keys_out and
/// d_values_out, on `stream`. The outputs may be the inputs.
template <class Key>
void sort_pairs(const Key* d_keys_in, const std::uint32_t* d_values_in, Key* d_keys_out,
                std::uint32_t* d_values_out, std::size_t n, cudaStream_t stream = 0,
                MergeKernel merge = MergeKernel::best, SortTile tile = SortTile::best);

/// Merges the sorted arrays d_a[0, a_count) and d_b[0, b_count) into d_out (a_count +
/// b_count keys), stably: of equal keys, those of a come first. The lecture's merge.
template <class Key>
void merge_keys(const Key* d_a, std::size_t a_count, const Key* d_b, std::size_t b_count, Key* d_out,
                cudaStream_t stream = 0, MergeKernel merge = MergeKernel::best);

// The key types the lab provides (explicitly instantiated in merge_sort.cu).
extern template void sort_keys<int>(const int*, int*, std::size_t, cudaStream_t, MergeKernel, SortTile);
extern template void sort_keys<unsigned>(const unsigned*, unsigned*, std::size_t, cudaStream_t, MergeKernel,
                                         SortTile);
extern template void sort_pairs<int>(const int*, const std::uint32_t*, int*, std::uint32_t*, std::size_t,
                                     cudaStream_t, MergeKernel, SortTile);
extern template void sort_pairs<unsigned>(const unsigned*, const std::uint32_t*, unsigned*, std::uint32_t*,
                                          std::size_t, cudaStream_t, MergeKernel, SortTile);
extern template void merge_keys<int>(const int*, std::size_t, const int*, std::size_t, int*, cudaStream_t,
                                     MergeKernel);
extern template void merge_keys<unsigned>(const unsigned*, std::size_t, const unsigned*, std::size_t,
                                          unsigned*, cudaStream_t, MergeKernel);

}  // namespace pplab::lab10
