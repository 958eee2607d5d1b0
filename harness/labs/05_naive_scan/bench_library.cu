// Lab 05's library rows, beside the reference only: CUB's DeviceScan::ExclusiveSum and
// InclusiveSum on the lab's input, and the device copy.
#include <cub/device/device_scan.cuh>

#include <memory>

#include "pplab/bench_main.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"

void pplab::bench_library_cases(const BenchOptions& options, std::size_t n) {
  auto d_in = std::make_shared<DeviceBuffer<int>>(random_values<int>(n, 0, 3, 1));
  auto d_out = std::make_shared<DeviceBuffer<int>>(n);
  for (bool inclusive : {false, true}) {
    const char* variant = inclusive ? "DeviceScan::InclusiveSum int" : "DeviceScan::ExclusiveSum int";
    measure(cub_case(variant, n, 2.0 * 4.0 * double(n),
                     [=](void* temp, std::size_t& bytes, cudaStream_t stream) {
                       const int* in = d_in->data();
                       int* out = d_out->data();
                       return inclusive ? cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n, stream)
                                        : cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n, stream);
                     }),
            options);
  }
  measure_copy(PPLAB_LAB, n, 4, options);
}
