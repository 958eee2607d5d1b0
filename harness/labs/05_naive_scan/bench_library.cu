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
    std::size_t temp_bytes = 0;
    if (inclusive) cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, d_in->data(), d_out->data(), n);
    else cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, d_in->data(), d_out->data(), n);
    auto d_temp = std::make_shared<DeviceBuffer<unsigned char>>(temp_bytes);
    BenchCase spec;
    spec.lab = PPLAB_LAB;
    spec.impl = "cub";
    spec.variant = inclusive ? "DeviceScan::InclusiveSum int" : "DeviceScan::ExclusiveSum int";
    spec.n = n;
    spec.bytes_moved = 2.0 * 4.0 * double(n);
    spec.run = [=](cudaStream_t stream) {
      std::size_t bytes = d_temp->bytes();
      if (inclusive) cub::DeviceScan::InclusiveSum(d_temp->data(), bytes, d_in->data(), d_out->data(), n, stream);
      else cub::DeviceScan::ExclusiveSum(d_temp->data(), bytes, d_in->data(), d_out->data(), n, stream);
    };
    measure(spec, options);
  }
  measure_copy(PPLAB_LAB, n, 4, options);
}
