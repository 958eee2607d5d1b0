/// \file
/// \brief Lab 11 contract: LSB radix sort, from the lecture's 1-bit split to 8-bit digits.
///
/// Part 1, the lecture's split (one block): `split_sort` sorts up to kSplitMaxKeys keys by
/// one bit at a time, bits begin_bit .. end_bit-1, each pass a stable split (keys with a
/// 0 bit first, then keys with a 1 bit, each group in its previous order).
///
/// Part 2, any n: `radix_sort_keys` / `radix_sort_pairs` sort 32-bit keys (unsigned, int or
/// float) in ascending order, 8 bits per pass: per-block digit histograms, an exclusive
/// scan of the histograms (digit-major across blocks), and a stable scatter.
///
/// Part 4 (stretch), the one-sweep sort: one histogram of every digit in one read, then one
/// kernel per digit that ranks a tile and finds its place by decoupled look-back.
///
/// Given: device arrays of n keys (and n unsigned values for pairs), a scratch buffer.
/// Asked: keys_out = the keys in ascending order; values_out[i] = the value that came with
///   keys_out[i]; equal keys keep their input order (the sort is stable).
/// Scratch, as in CUB: call once with d_temp_storage == nullptr to learn
///   temp_storage_bytes, allocate that much, call again to sort.
/// Order of signed ints: INT_MIN .. -1, 0 .. INT_MAX. Order of floats: -inf, negative
///   numbers, -0.0f, +0.0f, positive numbers, +inf (bit-pattern order after the flips of
///   TODO 11.6; NaNs with the sign bit clear go last, with it set first).
/// Only bits [begin_bit, end_bit) of the (flipped) key take part, as in CUB.
/// Assume: n < 2^32; 0 <= begin_bit <= end_bit <= 32; inputs are not changed; outputs
///   must not overlap the inputs.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

namespace pplab::lab11 {

/// Largest n for split_sort: one key per thread of one block.
inline constexpr int kSplitMaxKeys = 1024;
/// Bits per digit of the device-wide sort: 256 digits, 4 passes for 32-bit keys.
inline constexpr int kRadixBits = 8;
inline constexpr int kRadix = 1 << kRadixBits;
/// Threads per block of the device-wide sort: one thread per digit.
inline constexpr int kBlockThreads = kRadix;
/// How the device-wide sort runs.
enum class Algorithm {
  automatic,      ///< the one-sweep sort when its stretch steps are written, else three kernels
  three_kernels,  ///< per digit: histogram, scan of the histograms, scatter (11.2-11.5)
  onesweep,       ///< stretch (11.7-11.9): every digit counted at once, one look-back pass per digit
                  ///< (for n below 2^30, as its status words hold 30-bit counts; larger n
                  ///< runs the three kernels)
};

/// Keys each thread holds per tile, and keys per tile.
inline constexpr int kItemsPerThread = 16;
inline constexpr int kTileKeys = kBlockThreads * kItemsPerThread;
/// Keys each thread holds per tile of the one-sweep sort (stretch). Keys alone take 20:
/// the registers that pairs spend on values hold more keys instead, and bigger tiles mean
/// fewer tiles to chain by look-back. On an H200, sorting 2^24 keys took 0.520 ms at 20
/// keys and 3 blocks a multiprocessor, 0.535 ms at 16 and 4, 0.550 ms at 24 and 2.
inline constexpr int kOnesweepItemsKeys = 20;
inline constexpr int kOnesweepItemsPairs = kItemsPerThread;
inline constexpr int kOnesweepTileKeys = kBlockThreads * kOnesweepItemsKeys;
inline constexpr int kOnesweepTilePairs = kBlockThreads * kOnesweepItemsPairs;

/// The lecture's 1-bit passes in one block. d_positions (may be null) receives, for each
/// input key i, the index it ends at in d_out (for a single bit: the lecture's "new
/// position" row). Throws std::invalid_argument for n > kSplitMaxKeys or bad bits.
void split_sort(const unsigned* d_in, unsigned* d_out, unsigned* d_positions, std::size_t n, int begin_bit = 0,
                int end_bit = 32, cudaStream_t stream = 0);

/// Device-wide radix sort of keys (see the file comment for the scratch protocol; the size
/// asked for does not depend on the algorithm). Throws std::invalid_argument for bad bits
/// or too little scratch, and std::logic_error when Algorithm::onesweep is asked for before
/// steps 11.7-11.9 are written.
void radix_sort_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const unsigned* d_keys_in,
                     unsigned* d_keys_out, std::size_t n, int begin_bit = 0, int end_bit = 32,
                     cudaStream_t stream = 0, Algorithm algorithm = Algorithm::automatic);
void radix_sort_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const int* d_keys_in,
                     int* d_keys_out, std::size_t n, int begin_bit = 0, int end_bit = 32, cudaStream_t stream = 0,
                     Algorithm algorithm = Algorithm::automatic);
void radix_sort_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const float* d_keys_in,
                     float* d_keys_out, std::size_t n, int begin_bit = 0, int end_bit = 32,
                     cudaStream_t stream = 0, Algorithm algorithm = Algorithm::automatic);

/// Device-wide stable radix sort of key-value pairs.
void radix_sort_pairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const unsigned* d_keys_in,
                      unsigned* d_keys_out, const unsigned* d_values_in, unsigned* d_values_out, std::size_t n,
                      int begin_bit = 0, int end_bit = 32, cudaStream_t stream = 0,
                      Algorithm algorithm = Algorithm::automatic);
void radix_sort_pairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const int* d_keys_in,
                      int* d_keys_out, const unsigned* d_values_in, unsigned* d_values_out, std::size_t n,
                      int begin_bit = 0, int end_bit = 32, cudaStream_t stream = 0,
                      Algorithm algorithm = Algorithm::automatic);
void radix_sort_pairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const float* d_keys_in,
                      float* d_keys_out, const unsigned* d_values_in, unsigned* d_values_out, std::size_t n,
                      int begin_bit = 0, int end_bit = 32, cudaStream_t stream = 0,
                      Algorithm algorithm = Algorithm::automatic);

/// True once the stretch steps 11.7-11.9 (the one-sweep sort) are written.
bool onesweep_available();

}  // namespace pplab::lab11
