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
#include "pplab/fresh_inputs.h"

namespace {

void dot_product_cases(const pplab::BenchOptions& options, std::size_t n) {
  // a and b side by side in one buffer, drawn afresh before every run, so no answer kept
  // from an earlier call is right for the next one.
  auto ab = std::make_shared<pplab::FreshInput<float>>(2 * n, pplab::Spread::uniform(-1, 1));
  auto d_result = std::make_shared<pplab::DeviceBuffer<float>>(1);

  pplab::BenchCase spec = pplab::bench_case(pplab::bench_impl(), "", n, 2.0 * 4.0 * double(n));  // read a and b
  spec.prepare = [=] { ab->next(); };
  spec.run = [=](cudaStream_t stream) {
    pplab::lab02::dot_product(ab->data(), ab->data() + n, d_result->data(), n, pplab::lab02::kBlockThreads, stream);
  };
  spec.verify = [=] {
    const std::vector<float>& in = ab->host();
    double expected = 0, magnitude = 0;
    for (std::size_t i = 0; i < n; ++i) {
      expected += double(in[i]) * in[n + i];
      magnitude += std::fabs(double(in[i]) * in[n + i]);
    }
    return pplab::compare_value({"dot product after timing", n}, float(expected), d_result->download()[0],
                                pplab::sum_tolerance(n, magnitude))
        .passed;
  };
  pplab::measure(spec, options);
}

}  // namespace

pplab::BenchLab pplab::bench_lab() { return {{16, 20, 24, 28}, 0, dot_product_cases}; }
