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
  auto d_in = std::make_shared<pplab::DeviceBuffer<T>>(pplab::reduce_bench_values<T>(n));
  auto d_out = std::make_shared<pplab::DeviceBuffer<T>>(1);
  pplab::measure(pplab::cub_case(std::string("sum ") + type + " (DeviceReduce::Sum)", n, double(sizeof(T)) * double(n),
                                 [=](void* temp, std::size_t& bytes, cudaStream_t stream) {
                                   return cub::DeviceReduce::Sum(temp, bytes, d_in->data(), d_out->data(), n, stream);
                                 }),
                 options);
}

}  // namespace

void pplab::bench_library_cases(const BenchOptions& options, std::size_t n) {
  cub_sum<float>(options, n);
  cub_sum<int>(options, n);
  measure_copy(PPLAB_LAB, n, 4, options);
}
