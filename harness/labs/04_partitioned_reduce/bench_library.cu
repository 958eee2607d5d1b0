// Lab 04's library rows, beside the reference only: CUB's DeviceReduce::Sum on the lab's
// inputs, and the device copy.
#include <cub/device/device_reduce.cuh>

#include <memory>
#include <string>
#include <type_traits>

#include "pplab/bench_main.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"

namespace {

template <class T>
void cub_sum(const pplab::BenchOptions& options, std::size_t n) {
  const char* type = std::is_same_v<T, int> ? "int" : "float";
  auto d_in = std::make_shared<pplab::DeviceBuffer<T>>(std::is_same_v<T, int>
                                                           ? pplab::random_values<T>(n, T(-1000), T(1000), 1)
                                                           : pplab::random_values<T>(n, T(-1), T(1), 2));
  auto d_out = std::make_shared<pplab::DeviceBuffer<T>>(1);
  std::size_t temp_bytes = 0;
  cub::DeviceReduce::Sum(nullptr, temp_bytes, d_in->data(), d_out->data(), n);
  auto d_temp = std::make_shared<pplab::DeviceBuffer<unsigned char>>(temp_bytes);
  pplab::BenchCase spec;
  spec.lab = PPLAB_LAB;
  spec.impl = "cub";
  spec.variant = std::string("sum ") + type + " (DeviceReduce::Sum)";
  spec.n = n;
  spec.bytes_moved = double(sizeof(T)) * double(n);
  spec.run = [=](cudaStream_t stream) {
    std::size_t bytes = d_temp->bytes();
    cub::DeviceReduce::Sum(d_temp->data(), bytes, d_in->data(), d_out->data(), n, stream);
  };
  pplab::measure(spec, options);
}

}  // namespace

void pplab::bench_library_cases(const BenchOptions& options, std::size_t n) {
  cub_sum<float>(options, n);
  cub_sum<int>(options, n);
  measure_copy(PPLAB_LAB, n, 4, options);
}
