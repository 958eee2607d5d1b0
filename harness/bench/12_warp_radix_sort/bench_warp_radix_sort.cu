// Lab 12 benchmark (GPU): many warps each sorting a 32-key segment, beside CUB's
// WarpMergeSort (one warp, one key per lane) and BlockRadixSort (a block of 32 threads)
// sorting the same segments, and the device copy; once written, the stretch rank pass too.
// Speed points compare the lecture's bit passes (row "32-key segments"); segments/s = keys/s / 32.
//   build/gpu-solutions/bin/lab12_warp_radix_sort_ref_bench [--sizes=16,20,24,28]
// Bytes-moved model: every key read once and written once, 8 bytes per key.
#include <cub/block/block_radix_sort.cuh>
#include <cub/warp/warp_merge_sort.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

#include "pplab/bench.h"
#include "pplab/check.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"
#include "warp_radix_sort.cuh"

namespace {
using Buffer = pplab::DeviceBuffer<unsigned>;
constexpr int kWarps = pplab::lab12::kWarpsPerBlock;

struct Less {
  __device__ bool operator()(unsigned a, unsigned b) const { return a < b; }
};

/// cub::WarpMergeSort: each warp sorts one 32-key segment, one key per lane.
__global__ void cub_warp_merge_sort_kernel(const unsigned* in, unsigned* out, std::size_t n) {
  using WarpSort = cub::WarpMergeSort<unsigned, 1, 32>;
  __shared__ typename WarpSort::TempStorage temp[kWarps];
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const std::size_t i = (std::size_t(blockIdx.x) * kWarps + warp) * 32 + lane;
  unsigned key[1] = {i < n ? in[i] : 0xFFFFFFFFu};
  WarpSort(temp[warp]).Sort(key, Less());
  if (i < n) out[i] = key[0];
}

/// cub::BlockRadixSort with blocks of 32 threads: each block sorts one segment.
__global__ void cub_block_radix_sort_kernel(const unsigned* in, unsigned* out, std::size_t n) {
  using BlockSort = cub::BlockRadixSort<unsigned, 32, 1>;
  __shared__ typename BlockSort::TempStorage temp;
  const std::size_t i = std::size_t(blockIdx.x) * 32 + threadIdx.x;
  unsigned key[1] = {i < n ? in[i] : 0xFFFFFFFFu};
  BlockSort(temp).Sort(key);
  if (i < n) out[i] = key[0];
}

std::vector<unsigned> segment_sorted(std::vector<unsigned> keys) {
  for (std::size_t s = 0; s < keys.size(); s += 32)
    std::sort(keys.begin() + s, keys.begin() + std::min(keys.size(), s + 32));
  return keys;
}

bool same(const std::vector<unsigned>& expected, const std::vector<unsigned>& got) {
  return expected.size() == got.size() &&
         (expected.empty() || std::memcmp(expected.data(), got.data(), expected.size() * sizeof(unsigned)) == 0);
}

void print_rates(const char* what, std::size_t n, const pplab::Measurement& m) {
  std::fprintf(stderr, "  %-22s n=2^%-2d  %8.2f G keys/s  %8.1f M segments/s\n", what,
               static_cast<int>(std::log2(double(n))), m.items_per_s * 1e-9, m.items_per_s / 32 * 1e-6);
}
}  // namespace

int main(int argc, char** argv) try {
  const auto options = pplab::bench_options(argc, argv, {16, 20, 24, 28});
  const std::string impl = std::string(PPLAB_TREE) == "solutions" ? "reference" : "student";
  for (std::size_t n : options.sizes) {
    const auto keys = pplab::random_full_range<unsigned>(n, 1);
    const auto expected = std::make_shared<std::vector<unsigned>>(segment_sorted(keys));
    auto d_in = std::make_shared<Buffer>(keys);
    auto d_out = std::make_shared<Buffer>(n);

    pplab::BenchCase spec;
    spec.lab = PPLAB_LAB;
    spec.impl = impl;
    spec.variant = "32-key segments";
    spec.n = n;
    spec.bytes_moved = 2.0 * 4.0 * double(n);
    spec.run = [=](cudaStream_t stream) {
      pplab::lab12::warp_radix_sort(d_in->data(), d_out->data(), n, 0, 32, kWarps, stream,
                                    pplab::lab12::Algorithm::bit_passes);
    };
    spec.verify = [=] { return same(*expected, d_out->download()); };
    const auto ours = pplab::measure(spec, options);
    print_rates("warp radix sort", n, ours);
    if (pplab::lab12::rank_pass_available()) {
      pplab::BenchCase rank = spec;
      rank.variant = "32-key segments, rank pass";
      rank.run = [=](cudaStream_t stream) {
        pplab::lab12::warp_radix_sort(d_in->data(), d_out->data(), n, 0, 32, kWarps, stream,
                                      pplab::lab12::Algorithm::rank_pass);
      };
      print_rates("warp rank pass", n, pplab::measure(rank, options));
    }
    if (!options.compare) continue;

    const unsigned segments = static_cast<unsigned>((n + 31) / 32);
    pplab::BenchCase warp_merge = spec;
    warp_merge.impl = "cub";
    warp_merge.variant = "WarpMergeSort";
    warp_merge.run = [=](cudaStream_t stream) {
      cub_warp_merge_sort_kernel<<<(segments + kWarps - 1) / kWarps, kWarps * 32, 0, stream>>>(d_in->data(),
                                                                                              d_out->data(), n);
    };
    print_rates("cub WarpMergeSort", n, pplab::measure(warp_merge, options));

    pplab::BenchCase block_radix = spec;
    block_radix.impl = "cub";
    block_radix.variant = "BlockRadixSort 32";
    block_radix.run = [=](cudaStream_t stream) {
      cub_block_radix_sort_kernel<<<segments, 32, 0, stream>>>(d_in->data(), d_out->data(), n);
    };
    print_rates("cub BlockRadixSort", n, pplab::measure(block_radix, options));
    pplab::measure_copy(PPLAB_LAB, n, 4, options);
  }
  return 0;
} catch (const std::exception& error) {
  std::fprintf(stderr, "error: %s\n", error.what());
  return 1;
}
