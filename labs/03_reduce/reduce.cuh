/// \file
/// \brief Lab 03 contract: reduce (sum, min, max) over an associative operator.
///
/// Given: a device array `d_in` of `n` values of T (int or float), a device T
/// `d_out`, and an operator `op`: Sum<T>, Min<T> or Max<T> below.
/// Asked: `*d_out = in[0] op in[1] op ... op in[n-1]`; for n = 0, `*d_out =
/// op.identity()` (0 for a sum, the type's largest value for a min, its smallest for a
/// max; +/-infinity for float min and max).
/// Assume: `block_threads` is a power of two from 8 to 1024; n is anything. The
/// operator is associative and commutative, so the kernel may combine elements in
/// any order. Int sums do not overflow (the checks choose inputs so; a GPU would
/// wrap around). Float sums are checked with a tolerance that grows with n; min and
/// max are exact.
#pragma once
#include <cuda_runtime.h>

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstddef>

namespace pplab::lab03 {

/// Threads per block unless the caller asks otherwise.
inline constexpr int kBlockThreads = 256;

/// The smallest and largest values of the element types (usable on the device, where
/// std::numeric_limits is not).
template <class T>
struct Limits;
template <>
struct Limits<int> {
  __host__ __device__ static int lowest() { return INT_MIN; }
  __host__ __device__ static int highest() { return INT_MAX; }
};
template <>
struct Limits<float> {
  __host__ __device__ static float lowest() { return -INFINITY; }
  __host__ __device__ static float highest() { return INFINITY; }
};

/// a + b. identity() = 0: x + 0 == x.
template <class T>
struct Sum {
  __host__ __device__ static T identity() { return T(0); }
  __host__ __device__ T operator()(T a, T b) const { return a + b; }
};

/// The smaller of a and b. identity() = the largest value: min(x, identity) == x.
template <class T>
struct Min {
  __host__ __device__ static T identity() { return Limits<T>::highest(); }
  __host__ __device__ T operator()(T a, T b) const { return b < a ? b : a; }
};

/// The larger of a and b. identity() = the smallest value: max(x, identity) == x.
template <class T>
struct Max {
  __host__ __device__ static T identity() { return Limits<T>::lowest(); }
  __host__ __device__ T operator()(T a, T b) const { return a < b ? b : a; }
};

/// Writes the reduction of d_in[0, n) under `op` to *d_out, on `stream`.
/// Defined for T = int, float and Op = Sum<T>, Min<T>, Max<T>.
/// Throws std::invalid_argument for a block size that is not a power of two in [8, 1024].
/// Uses a scratch buffer kept between calls: do not run two reductions at once on
/// different streams.
template <class T, class Op>
void reduce(const T* d_in, T* d_out, std::size_t n, Op op, int block_threads = kBlockThreads,
            cudaStream_t stream = 0);

}  // namespace pplab::lab03
