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
  std::size_t cub_temp_bytes = 0;
  cub::DeviceSelect::If(nullptr, cub_temp_bytes, d_in->data(), d_out->data(), d_selected->data(),
                        static_cast<int>(n), GreaterThan{threshold});
  auto d_cub_temp = std::make_shared<DeviceBuffer<unsigned char>>(cub_temp_bytes);
  BenchCase spec;
  spec.lab = PPLAB_LAB;
  spec.impl = "cub";
  spec.variant = "int keep half";
  spec.n = n;
  spec.bytes_moved = 4.0 * double(n) + 4.0 * double(k);
  spec.run = [=](cudaStream_t stream) {
    std::size_t bytes = d_cub_temp->bytes();
    cub::DeviceSelect::If(d_cub_temp->data(), bytes, d_in->data(), d_out->data(), d_selected->data(),
                          static_cast<int>(n), GreaterThan{threshold}, stream);
  };
  spec.verify = [=] { return std::size_t(d_selected->download()[0]) == k; };
  measure(spec, options);
  measure_copy(PPLAB_LAB, n, 4, options);
}
