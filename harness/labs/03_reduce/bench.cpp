// Lab 03 benchmark: sum, min and max of int and float arrays. CUB's DeviceReduce::Sum /
// Min / Max on the same input and the device copy are in bench_library.cu.
//   build/gpu-solutions/bin/lab03_reduce_ref_bench [--sizes=16,20,24,28]
// Bytes moved: n * sizeof(T), the input read once (the block results are a few
// hundredths of a percent on top).
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "pplab/bench_main.h"
#include "pplab/check.h"
#include "pplab/cpu_reference.h"
#include "pplab/device_buffer.h"
#include "pplab/fresh_inputs.h"
#include "pplab/inputs.h"
#include "reduce.cuh"

namespace {

using pplab::lab03::Max;
using pplab::lab03::Min;
using pplab::lab03::Sum;

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

template <class T, class Op>
void bench_op(const pplab::BenchOptions& options, const std::shared_ptr<pplab::FreshInput<T>>& in, Op op,
              const std::string& op_name) {
  const std::size_t n = in->size();
  auto d_out = std::make_shared<pplab::DeviceBuffer<T>>(1);

  const std::string variant = op_name + (std::is_same_v<T, int> ? " int" : " float");
  pplab::BenchCase spec = pplab::bench_case(pplab::bench_impl(), variant, n, double(sizeof(T)) * double(n));
  spec.prepare = [=] { in->next(); };
  spec.run = [=](cudaStream_t stream) {
    pplab::lab03::reduce(in->data(), d_out->data(), n, op, pplab::lab03::kBlockThreads, stream);
  };
  spec.verify = [=, variant = spec.variant] {
    const std::vector<T>& host = in->host();
    const T expected = expected_reduce(host, op);
    double magnitude = 0;
    for (const T& v : host) magnitude += std::fabs(double(v));
    const pplab::Tolerance tolerance =
        std::is_same_v<Op, Sum<float>> ? pplab::sum_tolerance(n, magnitude) : pplab::Tolerance{};
    const T got = d_out->download()[0];
    return got == expected || pplab::compare_value({variant + " after timing", n}, expected, got, tolerance).passed;
  };
  pplab::measure(spec, options);
}

// Drawn afresh before every run, so no answer kept from an earlier call is right for
// the next one. Sums: ints in [-1000, 1000], floats in [-1, 1), as CUB's rows use (an int
// sum stays far from overflow). Min and max: every int, every finite float, so that a
// draw's extremes differ from the last draw's: ints in [-1000, 1000] hold -1000 and
// 1000 in nearly every draw of a few thousand, and a min or max kept from an earlier
// call (or written without reading the input) was right again and timed at nothing.
template <class T>
void bench_type(const pplab::BenchOptions& options, std::size_t n) {
  constexpr bool is_int = std::is_same_v<T, int>;
  auto small = std::make_shared<pplab::FreshInput<T>>(
      n, is_int ? pplab::Spread::uniform(-1000, 1000) : pplab::Spread::uniform(-1, 1));
  auto wide = std::make_shared<pplab::FreshInput<T>>(
      n, is_int ? pplab::Spread::full_range<int>() : pplab::Spread::finite_floats());
  bench_op(options, small, Sum<T>{}, "sum");
  bench_op(options, wide, Min<T>{}, "min");
  bench_op(options, wide, Max<T>{}, "max");
}

void reduce_cases(const pplab::BenchOptions& options, std::size_t n) {
  bench_type<int>(options, n);
  bench_type<float>(options, n);
}

}  // namespace

pplab::BenchLab pplab::bench_lab() { return {{16, 20, 24, 28}, 0, reduce_cases}; }
