/// \file
/// \brief Lab 08 contract: gather and scatter by an index map, and the inverse permutation.
///
/// Given: device arrays of 4-byte values (int or float) and a device index map of
/// `std::uint32_t`.
/// Asked:
/// - gather:  `out[i] = in[map[i]]` for every i < n  (the map says where each output comes from)
/// - scatter: `out[map[i]] = in[i]` for every i < n  (the map says where each input goes)
/// - inverse permutation: `inv[perm[i]] = i` for every i < n
///
/// Preconditions (the caller's promise):
/// - every map value is a valid index: below `in_size` (gather), `out_size` (scatter), or
///   `n` (inverse permutation). The checked functions (`gather`, `scatter`,
///   `inverse_permutation`) test this on the device before launching and throw
///   std::invalid_argument naming the first bad position, its value and the bound;
///   the `_unchecked` forms trust the caller (an index out of range is an out-of-bounds
///   access), and are what the benchmark times beside Thrust;
/// - for scatter, the map values are distinct: with duplicates several threads write
///   one slot and which value lands there is unspecified (not checked);
/// - for the inverse, perm is a permutation of 0 .. n-1 (only the range is checked);
/// - inputs and outputs do not overlap; n and the sizes are below 2^32.
/// Scatter writes only the slots the map names; the others keep their contents.
/// The checked functions wait for the device (they read the check's result back).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace pplab::lab08 {

/// Threads per block.
inline constexpr int kBlockThreads = 256;

/// out[i] = in[map[i]], i < n. Throws std::invalid_argument if some map[i] >= in_size.
void gather(const int* d_in, std::size_t in_size, const std::uint32_t* d_map, int* d_out, std::size_t n,
            cudaStream_t stream = 0);
/// The same for floats.
void gather(const float* d_in, std::size_t in_size, const std::uint32_t* d_map, float* d_out, std::size_t n,
            cudaStream_t stream = 0);

/// out[map[i]] = in[i], i < n. Throws std::invalid_argument if some map[i] >= out_size.
void scatter(const int* d_in, const std::uint32_t* d_map, int* d_out, std::size_t out_size, std::size_t n,
             cudaStream_t stream = 0);
/// The same for floats.
void scatter(const float* d_in, const std::uint32_t* d_map, float* d_out, std::size_t out_size, std::size_t n,
             cudaStream_t stream = 0);

/// inv[perm[i]] = i, i < n. Throws std::invalid_argument if some perm[i] >= n.
void inverse_permutation(const std::uint32_t* d_perm, std::uint32_t* d_inv, std::size_t n,
                         cudaStream_t stream = 0);

/// gather without the index check: asynchronous, and the caller guarantees the precondition.
void gather_unchecked(const int* d_in, const std::uint32_t* d_map, int* d_out, std::size_t n,
                      cudaStream_t stream = 0);
/// The same for floats.
void gather_unchecked(const float* d_in, const std::uint32_t* d_map, float* d_out, std::size_t n,
                      cudaStream_t stream = 0);
/// scatter without the index check.
void scatter_unchecked(const int* d_in, const std::uint32_t* d_map, int* d_out, std::size_t n,
                       cudaStream_t stream = 0);
/// The same for floats.
void scatter_unchecked(const float* d_in, const std::uint32_t* d_map, float* d_out, std::size_t n,
                       cudaStream_t stream = 0);
/// inverse_permutation without the range check.
void inverse_permutation_unchecked(const std::uint32_t* d_perm, std::uint32_t* d_inv, std::size_t n,
                                   cudaStream_t stream = 0);

/// The precondition check on its own: throws std::invalid_argument naming `what` (e.g.
/// "gather: map"), the first i with d_map[i] >= bound, that value, and the bound.
/// Waits for the device.
void check_indices(const char* what, const std::uint32_t* d_map, std::size_t n, std::size_t bound,
                   cudaStream_t stream = 0);

}  // namespace pplab::lab08
