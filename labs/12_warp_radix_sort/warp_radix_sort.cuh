/// \file
/// \brief Lab 12 contract: the single-warp radix sort, many warps at once, and (stretch)
/// the same sort with each key moved once (the rank pass).
///
/// Given: a device array `d_in` of `n` unsigned 32-bit keys, an output `d_out` of n keys.
/// Asked: sort every segment of 32 consecutive keys on its own: segment s is
///   `d_in[32*s .. 32*s + 31]`, and `d_out[32*s .. 32*s + 31]` must hold the same keys in
///   ascending order. One warp sorts one segment (one key per lane); each block holds
///   `warps_per_block` warps, so a block sorts that many segments side by side.
/// The last segment may be partial (n need not be a multiple of 32): its missing lanes
/// hold the padding key 0xFFFFFFFF, which sorts last, and only its real keys are written
/// back, so `d_out[32*s .. n-1]` holds the r = n - 32*s real keys in order.
/// Only bits [begin_bit, end_bit) take part, least significant first, as in the lecture
/// (its program used LOWER_BIT 0 and UPPER_BIT 31): with fewer bits the output is the
/// stable sort of each segment by those bits, the lecture's intermediate tables.
/// Assume: 0 <= begin_bit <= end_bit <= 32; warps_per_block from 1 to 32; any n.
#pragma once
#include <cuda_runtime.h>

#include <array>
#include <cstddef>

namespace pplab::lab12 {

/// Keys per segment: one per lane of a warp.
inline constexpr int kSegmentKeys = 32;
/// Warps per block unless the caller asks otherwise.
inline constexpr int kWarpsPerBlock = 8;
/// The key that pads a partial last segment; it sorts after every real key.
inline constexpr unsigned kPaddingKey = 0xFFFFFFFFu;

/// How the warps sort their segments.
enum class Algorithm {
  automatic,   ///< the rank pass when its stretch step is written, else the bit passes
  bit_passes,  ///< the lecture's passes: one bit per __ballot_sync, ping-pong buffers (12.1-12.3)
  rank_pass,   ///< stretch (12.4-12.5): the same ballots, each key's place kept in a register; a key moves once
};

/// Sorts each 32-key segment of d_in into d_out (see the file comment), on `stream`.
/// Throws std::invalid_argument for bits outside [0, 32] or warps_per_block outside [1, 32],
/// and std::logic_error when Algorithm::rank_pass is asked for before step 12.5 is written.
void warp_radix_sort(const unsigned* d_in, unsigned* d_out, std::size_t n, int begin_bit = 0,
                     int end_bit = 32, int warps_per_block = kWarpsPerBlock, cudaStream_t stream = 0,
                     Algorithm algorithm = Algorithm::automatic);

/// True once the stretch steps 12.4-12.5 (the rank pass) are written.
bool rank_pass_available();

/// The lecture's program, in current CUDA: copies `keys` into the device symbol
/// `ddata[32]` with cudaMemcpyToSymbol, runs one warp (`<<<1, 32>>>`) that sorts it in
/// place, and copies it back with cudaMemcpyFromSymbol.
std::array<unsigned, 32> sort_ddata(const std::array<unsigned, 32>& keys);

}  // namespace pplab::lab12
