// Lab 10's library rows, beside the reference only: CUB's DeviceMergeSort of the lab's
// keys and pairs, and the device copy.
#include <cub/device/device_merge_sort.cuh>

#include <cstdint>
#include <functional>
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

int merge_passes(std::size_t n) {
  int passes = 0;
  while ((std::size_t(pplab::lab10::kTileItems) << passes) < n) ++passes;
  return passes;
}

// Scratch memory for the CUB calls, allocated once per size.
std::shared_ptr<DeviceBuffer<unsigned char>> temp_for(const std::function<void(std::size_t&)>& query) {
  std::size_t bytes = 0;
  query(bytes);
  return std::make_shared<DeviceBuffer<unsigned char>>(bytes);
}

}  // namespace

void pplab::bench_library_cases(const BenchOptions& options, std::size_t n) {
  auto d_keys = std::make_shared<DeviceBuffer<Key>>(random_full_range<Key>(n, 1));
  auto d_values = std::make_shared<DeviceBuffer<Value>>(iota_values<Value>(n));
  auto d_keys_out = std::make_shared<DeviceBuffer<Key>>(n);
  auto d_values_out = std::make_shared<DeviceBuffer<Value>>(n);
  const double rounds = 1.0 + merge_passes(n);  // the lab's model, so the GB/s compare

  auto keys_temp = temp_for([&](std::size_t& bytes) {
    cub::DeviceMergeSort::SortKeysCopy(nullptr, bytes, d_keys->data(), d_keys_out->data(), std::int64_t(n), Less{});
  });
  BenchCase keys;
  keys.lab = PPLAB_LAB;
  keys.impl = "cub";
  keys.variant = "DeviceMergeSort::SortKeysCopy";
  keys.n = n;
  keys.bytes_moved = rounds * 2.0 * sizeof(Key) * double(n);
  keys.run = [=](cudaStream_t stream) {
    std::size_t bytes = keys_temp->bytes();
    cub::DeviceMergeSort::SortKeysCopy(keys_temp->data(), bytes, d_keys->data(), d_keys_out->data(),
                                       std::int64_t(n), Less{}, stream);
  };
  measure(keys, options);

  auto pairs_temp = temp_for([&](std::size_t& bytes) {
    cub::DeviceMergeSort::SortPairsCopy(nullptr, bytes, d_keys->data(), d_values->data(), d_keys_out->data(),
                                        d_values_out->data(), std::int64_t(n), Less{});
  });
  BenchCase pairs = keys;
  pairs.variant = "DeviceMergeSort::SortPairsCopy";
  pairs.bytes_moved = rounds * 2.0 * (sizeof(Key) + sizeof(Value)) * double(n);
  pairs.run = [=](cudaStream_t stream) {
    std::size_t bytes = pairs_temp->bytes();
    cub::DeviceMergeSort::SortPairsCopy(pairs_temp->data(), bytes, d_keys->data(), d_values->data(),
                                        d_keys_out->data(), d_values_out->data(), std::int64_t(n), Less{}, stream);
  };
  measure(pairs, options);
  measure_copy(PPLAB_LAB, n, sizeof(Key), options);
}
