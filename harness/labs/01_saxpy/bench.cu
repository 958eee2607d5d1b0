// Lab 01 benchmark (GPU): saxpy beside the device copy, 3 streams of 4 bytes per element.
//   build/gpu-solutions/bin/lab01_saxpy_ref_bench [--sizes=16,20,24,28] [--repeats=20]
#include <memory>

#include "pplab/bench.h"
#include "pplab/check.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"
#include "saxpy.cuh"

int main(int argc, char** argv) try {
  const auto options = pplab::bench_options(argc, argv, {16, 20, 24, 28});
  const std::string impl = std::string(PPLAB_TREE) == "solutions" ? "reference" : "student";
  const float a = 1.5f;
  for (std::size_t n : options.sizes) {
    const auto x = pplab::random_values<float>(n, -1.0f, 1.0f, 1);
    const auto y = pplab::random_values<float>(n, -1.0f, 1.0f, 2);
    auto d_x = std::make_shared<pplab::DeviceBuffer<float>>(x);
    auto d_y0 = std::make_shared<pplab::DeviceBuffer<float>>(y);  // pristine y for fresh runs
    auto d_y = std::make_shared<pplab::DeviceBuffer<float>>(n);

    pplab::BenchCase spec;
    spec.lab = PPLAB_LAB;
    spec.impl = impl;
    spec.n = n;
    spec.bytes_moved = 3.0 * 4.0 * double(n);  // read x, read y, write y
    spec.prepare = [=] {
      PPLAB_CUDA_CHECK(cudaMemcpy(d_y->data(), d_y0->data(), d_y->bytes(), cudaMemcpyDeviceToDevice));
    };
    spec.run = [=](cudaStream_t stream) { pplab::lab01::saxpy(a, d_x->data(), d_y->data(), n, stream); };
    spec.verify = [&, d_y] {
      std::vector<float> expected(n);
      for (std::size_t i = 0; i < n; ++i) expected[i] = a * x[i] + y[i];
      return pplab::compare_arrays({"saxpy after timing", n}, expected, d_y->download(), {1e-6, 1e-6}).passed;
    };
    pplab::measure(spec, options);
    if (options.compare) pplab::measure_copy(PPLAB_LAB, n, 4, options);
  }
  return 0;
} catch (const std::exception& error) {
  std::fprintf(stderr, "error: %s\n", error.what());
  return 1;
}
