// Lab 10 benchmark: merge sort of 32-bit keys and of key-value pairs. CUB's
// DeviceMergeSort on the same inputs and the device copy are in bench_library.cu.
// Results are checked in linear time (pplab/sort_checks.h), each on its own fresh keys.
//   build/gpu-solutions/bin/lab10_merge_sort_ref_bench [--sizes=16,20,24,28]
#include <cstdint>
#include <memory>
#include <vector>

#include "merge_sort.cuh"
#include "pplab/bench_main.h"
#include "pplab/check.h"
#include "pplab/cpu_reference.h"
#include "pplab/device_buffer.h"
#include "pplab/fresh_inputs.h"
#include "pplab/inputs.h"
#include "pplab/sort_checks.h"

namespace {

using Key = unsigned;
using Value = std::uint32_t;
using pplab::DeviceBuffer;

// Merge passes after the block sort: runs of one sort tile double until one run is left.
// The tile is the one sort_keys (pairs false) or sort_pairs runs on this device.
int merge_passes(std::size_t n, bool pairs) {
  const std::size_t sort_tile =
      std::size_t(pplab::lab10::sort_block_threads(pairs)) * pplab::lab10::kItemsPerThread;
  int passes = 0;
  while ((sort_tile << passes) < n) ++passes;
  return passes;
}

void merge_sort_cases(const pplab::BenchOptions& options, std::size_t n) {
  // Keys drawn afresh before every run, so no answer kept from an earlier call is right
  // for the next one. The values are the positions, so a stable sort's values are the
  // stable order, checked in linear time (pplab/sort_checks.h).
  auto keys = std::make_shared<pplab::FreshInput<Key>>(n, pplab::Spread::full_range<Key>());
  auto d_values = std::make_shared<DeviceBuffer<Value>>(pplab::iota_values<Value>(n));
  auto d_keys_out = std::make_shared<DeviceBuffer<Key>>(n);
  auto d_values_out = std::make_shared<DeviceBuffer<Value>>(n);
  // Checked at positions drawn after the run, only those brought back (pplab/sort_checks.h).
  auto keys_ok = [=] {
    const auto positions = pplab::sample_positions(n);
    return pplab::sampled::stable_sort_at(keys->host(), positions, pplab::download_at(d_keys_out->data(), positions));
  };
  auto pairs_ok = [=] {
    const auto positions = pplab::sample_positions(n);
    const auto values = pplab::download_at(d_values_out->data(), positions);
    return pplab::sampled::stable_sort_at(keys->host(), positions, pplab::download_at(d_keys_out->data(), positions),
                                          &values);
  };

  // Bytes-moved model: the block sort and every merge pass read and write each key once.
  const double rounds = 1.0 + merge_passes(n, false), pair_rounds = 1.0 + merge_passes(n, true);
  pplab::BenchCase spec =
      pplab::bench_case(pplab::bench_impl(), "sort_keys", n, rounds * 2.0 * sizeof(Key) * double(n));
  spec.prepare = [=] { keys->next(); };
  spec.run = [=](cudaStream_t stream) { pplab::lab10::sort_keys(keys->data(), d_keys_out->data(), n, stream); };
  spec.verify = keys_ok;
  d_keys_out->poison();
  pplab::measure(spec, options);

  pplab::BenchCase global = spec;
  global.variant = "sort_keys global merge passes";
  global.run = [=](cudaStream_t stream) {
    pplab::lab10::sort_keys(keys->data(), d_keys_out->data(), n, stream, pplab::lab10::MergeKernel::global);
  };
  d_keys_out->poison();
  pplab::measure(global, options);

  pplab::BenchCase pairs = spec;
  pairs.variant = "sort_pairs";
  pairs.bytes_moved = pair_rounds * 2.0 * (sizeof(Key) + sizeof(Value)) * double(n);
  pairs.run = [=](cudaStream_t stream) {
    pplab::lab10::sort_pairs(keys->data(), d_values->data(), d_keys_out->data(), d_values_out->data(), n, stream);
  };
  pairs.verify = pairs_ok;
  d_keys_out->poison();
  d_values_out->poison();
  pplab::measure(pairs, options);
}

}  // namespace

pplab::BenchLab pplab::bench_lab() { return {{16, 20, 24, 28}, 0, merge_sort_cases}; }
