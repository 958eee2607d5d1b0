// Lab 02's library rows, beside the reference only: CUB's DeviceReduce::Sum over the
// same 2n floats, and the device copy.
#include <cub/device/device_reduce.cuh>

#include <memory>

#include "pplab/bench_main.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"

void pplab::bench_library_cases(const BenchOptions& options, std::size_t n) {
  auto d_ab = std::make_shared<DeviceBuffer<float>>(random_values<float>(2 * n, -1.0f, 1.0f, 1));
  auto d_result = std::make_shared<DeviceBuffer<float>>(1);
  std::size_t temp_bytes = 0;
  cub::DeviceReduce::Sum(nullptr, temp_bytes, d_ab->data(), d_result->data(), 2 * n);
  auto d_temp = std::make_shared<DeviceBuffer<unsigned char>>(temp_bytes);
  BenchCase spec;
  spec.lab = PPLAB_LAB;
  spec.impl = "cub";
  spec.variant = "DeviceReduce::Sum 2n";
  spec.n = n;
  spec.bytes_moved = 2.0 * 4.0 * double(n);
  spec.run = [=](cudaStream_t stream) {
    std::size_t bytes = d_temp->bytes();
    cub::DeviceReduce::Sum(d_temp->data(), bytes, d_ab->data(), d_result->data(), 2 * n, stream);
  };
  measure(spec, options);
  measure_copy(PPLAB_LAB, 2 * n, 4, options);
}
