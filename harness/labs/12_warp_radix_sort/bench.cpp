// Lab 12 benchmark: many warps each sorting a 32-key segment. CUB's WarpMergeSort and
// BlockRadixSort on the same segments and the device copy are in bench_library.cu. Once
// written, the stretch rank pass adds its own row; speed points compare the lecture's bit
// passes (row "32-key segments"); segments/s = keys/s / 32.
//   build/gpu-solutions/bin/lab12_warp_radix_sort_ref_bench [--sizes=16,20,24,28]
// Bytes-moved model: every key read once and written once, 8 bytes per key.
#include <algorithm>
#include <memory>
#include <vector>

#include "pplab/bench_main.h"
#include "pplab/check.h"
#include "pplab/device_buffer.h"
#include "pplab/fresh_inputs.h"
#include "pplab/sort_checks.h"
#include "warp_radix_sort.cuh"

namespace {

void warp_radix_sort_cases(const pplab::BenchOptions& options, std::size_t n) {
  // Drawn afresh before every run, so no answer kept from an earlier call is right for
  // the next one.
  auto keys = std::make_shared<pplab::FreshInput<unsigned>>(n, pplab::Spread::full_range<unsigned>());
  auto d_out = std::make_shared<pplab::DeviceBuffer<unsigned>>(n);

  pplab::BenchCase spec = pplab::bench_case(pplab::bench_impl(), "", n, 2.0 * 4.0 * double(n));
  spec.prepare = [=] { keys->next(); };
  // Checked at positions drawn after the run, only those brought back: each sampled key
  // against its own 32-key segment of the draw, sorted on the CPU (pplab/sort_checks.h).
  spec.verify = [=] {
    const auto positions = pplab::sample_positions(n);
    return pplab::sampled::segments_sorted_at(n, 32, positions, pplab::download_at(d_out->data(), positions),
                                              [&](std::size_t i) { return keys->at(i); });
  };
  // The bit passes, then (once step 12.5 is written) the rank pass, on the same buffers.
  for (const auto algorithm : {pplab::lab12::Algorithm::bit_passes, pplab::lab12::Algorithm::rank_pass}) {
    const bool rank_pass = algorithm == pplab::lab12::Algorithm::rank_pass;
    if (rank_pass && !pplab::lab12::rank_pass_available()) return;
    spec.variant = rank_pass ? "32-key segments, rank pass" : "32-key segments";
    spec.run = [=](cudaStream_t stream) {
      pplab::lab12::warp_radix_sort(keys->data(), d_out->data(), n, 0, 32, pplab::lab12::kWarpsPerBlock, stream,
                                    algorithm);
    };
    d_out->poison();
    pplab::measure(spec, options);
  }
}

}  // namespace

pplab::BenchLab pplab::bench_lab() { return {{16, 20, 24, 28}, 0, warp_radix_sort_cases}; }
