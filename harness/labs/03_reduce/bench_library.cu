// Lab 03's library rows, beside the reference only: CUB's DeviceReduce::Sum / Min / Max
// on the lab's inputs, and the device copy.
#include <cub/device/device_reduce.cuh>

#include <memory>
#include <string>
#include <type_traits>

#include "pplab/bench_main.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"

namespace {

template <class T, class CubCall>
void cub_row(const pplab::BenchOptions& options, const std::shared_ptr<pplab::DeviceBuffer<T>>& d_in,
             const std::string& variant, CubCall cub_call) {
  const std::size_t n = d_in->size();
  auto d_out = std::make_shared<pplab::DeviceBuffer<T>>(1);
  pplab::measure(pplab::cub_case(variant, n, double(sizeof(T)) * double(n),
                                 [=](void* temp, std::size_t& bytes, cudaStream_t stream) {
                                   cub_call(temp, bytes, d_in->data(), d_out->data(), n, stream);
                                 }),
                 options);
}

template <class T>
void cub_type(const pplab::BenchOptions& options, std::size_t n) {
  const char* type = std::is_same_v<T, int> ? "int" : "float";
  auto d_in = std::make_shared<pplab::DeviceBuffer<T>>(pplab::reduce_bench_values<T>(n));
  cub_row<T>(options, d_in, std::string("sum ") + type + " (DeviceReduce::Sum)",
             [](void* temp, std::size_t& bytes, const T* in, T* out, std::size_t count, cudaStream_t stream) {
               cub::DeviceReduce::Sum(temp, bytes, in, out, count, stream);
             });
  cub_row<T>(options, d_in, std::string("min ") + type + " (DeviceReduce::Min)",
             [](void* temp, std::size_t& bytes, const T* in, T* out, std::size_t count, cudaStream_t stream) {
               cub::DeviceReduce::Min(temp, bytes, in, out, count, stream);
             });
  cub_row<T>(options, d_in, std::string("max ") + type + " (DeviceReduce::Max)",
             [](void* temp, std::size_t& bytes, const T* in, T* out, std::size_t count, cudaStream_t stream) {
               cub::DeviceReduce::Max(temp, bytes, in, out, count, stream);
             });
}

}  // namespace

void pplab::bench_library_cases(const BenchOptions& options, std::size_t n) {
  cub_type<int>(options, n);
  cub_type<float>(options, n);
  measure_copy(PPLAB_LAB, n, 4, options);
}
