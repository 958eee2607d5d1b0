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
  measure(cub_case("DeviceRadixSort::SortKeys int", n, 2.0 * 4.0 * double(n),
                   [=](void* temp, std::size_t& bytes, cudaStream_t stream) {
                     return cub::DeviceRadixSort::SortKeys(temp, bytes, d_in->data(), d_out->data(), int(n), 0,
                                                           int(sizeof(int) * 8), stream);
                   }),
          options);
  measure_copy(PPLAB_LAB, n, 4, options);
}
