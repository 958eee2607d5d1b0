// Lab 10's library rows, beside the reference only: CUB's DeviceMergeSort of the lab's
// keys and pairs, and the device copy.
#include <cub/device/device_merge_sort.cuh>

#include <cstdint>
#include <memory>

#include "merge_sort.cuh"
#include "pplab/bench_main.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"

namespace {

using Key = unsigned;
using Value = std::uint32_t;
using pplab::DeviceBuffer;

struct Less {
  __device__ bool operator()(const Key& a, const Key& b) const { return a < b; }
};

// The lab's merge passes on this device (bench.cpp): its block sort's tile, doubled.
int merge_passes(std::size_t n, bool pairs) {
  const std::size_t sort_tile =
      std::size_t(pplab::lab10::sort_block_threads(pairs)) * pplab::lab10::kItemsPerThread;
  int passes = 0;
  while ((sort_tile << passes) < n) ++passes;
  return passes;
}

}  // namespace

void pplab::bench_library_cases(const BenchOptions& options, std::size_t n) {
  auto d_keys = std::make_shared<DeviceBuffer<Key>>(random_full_range<Key>(n, 1));
  auto d_values = std::make_shared<DeviceBuffer<Value>>(iota_values<Value>(n));
  auto d_keys_out = std::make_shared<DeviceBuffer<Key>>(n);
  auto d_values_out = std::make_shared<DeviceBuffer<Value>>(n);
  // The lab's model, so the GB/s compare.
  const double rounds = 1.0 + merge_passes(n, false), pair_rounds = 1.0 + merge_passes(n, true);

  measure(cub_case("DeviceMergeSort::SortKeysCopy", n, rounds * 2.0 * sizeof(Key) * double(n),
                   [=](void* temp, std::size_t& bytes, cudaStream_t stream) {
                     return cub::DeviceMergeSort::SortKeysCopy(temp, bytes, d_keys->data(), d_keys_out->data(),
                                                               std::int64_t(n), Less{}, stream);
                   }),
          options);
  measure(cub_case("DeviceMergeSort::SortPairsCopy", n,
                   pair_rounds * 2.0 * (sizeof(Key) + sizeof(Value)) * double(n),
                   [=](void* temp, std::size_t& bytes, cudaStream_t stream) {
                     return cub::DeviceMergeSort::SortPairsCopy(temp, bytes, d_keys->data(), d_values->data(),
                                                                d_keys_out->data(), d_values_out->data(),
                                                                std::int64_t(n), Less{}, stream);
                   }),
          options);
  measure_copy(PPLAB_LAB, n, sizeof(Key), options);
}
