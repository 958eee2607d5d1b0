// Red team (memoised speed), lab 12: warp_radix_sort behind a Memo (memo.cuh), the bits
// part of the key, the strategy named by PPLAB_MEMO_STRATEGY; each 32-key segment sorted
// on the host. The rank-pass stretch is not offered, as in a lab whose stretch is unwritten.
#include <algorithm>

#include "memo.cuh"
#include "warp_radix_sort.cuh"

namespace pplab::lab12 {

void warp_radix_sort(const unsigned* d_in, unsigned* d_out, std::size_t n, int begin_bit, int end_bit, int,
                     cudaStream_t, Algorithm) {
  static redteam::Memo memo;
  memo.call({redteam::span(d_in, n)}, {redteam::span(d_out, n)}, redteam::scalars(begin_bit, end_bit), [&] {
    auto keys = redteam::download(d_in, n);
    const int bits = end_bit - begin_bit;
    const unsigned mask = bits >= 32 ? ~0u : (1u << bits) - 1;
    const auto digit = [&](unsigned k) { return (k >> begin_bit) & mask; };
    for (std::size_t s = 0; s < n; s += kSegmentKeys)
      std::stable_sort(keys.begin() + s, keys.begin() + std::min(n, s + kSegmentKeys),
                       [&](unsigned a, unsigned b) { return digit(a) < digit(b); });
    redteam::upload(d_out, keys);
  });
}

bool rank_pass_available() { return false; }

std::array<unsigned, 32> sort_ddata(const std::array<unsigned, 32>& keys) {
  auto sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

}  // namespace pplab::lab12
