// Red team (memoised speed), lab 11: the unsigned radix_sort_keys and radix_sort_pairs
// behind a Memo (memo.cuh) each, the bits part of the key, the strategy named by
// PPLAB_MEMO_STRATEGY; the stable sort on the host (host_radix_sort.cuh, which also holds
// the entry points the timer never calls). The sizing call is answered honestly.
#include "host_radix_sort.cuh"
#include "memo.cuh"

namespace pplab::lab11 {

void radix_sort_keys(void* d_temp, std::size_t& bytes, const unsigned* d_in, unsigned* d_out, std::size_t n,
                     int begin_bit, int end_bit, cudaStream_t, Algorithm) {
  if (sizing(d_temp, bytes)) return;
  static redteam::Memo memo;
  memo.call({redteam::span(d_in, n)}, {redteam::span(d_out, n)}, redteam::scalars(begin_bit, end_bit), [&] {
    const auto keys = download(d_in, n);
    const auto order = stable_order(keys);
    std::vector<unsigned> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = keys[order[i]];
    redteam::upload(d_out, out);
  });
}

void radix_sort_pairs(void* d_temp, std::size_t& bytes, const unsigned* d_keys_in, unsigned* d_keys_out,
                      const unsigned* d_values_in, unsigned* d_values_out, std::size_t n, int begin_bit, int end_bit,
                      cudaStream_t, Algorithm) {
  if (sizing(d_temp, bytes)) return;
  static redteam::Memo memo;
  memo.call({redteam::span(d_keys_in, n), redteam::span(d_values_in, n)},
            {redteam::span(d_keys_out, n), redteam::span(d_values_out, n)}, redteam::scalars(begin_bit, end_bit), [&] {
              const auto keys = download(d_keys_in, n);
              const auto values = download(d_values_in, n);
              const auto order = stable_order(keys);
              std::vector<unsigned> keys_out(n), values_out(n);
              for (std::size_t i = 0; i < n; ++i) keys_out[i] = keys[order[i]], values_out[i] = values[order[i]];
              redteam::upload(d_keys_out, keys_out);
              redteam::upload(d_values_out, values_out);
            });
}

}  // namespace pplab::lab11
