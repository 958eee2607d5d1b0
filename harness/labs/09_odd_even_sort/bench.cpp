// Lab 09 benchmark: odd-even transposition sort of int keys. CUB's DeviceRadixSort on
// the same keys and the device copy are in bench_library.cu. The sort does about n²/2
// compare-exchanges, so the default sizes stop at 2^16 (2^18 takes about a second per
// run) and the repeats at 10.
//   build/gpu-solutions/bin/lab09_odd_even_sort_ref_bench [--sizes=12,14,16]
#include <algorithm>
#include <climits>
#include <memory>
#include <vector>

#include "odd_even_sort.cuh"
#include "pplab/bench_main.h"
#include "pplab/check.h"
#include "pplab/device_buffer.h"
#include "pplab/fresh_inputs.h"
#include "pplab/sort_checks.h"

namespace {

void odd_even_sort_cases(const pplab::BenchOptions& options, std::size_t n) {
  // Drawn afresh before every run, so no answer kept from an earlier call is right for
  // the next one.
  auto keys = std::make_shared<pplab::FreshInput<int>>(n, pplab::Spread::full_range<int>());
  auto d_out = std::make_shared<pplab::DeviceBuffer<int>>(n);

  // The least any sort moves: read n keys, write n keys. The rounds actually move
  // about ceil(n / block_threads) times that.
  pplab::BenchCase spec = pplab::bench_case(pplab::bench_impl(), "", n, 2.0 * 4.0 * double(n));
  spec.prepare = [=] { keys->next(); };
  spec.run = [=](cudaStream_t stream) {
    pplab::lab09::odd_even_sort(keys->data(), d_out->data(), n, pplab::lab09::kBlockThreads, stream);
  };
  spec.verify = [=] { return pplab::linear_time::sorted_permutation(keys->host(), d_out->download()); };
  d_out->poison();
  pplab::measure(spec, options);
}

}  // namespace

pplab::BenchLab pplab::bench_lab() { return {{12, 14, 16}, 10, odd_even_sort_cases}; }
