// Lab 11's library rows, beside the reference only: CUB's DeviceRadixSort::SortKeys and
// SortPairs on the lab's inputs, and the device copy.
#include <cub/device/device_radix_sort.cuh>

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
  measure(cub_case("DeviceRadixSort::SortKeys", n, 4.0 * 2.0 * 4.0 * double(n),
                   [=](void* temp, std::size_t& bytes, cudaStream_t stream) {
                     return cub::DeviceRadixSort::SortKeys(temp, bytes, d_keys_in->data(), d_keys->data(), n, 0, 32,
                                                           stream);
                   }),
          options);
  measure(cub_case("DeviceRadixSort::SortPairs", n, 4.0 * 2.0 * 8.0 * double(n),
                   [=](void* temp, std::size_t& bytes, cudaStream_t stream) {
                     return cub::DeviceRadixSort::SortPairs(temp, bytes, d_keys_in->data(), d_keys->data(),
                                                            d_values_in->data(), d_values->data(), n, 0, 32, stream);
                   }),
          options);
  measure_copy(PPLAB_LAB, n, 4, options);
}
