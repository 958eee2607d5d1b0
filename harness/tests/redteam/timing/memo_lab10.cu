// Red team (memoised speed), lab 10: sort_keys, sort_pairs and merge_keys behind a Memo
// (memo.cuh) each, per key type, the merge kernel and tile part of the key, the strategy
// named by PPLAB_MEMO_STRATEGY; the stable sort and the merge on the host. The tiled merge
// stretch is not offered, as in a lab whose stretch is unwritten.
#include <algorithm>
#include <cstdint>
#include <numeric>

#include "memo.cuh"
#include "merge_sort.cuh"

namespace pplab::lab10 {

bool tiled_merge_available() { return false; }

int sort_block_threads(bool, SortTile tile) {
  return tile == SortTile::small ? kSmallSortBlockThreads : kSortBlockThreads;
}

template <class Key>
void sort_keys(const Key* d_keys_in, Key* d_keys_out, std::size_t n, cudaStream_t, MergeKernel merge, SortTile tile) {
  static redteam::Memo memo;
  memo.call({redteam::span(d_keys_in, n)}, {redteam::span(d_keys_out, n)}, redteam::scalars(merge, tile), [&] {
    auto keys = redteam::download(d_keys_in, n);
    std::stable_sort(keys.begin(), keys.end());
    redteam::upload(d_keys_out, keys);
  });
}

template <class Key>
void sort_pairs(const Key* d_keys_in, const std::uint32_t* d_values_in, Key* d_keys_out, std::uint32_t* d_values_out,
                std::size_t n, cudaStream_t, MergeKernel merge, SortTile tile) {
  static redteam::Memo memo;
  memo.call({redteam::span(d_keys_in, n), redteam::span(d_values_in, n)},
            {redteam::span(d_keys_out, n), redteam::span(d_values_out, n)}, redteam::scalars(merge, tile), [&] {
              const auto keys = redteam::download(d_keys_in, n);
              const auto values = redteam::download(d_values_in, n);
              std::vector<std::size_t> order(n);
              std::iota(order.begin(), order.end(), std::size_t{0});
              std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
              std::vector<Key> keys_out(n);
              std::vector<std::uint32_t> values_out(n);
              for (std::size_t i = 0; i < n; ++i) keys_out[i] = keys[order[i]], values_out[i] = values[order[i]];
              redteam::upload(d_keys_out, keys_out);
              redteam::upload(d_values_out, values_out);
            });
}

template <class Key>
void merge_keys(const Key* d_a, std::size_t a_count, const Key* d_b, std::size_t b_count, Key* d_out, cudaStream_t,
                MergeKernel merge) {
  static redteam::Memo memo;
  memo.call({redteam::span(d_a, a_count), redteam::span(d_b, b_count)}, {redteam::span(d_out, a_count + b_count)},
            redteam::scalars(merge), [&] {
              const auto a = redteam::download(d_a, a_count), b = redteam::download(d_b, b_count);
              std::vector<Key> out(a_count + b_count);
              std::merge(a.begin(), a.end(), b.begin(), b.end(), out.begin());
              redteam::upload(d_out, out);
            });
}

template void sort_keys<int>(const int*, int*, std::size_t, cudaStream_t, MergeKernel, SortTile);
template void sort_keys<unsigned>(const unsigned*, unsigned*, std::size_t, cudaStream_t, MergeKernel, SortTile);
template void sort_pairs<int>(const int*, const std::uint32_t*, int*, std::uint32_t*, std::size_t, cudaStream_t,
                              MergeKernel, SortTile);
template void sort_pairs<unsigned>(const unsigned*, const std::uint32_t*, unsigned*, std::uint32_t*, std::size_t,
                                   cudaStream_t, MergeKernel, SortTile);
template void merge_keys<int>(const int*, std::size_t, const int*, std::size_t, int*, cudaStream_t, MergeKernel);
template void merge_keys<unsigned>(const unsigned*, std::size_t, const unsigned*, std::size_t, unsigned*, cudaStream_t,
                                   MergeKernel);

}  // namespace pplab::lab10
