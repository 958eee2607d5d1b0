// Lab 07's library rows, beside the reference only: CUB's DeviceSelect::If with the
// lab's predicate on the lab's input, and the device copy.
#include <cub/device/device_select.cuh>

#include <memory>

#include "pplab/bench_main.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"

namespace {

struct GreaterThan {
  int threshold;
  __host__ __device__ bool operator()(const int& x) const { return x > threshold; }
};

}  // namespace

void pplab::bench_library_cases(const BenchOptions& options, std::size_t n) {
  const int threshold = 49;
  const auto in = random_values<int>(n, 0, 99, 1);
  std::size_t k = 0;
  for (int v : in) k += v > threshold;
  auto d_in = std::make_shared<DeviceBuffer<int>>(in);
  auto d_out = std::make_shared<DeviceBuffer<int>>(n);
  auto d_selected = std::make_shared<DeviceBuffer<int>>(1);
  BenchCase spec = cub_case("int keep half", n, 4.0 * double(n) + 4.0 * double(k),
                            [=](void* temp, std::size_t& bytes, cudaStream_t stream) {
                              return cub::DeviceSelect::If(temp, bytes, d_in->data(), d_out->data(), d_selected->data(),
                                                           static_cast<int>(n), GreaterThan{threshold}, stream);
                            });
  spec.verify = [=] { return std::size_t(d_selected->download()[0]) == k; };
  measure(spec, options);
  measure_copy(PPLAB_LAB, n, 4, options);
}
