// Lab 12's library rows, beside the reference only: CUB's WarpMergeSort (one warp, one
// key per lane) and BlockRadixSort (a block of 32 threads) sorting the lab's 32-key
// segments, and the device copy.
#include <cub/block/block_radix_sort.cuh>
#include <cub/warp/warp_merge_sort.cuh>

#include <memory>

#include "pplab/bench_main.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"
#include "warp_radix_sort.cuh"

namespace {

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

}  // namespace

void pplab::bench_library_cases(const BenchOptions& options, std::size_t n) {
  auto d_in = std::make_shared<DeviceBuffer<unsigned>>(random_full_range<unsigned>(n, 1));
  auto d_out = std::make_shared<DeviceBuffer<unsigned>>(n);
  const unsigned segments = static_cast<unsigned>((n + 31) / 32);
  BenchCase warp_merge = bench_case("cub", "WarpMergeSort", n, 2.0 * 4.0 * double(n));
  warp_merge.run = [=](cudaStream_t stream) {
    cub_warp_merge_sort_kernel<<<(segments + kWarps - 1) / kWarps, kWarps * 32, 0, stream>>>(d_in->data(),
                                                                                            d_out->data(), n);
  };
  measure(warp_merge, options);

  BenchCase block_radix = warp_merge;
  block_radix.variant = "BlockRadixSort 32";
  block_radix.run = [=](cudaStream_t stream) {
    cub_block_radix_sort_kernel<<<segments, 32, 0, stream>>>(d_in->data(), d_out->data(), n);
  };
  measure(block_radix, options);
  measure_copy(PPLAB_LAB, n, 4, options);
}
