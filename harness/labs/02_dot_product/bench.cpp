// Lab 02 benchmark: the dot product of two float arrays (2n floats read). CUB's
// DeviceReduce::Sum over the same bytes and the device copy are in bench_library.cu.
//   build/gpu-solutions/bin/lab02_dot_product_ref_bench [--sizes=16,20,24,28]
#include <cmath>
#include <memory>
#include <vector>

#include "dot_product.cuh"
#include "pplab/bench_main.h"
#include "pplab/check.h"
#include "pplab/cuda_check.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"

namespace {

void dot_product_cases(const pplab::BenchOptions& options, std::size_t n) {
  // a and b side by side in one buffer. Two input sets take turns before each timed run
  // (copied in untimed), so an answer kept from an earlier call is wrong after timing.
  struct InputSet {
    std::shared_ptr<pplab::DeviceBuffer<float>> ab;
    double expected = 0, magnitude = 0;
  };
  auto sets = std::make_shared<std::vector<InputSet>>(2);
  for (int k = 0; k < 2; ++k) {
    const auto ab = pplab::random_values<float>(2 * n, -1.0f, 1.0f, 1 + k);
    (*sets)[k].ab = std::make_shared<pplab::DeviceBuffer<float>>(ab);
    for (std::size_t i = 0; i < n; ++i) {
      (*sets)[k].expected += double(ab[i]) * ab[n + i];
      (*sets)[k].magnitude += std::fabs(double(ab[i]) * ab[n + i]);
    }
  }
  auto d_ab = std::make_shared<pplab::DeviceBuffer<float>>(2 * n);
  auto d_result = std::make_shared<pplab::DeviceBuffer<float>>(1);
  auto current = std::make_shared<int>(1);

  pplab::BenchCase spec = pplab::bench_case(pplab::bench_impl(), "", n, 2.0 * 4.0 * double(n));  // read a and b
  spec.prepare = [=] {
    *current = 1 - *current;
    PPLAB_CUDA_CHECK(cudaMemcpy(d_ab->data(), (*sets)[*current].ab->data(), d_ab->bytes(), cudaMemcpyDeviceToDevice));
  };
  spec.run = [=](cudaStream_t stream) {
    pplab::lab02::dot_product(d_ab->data(), d_ab->data() + n, d_result->data(), n, pplab::lab02::kBlockThreads,
                              stream);
  };
  spec.verify = [=] {
    const InputSet& set = (*sets)[*current];
    return pplab::compare_value({"dot product after timing", n}, float(set.expected), d_result->download()[0],
                                pplab::sum_tolerance(n, set.magnitude))
        .passed;
  };
  pplab::measure(spec, options);
}

}  // namespace

pplab::BenchLab pplab::bench_lab() { return {{16, 20, 24, 28}, 0, dot_product_cases}; }
