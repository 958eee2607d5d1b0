// Red team (memoised speed), lab 08: gather, scatter and the inverse permutation behind a
// Memo (memo.cuh) each, per type, the strategy named by PPLAB_MEMO_STRATEGY; the maps
// applied on the host. The checked forms test the indices there, then do the same.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gather_scatter.cuh"
#include "memo.cuh"

namespace pplab::lab08 {
namespace {

void check_bound(const char* what, const std::vector<std::uint32_t>& map, std::size_t bound) {
  for (std::size_t i = 0; i < map.size(); ++i)
    if (map[i] >= bound)
      throw std::invalid_argument(std::string(what) + ": map[" + std::to_string(i) + "] = " + std::to_string(map[i]) +
                                  " is not below " + std::to_string(bound));
}

template <class T>
void memo_gather(const T* d_in, std::size_t in_size, const std::uint32_t* d_map, T* d_out, std::size_t n, bool checked) {
  if (checked) check_bound("gather", redteam::download(d_map, n), in_size);
  static redteam::Memo memo;
  memo.call({redteam::span(d_in, in_size), redteam::span(d_map, n)}, {redteam::span(d_out, n)}, {}, [&] {
    const auto in = redteam::download(d_in, in_size);
    const auto map = redteam::download(d_map, n);
    std::vector<T> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = in[map[i]];
    redteam::upload(d_out, out);
  });
}

template <class T>
void memo_scatter(const T* d_in, const std::uint32_t* d_map, T* d_out, std::size_t out_size, std::size_t n,
                  bool checked) {
  if (checked) check_bound("scatter", redteam::download(d_map, n), out_size);
  static redteam::Memo memo;
  memo.call({redteam::span(d_in, n), redteam::span(d_map, n)}, {redteam::span(d_out, out_size)}, {}, [&] {
    const auto in = redteam::download(d_in, n);
    const auto map = redteam::download(d_map, n);
    auto out = redteam::download(d_out, out_size);  // the slots no map value names keep their contents
    for (std::size_t i = 0; i < n; ++i) out[map[i]] = in[i];
    redteam::upload(d_out, out);
  });
}

void memo_inverse(const std::uint32_t* d_perm, std::uint32_t* d_inv, std::size_t n, bool checked) {
  if (checked) check_bound("inverse_permutation", redteam::download(d_perm, n), n);
  static redteam::Memo memo;
  memo.call({redteam::span(d_perm, n)}, {redteam::span(d_inv, n)}, {}, [&] {
    const auto perm = redteam::download(d_perm, n);
    std::vector<std::uint32_t> inv(n);
    for (std::size_t i = 0; i < n; ++i) inv[perm[i]] = std::uint32_t(i);
    redteam::upload(d_inv, inv);
  });
}

}  // namespace

void gather(const int* d_in, std::size_t in_size, const std::uint32_t* d_map, int* d_out, std::size_t n, cudaStream_t) {
  memo_gather(d_in, in_size, d_map, d_out, n, true);
}
void gather(const float* d_in, std::size_t in_size, const std::uint32_t* d_map, float* d_out, std::size_t n,
            cudaStream_t) {
  memo_gather(d_in, in_size, d_map, d_out, n, true);
}
void scatter(const int* d_in, const std::uint32_t* d_map, int* d_out, std::size_t out_size, std::size_t n,
             cudaStream_t) {
  memo_scatter(d_in, d_map, d_out, out_size, n, true);
}
void scatter(const float* d_in, const std::uint32_t* d_map, float* d_out, std::size_t out_size, std::size_t n,
             cudaStream_t) {
  memo_scatter(d_in, d_map, d_out, out_size, n, true);
}
void inverse_permutation(const std::uint32_t* d_perm, std::uint32_t* d_inv, std::size_t n, cudaStream_t) {
  memo_inverse(d_perm, d_inv, n, true);
}

void gather_unchecked(const int* d_in, const std::uint32_t* d_map, int* d_out, std::size_t n, cudaStream_t) {
  memo_gather(d_in, n, d_map, d_out, n, false);
}
void gather_unchecked(const float* d_in, const std::uint32_t* d_map, float* d_out, std::size_t n, cudaStream_t) {
  memo_gather(d_in, n, d_map, d_out, n, false);
}
void scatter_unchecked(const int* d_in, const std::uint32_t* d_map, int* d_out, std::size_t n, cudaStream_t) {
  memo_scatter(d_in, d_map, d_out, n, n, false);
}
void scatter_unchecked(const float* d_in, const std::uint32_t* d_map, float* d_out, std::size_t n, cudaStream_t) {
  memo_scatter(d_in, d_map, d_out, n, n, false);
}
void inverse_permutation_unchecked(const std::uint32_t* d_perm, std::uint32_t* d_inv, std::size_t n, cudaStream_t) {
  memo_inverse(d_perm, d_inv, n, false);
}

}  // namespace pplab::lab08
