// Lab 04 benchmark: the partitioned sum, by two passes and by atomics. CUB's
// DeviceReduce::Sum on the same input and the device copy are in bench_library.cu.
//   build/gpu-solutions/bin/lab04_partitioned_reduce_ref_bench [--sizes=16,20,24,28]
// Bytes moved: n * sizeof(T), the input read once (the partials array is a few KB).
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "partitioned_reduce.cuh"
#include "pplab/bench_main.h"
#include "pplab/check.h"
#include "pplab/cpu_reference.h"
#include "pplab/device_buffer.h"
#include "pplab/fresh_inputs.h"

namespace {

using pplab::lab04::Method;

// Drawn afresh before every run, so no answer kept from an earlier call is right for
// the next one: ints in [-1000, 1000], floats in [-1, 1), as CUB's rows use.
template <class T>
void bench_type(const pplab::BenchOptions& options, std::size_t n) {
  const char* type = std::is_same_v<T, int> ? "int" : "float";
  auto in = std::make_shared<pplab::FreshInput<T>>(
      n, std::is_same_v<T, int> ? pplab::Spread::uniform(-1000, 1000) : pplab::Spread::uniform(-1, 1));
  auto d_out = std::make_shared<pplab::DeviceBuffer<T>>(1);
  const auto verify = [=](const std::string& variant) {
    const std::vector<T>& host = in->host();
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
    const T got = d_out->download()[0];
    return got == expected || pplab::compare_value({variant + " after timing", n}, expected, got, tolerance).passed;
  };

  for (Method method : {Method::two_pass, Method::atomics}) {
    const std::string variant =
        std::string("sum ") + type + (method == Method::two_pass ? ", two passes" : ", atomics");
    pplab::BenchCase spec = pplab::bench_case(pplab::bench_impl(), variant, n, double(sizeof(T)) * double(n));
    spec.prepare = [=] { in->next(); };
    spec.run = [=](cudaStream_t stream) {
      pplab::lab04::partitioned_sum(in->data(), d_out->data(), n, method, pplab::lab04::kBlockThreads, 0, stream);
    };
    spec.verify = [=] { return verify(variant); };
    pplab::measure(spec, options);
  }
}

void partitioned_reduce_cases(const pplab::BenchOptions& options, std::size_t n) {
  bench_type<float>(options, n);
  bench_type<int>(options, n);
}

}  // namespace

pplab::BenchLab pplab::bench_lab() { return {{16, 20, 24, 28}, 0, partitioned_reduce_cases}; }
