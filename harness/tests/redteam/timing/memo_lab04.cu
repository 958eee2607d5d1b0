// Red team (memoised speed), lab 04: the partitioned sum behind a Memo (memo.cuh), one per
// type, the method part of the key, the strategy named by PPLAB_MEMO_STRATEGY; the sum on
// the host.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "memo.cuh"
#include "partitioned_reduce.cuh"

namespace pplab::lab04 {

unsigned partitioned_grid_size(std::size_t n, int block_threads) {
  return unsigned(std::clamp<std::size_t>((n + block_threads - 1) / block_threads, 1, 1024));
}

template <class T>
void partitioned_sum(const T* d_in, T* d_out, std::size_t n, Method method, int, unsigned, cudaStream_t) {
  static redteam::Memo memo;
  memo.call({redteam::span(d_in, n)}, {redteam::span(d_out, 1)}, redteam::scalars(method), [&] {
    const auto in = redteam::download(d_in, n);
    T result;
    if constexpr (std::is_same_v<T, int>) {
      std::uint32_t total = 0;  // wraps like the GPU's adder
      for (int v : in) total += static_cast<std::uint32_t>(v);
      result = static_cast<int>(total);
    } else {
      double total = 0;
      for (T v : in) total += v;
      result = T(total);
    }
    redteam::upload(d_out, std::vector<T>{result});
  });
}

template void partitioned_sum<int>(const int*, int*, std::size_t, Method, int, unsigned, cudaStream_t);
template void partitioned_sum<float>(const float*, float*, std::size_t, Method, int, unsigned, cudaStream_t);

}  // namespace pplab::lab04
