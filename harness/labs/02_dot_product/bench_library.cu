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
  measure(cub_case("DeviceReduce::Sum 2n", n, 2.0 * 4.0 * double(n),
                   [=](void* temp, std::size_t& bytes, cudaStream_t stream) {
                     return cub::DeviceReduce::Sum(temp, bytes, d_ab->data(), d_result->data(), 2 * n, stream);
                   }),
          options);
  measure_copy(PPLAB_LAB, 2 * n, 4, options);
}
