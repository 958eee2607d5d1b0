/// \file
/// \brief Lab 07 contract: stream compaction, "select the elements greater than a threshold".
///
/// Given: a device array `d_in` of `n` values (int or float), a threshold, and a device
/// array `d_out` with room for `n` values.
/// Asked: copy every `d_in[i] > threshold` to the front of `d_out`, keeping the input
/// order, and report how many were kept (the count k). `d_out[0 .. k)` holds the kept
/// values; `d_out[k .. n)` is left exactly as it was.
/// Assume: `n < 2^32` (counts and positions are 32-bit); `d_in` and `d_out` do not overlap.
/// NaN is never greater than the threshold, so a float NaN is never kept.
///
/// Two ways through, with the same result:
/// - `CompactPath::three_kernels`, the lecture's steps: flags (a map), an exclusive scan
///   of the flags over many blocks, and a scatter (a map).
/// - `CompactPath::single_pass`, the stretch step: one kernel that flags, scans and
///   writes each tile, chaining tiles by decoupled look-back. It falls back to the three
///   kernels while that step is not written.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

namespace pplab::lab07 {

/// Threads per block of the three-kernel path (one element per thread).
inline constexpr int kBlockThreads = 256;

/// Which kernels compact runs.
enum class CompactPath {
  three_kernels,  ///< flag map, multi-block exclusive scan, scatter map
  single_pass,    ///< one fused pass with decoupled look-back (stretch; falls back if unwritten)
};

/// Bytes of device scratch memory compact_async needs for n items (either path).
std::size_t compact_temp_bytes(std::size_t n);

/// CUB-style form, for timing: enqueues the compaction on `stream` and writes the count
/// to the device word `*d_count`. `d_temp` must hold compact_temp_bytes(n) bytes.
/// Returns the path it actually took. Throws std::invalid_argument for n >= 2^32 or
/// too little scratch memory.
CompactPath compact_async(const int* d_in, int* d_out, unsigned* d_count, std::size_t n, int threshold,
                          void* d_temp, std::size_t temp_bytes,
                          CompactPath path = CompactPath::single_pass, cudaStream_t stream = 0);
/// The same for floats.
CompactPath compact_async(const float* d_in, float* d_out, unsigned* d_count, std::size_t n,
                          float threshold, void* d_temp, std::size_t temp_bytes,
                          CompactPath path = CompactPath::single_pass, cudaStream_t stream = 0);

/// Copies the elements of d_in greater than `threshold` to the front of d_out, in input
/// order, and returns how many it copied. Allocates its own scratch memory and waits
/// for the device. Throws std::invalid_argument for n >= 2^32.
std::size_t compact(const int* d_in, int* d_out, std::size_t n, int threshold,
                    CompactPath path = CompactPath::single_pass, cudaStream_t stream = 0);
/// The same for floats.
std::size_t compact(const float* d_in, float* d_out, std::size_t n, float threshold,
                    CompactPath path = CompactPath::single_pass, cudaStream_t stream = 0);

}  // namespace pplab::lab07
