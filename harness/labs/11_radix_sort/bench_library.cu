// Lab 11's library rows, beside the reference only: CUB's DeviceRadixSort::SortKeys and
// SortPairs on the lab's inputs, and the device copy.
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <memory>

#include "pplab/bench_main.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"

void pplab::bench_library_cases(const BenchOptions& options, std::size_t n) {
  using Buffer = DeviceBuffer<unsigned>;
  auto d_keys_in = std::make_shared<Buffer>(random_full_range<unsigned>(n, 1));
  auto d_values_in = std::make_shared<Buffer>(iota_values<unsigned>(n));
  auto d_keys = std::make_shared<Buffer>(n);
  auto d_values = std::make_shared<Buffer>(n);
  std::size_t keys_bytes = 0, pairs_bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, keys_bytes, d_keys_in->data(), d_keys->data(), n);
  cub::DeviceRadixSort::SortPairs(nullptr, pairs_bytes, d_keys_in->data(), d_keys->data(), d_values_in->data(),
                                  d_values->data(), n);
  auto d_temp = std::make_shared<DeviceBuffer<unsigned char>>(std::max(keys_bytes, pairs_bytes));

  BenchCase keys;
  keys.lab = PPLAB_LAB;
  keys.impl = "cub";
  keys.variant = "DeviceRadixSort::SortKeys";
  keys.n = n;
  keys.bytes_moved = 4.0 * 2.0 * 4.0 * double(n);
  keys.run = [=](cudaStream_t stream) {
    std::size_t bytes = d_temp->bytes();
    cub::DeviceRadixSort::SortKeys(d_temp->data(), bytes, d_keys_in->data(), d_keys->data(), n, 0, 32, stream);
  };
  measure(keys, options);

  BenchCase pairs = keys;
  pairs.variant = "DeviceRadixSort::SortPairs";
  pairs.bytes_moved = 4.0 * 2.0 * 8.0 * double(n);
  pairs.run = [=](cudaStream_t stream) {
    std::size_t bytes = d_temp->bytes();
    cub::DeviceRadixSort::SortPairs(d_temp->data(), bytes, d_keys_in->data(), d_keys->data(), d_values_in->data(),
                                    d_values->data(), n, 0, 32, stream);
  };
  measure(pairs, options);
  measure_copy(PPLAB_LAB, n, 4, options);
}
