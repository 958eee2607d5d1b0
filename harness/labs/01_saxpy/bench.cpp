// Lab 01 benchmark: saxpy, y = a * x + y, 3 streams of 4 bytes per element. The device
// copy beside it is in bench_library.cu (the reference's benchmark only).
//   build/gpu-solutions/bin/lab01_saxpy_ref_bench [--sizes=16,20,24,28] [--repeats=20]
#include <memory>
#include <vector>

#include "pplab/bench_main.h"
#include "pplab/check.h"
#include "pplab/fresh_inputs.h"
#include "saxpy.cuh"

namespace {

void saxpy_cases(const pplab::BenchOptions& options, std::size_t n) {
  const float a = 1.5f;
  // x and y are drawn afresh before every run (y is overwritten anyway), so no answer
  // kept from an earlier call is right for the next one.
  auto x = std::make_shared<pplab::FreshInput<float>>(n, pplab::Spread::uniform(-1, 1));
  auto y = std::make_shared<pplab::FreshInput<float>>(n, pplab::Spread::uniform(-1, 1));

  pplab::BenchCase spec = pplab::bench_case(pplab::bench_impl(), "", n, 3.0 * 4.0 * double(n));  // read x, y; write y
  spec.prepare = [=] {
    x->next();
    y->next();
  };
  spec.run = [=](cudaStream_t stream) { pplab::lab01::saxpy(a, x->data(), y->data(), n, stream); };
  // Checked at positions drawn after the run (pplab/fresh_inputs.h), only those brought
  // back: y's right value at i needs only x and y's draws at i.
  spec.verify = [=] {
    const auto positions = pplab::sample_positions(n);
    std::vector<float> expected;
    for (std::size_t i : positions) expected.push_back(a * x->at(i) + y->at(i));
    return pplab::matches_at("saxpy after timing", positions, pplab::download_at(y->data(), positions), expected,
                             {1e-6, 1e-6});
  };
  pplab::measure(spec, options);
}

}  // namespace

pplab::BenchLab pplab::bench_lab() { return {{16, 20, 24, 28}, 0, saxpy_cases}; }
