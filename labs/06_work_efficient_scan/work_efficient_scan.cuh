/// \file
/// \brief Lab 06 contract: the work-efficient (Blelloch) scan, and a single-pass scan
/// with decoupled look-back as a stretch step.
///
/// Given: a device array `d_in` of `n` elements (int or float), a device array `d_out`
/// of `n` elements.
/// Asked: exclusive scan `d_out[i] = in[0] + ... + in[i-1]` (`d_out[0] = 0`), or
/// inclusive scan `d_out[i] = in[0] + ... + in[i]`, for every i in [0, n); `d_in` is
/// not changed.
/// Assume: n is anything (0 writes nothing); `d_in` and `d_out` may be the same array
/// (an in-place scan) but must not otherwise overlap, and may start at any 4-byte
/// aligned address. Integer sums wrap; float sums may be added in any order and are
/// checked with a tolerance. The launchers keep a scratch buffer between calls, so two
/// scans must not run at the same time on different streams.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

namespace pplab::lab06 {

/// Threads per block of the tiles algorithm; each thread owns two elements, so a tile
/// holds 2 * block_threads elements.
inline constexpr int kBlockThreads = 256;

/// How the scan runs.
enum class Algorithm {
  automatic,    ///< the single-pass scan when its stretch step is written, else tiles
  tiles,        ///< Blelloch scan of each tile, scan of the tile totals, add back (06.1-06.5)
  single_pass,  ///< one pass with decoupled look-back (stretch step 06.6)
};

/// d_out[i] = d_in[0] + ... + d_in[i-1], d_out[0] = 0, on `stream`. `block_threads` (a
/// power of two from 4 to 1024) shapes the tiles algorithm; the single-pass scan has
/// its own tuned shape. Throws std::invalid_argument for another block size, and
/// std::logic_error when Algorithm::single_pass is asked for before step 06.6 is written.
void exclusive_scan(const int* d_in, int* d_out, std::size_t n, Algorithm algorithm = Algorithm::automatic,
                    int block_threads = kBlockThreads, cudaStream_t stream = 0);
void exclusive_scan(const float* d_in, float* d_out, std::size_t n, Algorithm algorithm = Algorithm::automatic,
                    int block_threads = kBlockThreads, cudaStream_t stream = 0);

/// d_out[i] = d_in[0] + ... + d_in[i], on `stream`. Same arguments as exclusive_scan.
void inclusive_scan(const int* d_in, int* d_out, std::size_t n, Algorithm algorithm = Algorithm::automatic,
                    int block_threads = kBlockThreads, cudaStream_t stream = 0);
void inclusive_scan(const float* d_in, float* d_out, std::size_t n, Algorithm algorithm = Algorithm::automatic,
                    int block_threads = kBlockThreads, cudaStream_t stream = 0);

/// True once the stretch step 06.6 (the single-pass scan) is written.
bool single_pass_available();

/// Where element i of a tile lives in shared memory after bank-conflict padding
/// (step 06.3); exposed so the checks can test the padding on its own.
int shared_slot(int i);

}  // namespace pplab::lab06
