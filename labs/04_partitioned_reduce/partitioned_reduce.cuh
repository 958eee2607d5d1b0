/// \file
/// \brief Lab 04 contract: the partitioned reduction, for more elements than threads.
///
/// Given: a device array `d_in` of `n` values of T (int or float), a device T `d_out`.
/// Asked: `*d_out = in[0] + in[1] + ... + in[n-1]` (0 for n = 0), computed by a grid of
/// a fixed size, however large n is: each thread first adds up every
/// grid-size-th element (a grid-stride loop), each block adds up its threads, and
/// the blocks' partial sums are combined by one of two Methods.
/// Assume: `block_threads` is a power of two from 4 to 1024; n is anything (checked up
/// to 2^28 on a GPU). Int sums do not overflow (the checks choose inputs so). Float sums
/// may be added in any order: they are checked with a tolerance that grows with n.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

namespace pplab::lab04 {

/// Threads per block unless the caller asks otherwise.
inline constexpr int kBlockThreads = 256;

/// How the blocks' partial sums become one sum.
enum class Method {
  two_pass,  ///< each block writes its partial sum to an array; a second pass of one block adds them up
  atomics,   ///< each block adds its partial sum into *d_out with atomicAdd
};

/// The fixed grid: as many blocks as the device runs at once (a few per
/// multiprocessor), or fewer when n is small; at least 1.
unsigned partitioned_grid_size(std::size_t n, int block_threads = kBlockThreads);

/// Writes the sum of d_in[0, n) to *d_out, on `stream`, for T = int and float.
/// `grid_blocks` = 0 lets partitioned_grid_size choose the grid; any other value fixes
/// it (the checks use tiny grids to make every thread loop many times).
/// Throws std::invalid_argument for a block size that is not a power of two in [4, 1024].
/// Method::two_pass uses a scratch buffer kept between calls: do not run two sums at
/// once on different streams.
template <class T>
void partitioned_sum(const T* d_in, T* d_out, std::size_t n, Method method = Method::two_pass,
                     int block_threads = kBlockThreads, unsigned grid_blocks = 0, cudaStream_t stream = 0);

}  // namespace pplab::lab04
