// Lab 11 benchmark: the radix sort of 32-bit unsigned keys, and of key-value pairs.
// CUB's DeviceRadixSort::SortKeys / SortPairs and the device copy are in
// bench_library.cu. Results are checked in linear time (pplab/sort_checks.h).
//   build/gpu-solutions/bin/lab11_radix_sort_ref_bench [--sizes=16,20,24,28]
// Bytes-moved model (the ideal LSD sort, as for CUB): 4 passes of 8-bit digits, each
// reading and writing every key once: 4 x 2 x 4 bytes = 32 bytes per key, 64 per pair.
// (The reference's reduce-then-scan reads the keys once more per pass for its
// histograms, so it moves 48 bytes per key: its GB/s figure understates its traffic.)
// Rows "keys" and "pairs" are the lecture's three kernels per digit (what speed points
// compare); once written, the stretch one-sweep sort adds rows "keys, one sweep" and
// "pairs, one sweep".
#include <memory>
#include <vector>

#include "pplab/bench_main.h"
#include "pplab/check.h"
#include "pplab/cpu_reference.h"
#include "pplab/device_buffer.h"
#include "pplab/fresh_inputs.h"
#include "pplab/inputs.h"
#include "pplab/sort_checks.h"
#include "radix_sort.cuh"

namespace {

using Buffer = pplab::DeviceBuffer<unsigned>;
using Bytes = pplab::DeviceBuffer<unsigned char>;

void radix_sort_cases(const pplab::BenchOptions& options, std::size_t n) {
  // Keys drawn afresh before every run, so no answer kept from an earlier call is right
  // for the next one. The values are the positions, so a stable sort's values are the
  // stable order, checked in linear time (pplab/sort_checks.h).
  auto keys = std::make_shared<pplab::FreshInput<unsigned>>(n, pplab::Spread::full_range<unsigned>());
  auto d_values_in = std::make_shared<Buffer>(pplab::iota_values<unsigned>(n));
  auto d_keys_out = std::make_shared<Buffer>(n);
  auto d_values_out = std::make_shared<Buffer>(n);

  std::size_t temp_bytes = 0;
  pplab::lab11::radix_sort_pairs(nullptr, temp_bytes, keys->data(), d_keys_out->data(), d_values_in->data(),
                                 d_values_out->data(), n);
  auto d_temp = std::make_shared<Bytes>(temp_bytes);

  // The lecture's three kernels per digit, or the stretch one-sweep sort, on the same buffers.
  const auto sort_keys_by = [=](pplab::lab11::Algorithm algorithm) {
    return [=](cudaStream_t stream) {
      std::size_t bytes = d_temp->bytes();
      pplab::lab11::radix_sort_keys(d_temp->data(), bytes, keys->data(), d_keys_out->data(), n, 0, 32, stream,
                                    algorithm);
    };
  };
  const auto sort_pairs_by = [=](pplab::lab11::Algorithm algorithm) {
    return [=](cudaStream_t stream) {
      std::size_t bytes = d_temp->bytes();
      pplab::lab11::radix_sort_pairs(d_temp->data(), bytes, keys->data(), d_keys_out->data(),
                                     d_values_in->data(), d_values_out->data(), n, 0, 32, stream, algorithm);
    };
  };

  pplab::BenchCase sort_keys = pplab::bench_case(pplab::bench_impl(), "", n, 4.0 * 2.0 * 4.0 * double(n));
  sort_keys.prepare = [=] { keys->next(); };
  // Checked at positions drawn after the run, only those brought back (pplab/sort_checks.h).
  sort_keys.verify = [=] {
    const auto positions = pplab::sample_positions(n);
    return pplab::sampled::stable_sort_at(keys->host(), positions, pplab::download_at(d_keys_out->data(), positions));
  };
  pplab::BenchCase sort_pairs = sort_keys;
  sort_pairs.bytes_moved = 4.0 * 2.0 * 8.0 * double(n);
  sort_pairs.verify = [=] {
    const auto positions = pplab::sample_positions(n);
    const auto values = pplab::download_at(d_values_out->data(), positions);
    return pplab::sampled::stable_sort_at(keys->host(), positions, pplab::download_at(d_keys_out->data(), positions),
                                          &values);
  };
  for (const auto algorithm : {pplab::lab11::Algorithm::three_kernels, pplab::lab11::Algorithm::onesweep}) {
    const bool onesweep = algorithm == pplab::lab11::Algorithm::onesweep;
    if (onesweep && !pplab::lab11::onesweep_available()) return;
    sort_keys.variant = onesweep ? "keys, one sweep" : "keys";
    sort_keys.run = sort_keys_by(algorithm);
    d_keys_out->poison();
    pplab::measure(sort_keys, options);
    sort_pairs.variant = onesweep ? "pairs, one sweep" : "pairs";
    sort_pairs.run = sort_pairs_by(algorithm);
    d_keys_out->poison();
    d_values_out->poison();
    pplab::measure(sort_pairs, options);
  }
}

}  // namespace

pplab::BenchLab pplab::bench_lab() { return {{16, 20, 24, 28}, 0, radix_sort_cases}; }
