// Lab 03 benchmark (GPU): sum, min and max of int and float arrays beside CUB's
// DeviceReduce::Sum / Min / Max on the same input, and the device copy.
//   build/gpu-solutions/bin/lab03_reduce_ref_bench [--sizes=16,20,24,28]
// Bytes moved: n * sizeof(T), the input read once (the block results are a few
// hundredths of a percent on top).
#include <cub/device/device_reduce.cuh>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "pplab/bench.h"
#include "pplab/check.h"
#include "pplab/cpu_reference.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"
#include "reduce.cuh"

namespace {

using pplab::lab03::Max;
using pplab::lab03::Min;
using pplab::lab03::Sum;

template <class T>
const char* type_name() {
  return std::is_same_v<T, int> ? "int" : "float";
}

// The exact answer (int sums wrap like the GPU's adder; float sums in double).
template <class T, class Op>
T expected_reduce(const std::vector<T>& in, Op op) {
  if constexpr (std::is_same_v<Op, Sum<int>>) {
    std::uint32_t total = 0;
    for (int v : in) total += static_cast<std::uint32_t>(v);
    return static_cast<int>(total);
  } else if constexpr (std::is_same_v<Op, Sum<float>>) {
    return pplab::cpu::sum(in);
  } else {
    return pplab::cpu::reduce(in, Op::identity(), op);
  }
}

// Times the lab's reduce and CUB's `cub_name` (called by `cub_call`) on one input.
template <class T, class Op, class CubCall>
void bench_op(const pplab::BenchOptions& options, const std::string& impl, const std::vector<T>& host,
              const std::shared_ptr<pplab::DeviceBuffer<T>>& d_in, Op op, const std::string& op_name,
              const std::string& cub_name, CubCall cub_call) {
  const std::size_t n = host.size();
  const T expected = expected_reduce(host, op);
  double magnitude = 0;
  for (const T& v : host) magnitude += std::fabs(double(v));
  const pplab::Tolerance tolerance =
      std::is_same_v<Op, Sum<float>> ? pplab::sum_tolerance(n, magnitude) : pplab::Tolerance{};
  auto d_out = std::make_shared<pplab::DeviceBuffer<T>>(1);

  pplab::BenchCase spec;
  spec.lab = PPLAB_LAB;
  spec.impl = impl;
  spec.variant = op_name + " " + type_name<T>();
  spec.n = n;
  spec.bytes_moved = double(sizeof(T)) * double(n);
  spec.run = [=](cudaStream_t stream) {
    pplab::lab03::reduce(d_in->data(), d_out->data(), n, op, pplab::lab03::kBlockThreads, stream);
  };
  spec.verify = [=] {
    const T got = d_out->download()[0];
    return got == expected ||
           pplab::compare_value({spec.variant + " after timing", n}, expected, got, tolerance).passed;
  };
  pplab::measure(spec, options);
  if (!options.compare) return;

  std::size_t temp_bytes = 0;
  cub_call(nullptr, temp_bytes, d_in->data(), d_out->data(), n, cudaStream_t(0));
  auto d_temp = std::make_shared<pplab::DeviceBuffer<unsigned char>>(temp_bytes);
  pplab::BenchCase cub_spec = spec;
  cub_spec.impl = "cub";
  cub_spec.variant = spec.variant + " (DeviceReduce::" + cub_name + ")";
  cub_spec.run = [=](cudaStream_t stream) {
    std::size_t bytes = d_temp->bytes();
    cub_call(d_temp->data(), bytes, d_in->data(), d_out->data(), n, stream);
  };
  pplab::measure(cub_spec, options);
}

template <class T>
void bench_type(const pplab::BenchOptions& options, const std::string& impl, std::size_t n) {
  const std::vector<T> host = std::is_same_v<T, int>
                                  ? pplab::random_values<T>(n, T(-1000), T(1000), 1)
                                  : pplab::random_values<T>(n, T(-1), T(1), 2);
  auto d_in = std::make_shared<pplab::DeviceBuffer<T>>(host);
  bench_op(options, impl, host, d_in, Sum<T>{}, "sum", "Sum",
           [](void* temp, std::size_t& bytes, const T* in, T* out, std::size_t count, cudaStream_t stream) {
             cub::DeviceReduce::Sum(temp, bytes, in, out, count, stream);
           });
  bench_op(options, impl, host, d_in, Min<T>{}, "min", "Min",
           [](void* temp, std::size_t& bytes, const T* in, T* out, std::size_t count, cudaStream_t stream) {
             cub::DeviceReduce::Min(temp, bytes, in, out, count, stream);
           });
  bench_op(options, impl, host, d_in, Max<T>{}, "max", "Max",
           [](void* temp, std::size_t& bytes, const T* in, T* out, std::size_t count, cudaStream_t stream) {
             cub::DeviceReduce::Max(temp, bytes, in, out, count, stream);
           });
}

}  // namespace

int main(int argc, char** argv) try {
  const auto options = pplab::bench_options(argc, argv, {16, 20, 24, 28});
  const std::string impl = std::string(PPLAB_TREE) == "solutions" ? "reference" : "student";
  for (std::size_t n : options.sizes) {
    bench_type<int>(options, impl, n);
    bench_type<float>(options, impl, n);
    if (options.compare) pplab::measure_copy(PPLAB_LAB, n, 4, options);
  }
  return 0;
} catch (const std::exception& error) {
  std::fprintf(stderr, "error: %s\n", error.what());
  return 1;
}
