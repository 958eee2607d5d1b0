// Lab 02 benchmark (GPU): the dot product beside CUB's DeviceReduce::Sum over the same
// number of bytes (2n floats), and the device copy.
//   build/gpu-solutions/bin/lab02_dot_product_ref_bench [--sizes=16,20,24,28]
#include <cub/device/device_reduce.cuh>

#include <cmath>
#include <memory>

#include "dot_product.cuh"
#include "pplab/bench.h"
#include "pplab/check.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"

int main(int argc, char** argv) try {
  const auto options = pplab::bench_options(argc, argv, {16, 20, 24, 28});
  const std::string impl = std::string(PPLAB_TREE) == "solutions" ? "reference" : "student";
  for (std::size_t n : options.sizes) {
    // a and b side by side in one buffer, so CUB can sum the same 2n floats. Two input
    // sets take turns before each timed run (copied in untimed), so an answer kept from
    // an earlier call is wrong after timing.
    struct InputSet {
      std::shared_ptr<pplab::DeviceBuffer<float>> ab;
      double expected = 0, magnitude = 0;
    };
    InputSet sets[2];
    for (int k = 0; k < 2; ++k) {
      const auto ab = pplab::random_values<float>(2 * n, -1.0f, 1.0f, 1 + k);
      sets[k].ab = std::make_shared<pplab::DeviceBuffer<float>>(ab);
      for (std::size_t i = 0; i < n; ++i) {
        sets[k].expected += double(ab[i]) * ab[n + i];
        sets[k].magnitude += std::fabs(double(ab[i]) * ab[n + i]);
      }
    }
    auto d_ab = std::make_shared<pplab::DeviceBuffer<float>>(2 * n);
    auto d_result = std::make_shared<pplab::DeviceBuffer<float>>(1);
    auto current = std::make_shared<int>(1);

    pplab::BenchCase spec;
    spec.lab = PPLAB_LAB;
    spec.impl = impl;
    spec.n = n;
    spec.bytes_moved = 2.0 * 4.0 * double(n);  // read a and b
    spec.prepare = [=] {
      *current = 1 - *current;
      PPLAB_CUDA_CHECK(cudaMemcpy(d_ab->data(), sets[*current].ab->data(), d_ab->bytes(),
                                  cudaMemcpyDeviceToDevice));
    };
    spec.run = [=](cudaStream_t stream) {
      pplab::lab02::dot_product(d_ab->data(), d_ab->data() + n, d_result->data(), n,
                                pplab::lab02::kBlockThreads, stream);
    };
    spec.verify = [=] {
      const InputSet& set = sets[*current];
      return pplab::compare_value({"dot product after timing", n}, float(set.expected), d_result->download()[0],
                                  pplab::sum_tolerance(n, set.magnitude))
          .passed;
    };
    pplab::measure(spec, options);
    if (!options.compare) continue;

    std::size_t temp_bytes = 0;
    cub::DeviceReduce::Sum(nullptr, temp_bytes, d_ab->data(), d_result->data(), 2 * n);
    auto d_temp = std::make_shared<pplab::DeviceBuffer<unsigned char>>(temp_bytes);
    pplab::BenchCase cub_spec = spec;
    cub_spec.impl = "cub";
    cub_spec.variant = "DeviceReduce::Sum 2n";
    cub_spec.run = [=](cudaStream_t stream) {
      std::size_t bytes = d_temp->bytes();
      cub::DeviceReduce::Sum(d_temp->data(), bytes, d_ab->data(), d_result->data(), 2 * n, stream);
    };
    cub_spec.prepare = nullptr;  // the last input set stays in place for the library
    cub_spec.verify = nullptr;
    pplab::measure(cub_spec, options);
    pplab::measure_copy(PPLAB_LAB, 2 * n, 4, options);
  }
  return 0;
} catch (const std::exception& error) {
  std::fprintf(stderr, "error: %s\n", error.what());
  return 1;
}
