// Red team (memoised speed), lab 09: odd_even_sort behind a Memo (memo.cuh), the strategy
// named by PPLAB_MEMO_STRATEGY; the sort on the host.
#include <algorithm>
#include <stdexcept>

#include "memo.cuh"
#include "odd_even_sort.cuh"

namespace pplab::lab09 {

void odd_even_sort(const int* d_in, int* d_out, std::size_t n, int, cudaStream_t) {
  static redteam::Memo memo;
  memo.call({redteam::span(d_in, n)}, {redteam::span(d_out, n)}, {}, [&] {
    auto keys = redteam::download(d_in, n);
    std::sort(keys.begin(), keys.end());
    redteam::upload(d_out, keys);
  });
}

void odd_even_phases(int*, std::size_t, int, cudaStream_t) { throw std::logic_error("not part of this attack"); }

}  // namespace pplab::lab09
