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
#include "pplab/inputs.h"
#include "warp_radix_sort.cuh"

namespace {

std::vector<unsigned> segment_sorted(std::vector<unsigned> keys) {
  for (std::size_t s = 0; s < keys.size(); s += 32)
    std::sort(keys.begin() + s, keys.begin() + std::min(keys.size(), s + 32));
  return keys;
}

void warp_radix_sort_cases(const pplab::BenchOptions& options, std::size_t n) {
  const auto keys = pplab::random_full_range<unsigned>(n, 1);
  const auto expected = std::make_shared<std::vector<unsigned>>(segment_sorted(keys));
  auto d_in = std::make_shared<pplab::DeviceBuffer<unsigned>>(keys);
  auto d_out = std::make_shared<pplab::DeviceBuffer<unsigned>>(n);

  pplab::BenchCase spec = pplab::bench_case(pplab::bench_impl(), "", n, 2.0 * 4.0 * double(n));
  spec.verify = [=] { return *expected == d_out->download(); };
  // The bit passes, then (once step 12.5 is written) the rank pass, on the same buffers.
  for (const auto algorithm : {pplab::lab12::Algorithm::bit_passes, pplab::lab12::Algorithm::rank_pass}) {
    const bool rank_pass = algorithm == pplab::lab12::Algorithm::rank_pass;
    if (rank_pass && !pplab::lab12::rank_pass_available()) return;
    spec.variant = rank_pass ? "32-key segments, rank pass" : "32-key segments";
    spec.run = [=](cudaStream_t stream) {
      pplab::lab12::warp_radix_sort(d_in->data(), d_out->data(), n, 0, 32, pplab::lab12::kWarpsPerBlock, stream,
                                    algorithm);
    };
    d_out->poison();
    pplab::measure(spec, options);
  }
}

}  // namespace

pplab::BenchLab pplab::bench_lab() { return {{16, 20, 24, 28}, 0, warp_radix_sort_cases}; }
