// Lab 05 benchmark: the naive scan, exclusive and inclusive over ints. CUB's
// DeviceScan::ExclusiveSum / InclusiveSum and the device copy are in bench_library.cu.
// Bytes moved: the ideal scan reads n ints and writes n ints (2 * 4n bytes), whatever
// the implementation really moves; this lab's tiles-then-offsets scan moves about 4 * 4n
// and does log2(256) steps per element, so it has no speed target.
//   build/gpu-solutions/bin/lab05_naive_scan_ref_bench [--sizes=16,20,24,28]
#include <memory>
#include <string>
#include <vector>

#include "naive_scan.cuh"
#include "pplab/bench_main.h"
#include "pplab/check.h"
#include "pplab/cpu_reference.h"
#include "pplab/device_buffer.h"
#include "pplab/fresh_inputs.h"

namespace {

void naive_scan_cases(const pplab::BenchOptions& options, std::size_t n) {
  // Small values keep every prefix of 2^28 elements inside an int. Drawn afresh before
  // every run, so no answer kept from an earlier call is right for the next one.
  auto in = std::make_shared<pplab::FreshInput<int>>(n, pplab::Spread::uniform(0, 3));
  auto d_out = std::make_shared<pplab::DeviceBuffer<int>>(n);

  for (bool inclusive : {false, true}) {
    const std::string variant = inclusive ? "inclusive int" : "exclusive int";
    pplab::BenchCase spec = pplab::bench_case(pplab::bench_impl(), variant, n, 2.0 * 4.0 * double(n));  // in, out
    spec.prepare = [=] { in->next(); };
    spec.run = [=](cudaStream_t stream) {
      if (inclusive) pplab::lab05::inclusive_scan(in->data(), d_out->data(), n, pplab::lab05::kBlockThreads, stream);
      else pplab::lab05::exclusive_scan(in->data(), d_out->data(), n, pplab::lab05::kBlockThreads, stream);
    };
    // Checked at positions drawn after the run, only those brought back (pplab/fresh_inputs.h).
    spec.verify = [=] {
      const auto positions = pplab::sample_positions(n);
      return pplab::matches_at("naive scan after timing", positions, pplab::download_at(d_out->data(), positions),
                               pplab::cpu::scan_at(in->host(), positions, inclusive));
    };
    d_out->poison();  // once, untimed: an output the scan never writes fails verify
    pplab::measure(spec, options);
  }
}

}  // namespace

pplab::BenchLab pplab::bench_lab() { return {{16, 20, 24, 28}, 0, naive_scan_cases}; }
