// Lab 09's library rows, beside the reference only: CUB's DeviceRadixSort::SortKeys on
// the lab's keys, and the device copy.
#include <cub/device/device_radix_sort.cuh>

#include <climits>
#include <memory>

#include "pplab/bench_main.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"

void pplab::bench_library_cases(const BenchOptions& options, std::size_t n) {
  auto d_in = std::make_shared<DeviceBuffer<int>>(random_values<int>(n, INT_MIN, INT_MAX, 1));
  auto d_out = std::make_shared<DeviceBuffer<int>>(n);
  std::size_t temp_bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, d_in->data(), d_out->data(), int(n));
  auto d_temp = std::make_shared<DeviceBuffer<unsigned char>>(temp_bytes);
  BenchCase spec;
  spec.lab = PPLAB_LAB;
  spec.impl = "cub";
  spec.variant = "DeviceRadixSort::SortKeys int";
  spec.n = n;
  spec.bytes_moved = 2.0 * 4.0 * double(n);
  spec.run = [=](cudaStream_t stream) {
    std::size_t bytes = d_temp->bytes();
    cub::DeviceRadixSort::SortKeys(d_temp->data(), bytes, d_in->data(), d_out->data(), int(n), 0,
                                   int(sizeof(int) * 8), stream);
  };
  measure(spec, options);
  measure_copy(PPLAB_LAB, n, 4, options);
}
