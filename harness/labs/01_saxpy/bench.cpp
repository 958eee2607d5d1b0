// Lab 01 benchmark: saxpy, y = a * x + y, 3 streams of 4 bytes per element. The device
// copy beside it is in bench_library.cu (the reference's benchmark only).
//   build/gpu-solutions/bin/lab01_saxpy_ref_bench [--sizes=16,20,24,28] [--repeats=20]
#include <memory>
#include <vector>

#include "pplab/bench_main.h"
#include "pplab/check.h"
#include "pplab/cuda_check.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"
#include "saxpy.cuh"

namespace {

void saxpy_cases(const pplab::BenchOptions& options, std::size_t n) {
  const float a = 1.5f;
  const auto x = pplab::random_values<float>(n, -1.0f, 1.0f, 1);
  const auto y = pplab::random_values<float>(n, -1.0f, 1.0f, 2);
  auto expected = std::make_shared<std::vector<float>>(n);
  for (std::size_t i = 0; i < n; ++i) (*expected)[i] = a * x[i] + y[i];
  auto d_x = std::make_shared<pplab::DeviceBuffer<float>>(x);
  auto d_y0 = std::make_shared<pplab::DeviceBuffer<float>>(y);  // pristine y for fresh runs
  auto d_y = std::make_shared<pplab::DeviceBuffer<float>>(n);

  pplab::BenchCase spec = pplab::bench_case(pplab::bench_impl(), "", n, 3.0 * 4.0 * double(n));  // read x, y; write y
  spec.prepare = [=] {
    PPLAB_CUDA_CHECK(cudaMemcpy(d_y->data(), d_y0->data(), d_y->bytes(), cudaMemcpyDeviceToDevice));
  };
  spec.run = [=](cudaStream_t stream) { pplab::lab01::saxpy(a, d_x->data(), d_y->data(), n, stream); };
  spec.verify = [=] {
    return pplab::compare_arrays({"saxpy after timing", n}, *expected, d_y->download(), {1e-6, 1e-6}).passed;
  };
  pplab::measure(spec, options);
}

}  // namespace

pplab::BenchLab pplab::bench_lab() { return {{16, 20, 24, 28}, 0, saxpy_cases}; }
