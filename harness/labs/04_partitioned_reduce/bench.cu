// Lab 04 benchmark (GPU): the partitioned sum, by two passes and by atomics, beside
// CUB's DeviceReduce::Sum on the same input, and the device copy.
//   build/gpu-solutions/bin/lab04_partitioned_reduce_ref_bench [--sizes=16,20,24,28]
// Bytes moved: n * sizeof(T), the input read once (the partials array is a few KB).
#include <cub/device/device_reduce.cuh>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "partitioned_reduce.cuh"
#include "pplab/bench.h"
#include "pplab/check.h"
#include "pplab/cpu_reference.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"

namespace {

using pplab::lab04::Method;

template <class T>
void bench_type(const pplab::BenchOptions& options, const std::string& impl, std::size_t n) {
  const char* type = std::is_same_v<T, int> ? "int" : "float";
  const std::vector<T> host = std::is_same_v<T, int> ? pplab::random_values<T>(n, T(-1000), T(1000), 1)
                                                     : pplab::random_values<T>(n, T(-1), T(1), 2);
  auto d_in = std::make_shared<pplab::DeviceBuffer<T>>(host);
  auto d_out = std::make_shared<pplab::DeviceBuffer<T>>(1);
  T expected;
  if constexpr (std::is_same_v<T, int>) {
    std::uint32_t total = 0;  // wraps like the GPU's adder
    for (int v : host) total += static_cast<std::uint32_t>(v);
    expected = static_cast<int>(total);
  } else {
    expected = pplab::cpu::sum(host);
  }
  double magnitude = 0;
  for (const T& v : host) magnitude += std::fabs(double(v));
  const pplab::Tolerance tolerance =
      std::is_floating_point_v<T> ? pplab::sum_tolerance(n, magnitude) : pplab::Tolerance{};

  for (Method method : {Method::two_pass, Method::atomics}) {
    pplab::BenchCase spec;
    spec.lab = PPLAB_LAB;
    spec.impl = impl;
    spec.variant = std::string("sum ") + type + (method == Method::two_pass ? ", two passes" : ", atomics");
    spec.n = n;
    spec.bytes_moved = double(sizeof(T)) * double(n);
    spec.run = [=](cudaStream_t stream) {
      pplab::lab04::partitioned_sum(d_in->data(), d_out->data(), n, method, pplab::lab04::kBlockThreads, 0,
                                    stream);
    };
    spec.verify = [=] {
      const T got = d_out->download()[0];
      return got == expected ||
             pplab::compare_value({spec.variant + " after timing", n}, expected, got, tolerance).passed;
    };
    pplab::measure(spec, options);
  }
  if (!options.compare) return;

  std::size_t temp_bytes = 0;
  cub::DeviceReduce::Sum(nullptr, temp_bytes, d_in->data(), d_out->data(), n);
  auto d_temp = std::make_shared<pplab::DeviceBuffer<unsigned char>>(temp_bytes);
  pplab::BenchCase cub_spec;
  cub_spec.lab = PPLAB_LAB;
  cub_spec.impl = "cub";
  cub_spec.variant = std::string("sum ") + type + " (DeviceReduce::Sum)";
  cub_spec.n = n;
  cub_spec.bytes_moved = double(sizeof(T)) * double(n);
  cub_spec.run = [=](cudaStream_t stream) {
    std::size_t bytes = d_temp->bytes();
    cub::DeviceReduce::Sum(d_temp->data(), bytes, d_in->data(), d_out->data(), n, stream);
  };
  cub_spec.verify = [=] {
    const T got = d_out->download()[0];
    return got == expected || pplab::compare_value({"cub after timing", n}, expected, got, tolerance).passed;
  };
  pplab::measure(cub_spec, options);
}

}  // namespace

int main(int argc, char** argv) try {
  const auto options = pplab::bench_options(argc, argv, {16, 20, 24, 28});
  const std::string impl = std::string(PPLAB_TREE) == "solutions" ? "reference" : "student";
  for (std::size_t n : options.sizes) {
    bench_type<float>(options, impl, n);
    bench_type<int>(options, impl, n);
    if (options.compare) pplab::measure_copy(PPLAB_LAB, n, 4, options);
  }
  return 0;
} catch (const std::exception& error) {
  std::fprintf(stderr, "error: %s\n", error.what());
  return 1;
}
