// Lab 10 benchmark: merge sort of 32-bit keys and of key-value pairs. CUB's
// DeviceMergeSort on the same inputs and the device copy are in bench_library.cu.
// Results are checked against a CPU radix sort (stable), computed once per size.
//   build/gpu-solutions/bin/lab10_merge_sort_ref_bench [--sizes=16,20,24,28]
#include <cstdint>
#include <memory>
#include <vector>

#include "merge_sort.cuh"
#include "pplab/bench_main.h"
#include "pplab/check.h"
#include "pplab/cpu_reference.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"

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
  const auto keys = pplab::random_full_range<Key>(n, 1);
  const auto values = pplab::iota_values<Value>(n);
  // The values are the positions, so a stable sort's values are the stable order.
  auto expected_values = std::make_shared<std::vector<Value>>(pplab::cpu::stable_sort_order(keys));
  auto expected_keys = std::make_shared<std::vector<Key>>(n);
  for (std::size_t i = 0; i < n; ++i) (*expected_keys)[i] = keys[(*expected_values)[i]];
  auto d_keys = std::make_shared<DeviceBuffer<Key>>(keys);
  auto d_values = std::make_shared<DeviceBuffer<Value>>(values);
  auto d_keys_out = std::make_shared<DeviceBuffer<Key>>(n);
  auto d_values_out = std::make_shared<DeviceBuffer<Value>>(n);
  auto keys_ok = [=](const char* what) {
    return pplab::compare_arrays({what, n}, *expected_keys, d_keys_out->download()).passed;
  };
  auto pairs_ok = [=](const char* what) {
    return keys_ok(what) && pplab::compare_arrays({what, n}, *expected_values, d_values_out->download()).passed;
  };

  // Bytes-moved model: the block sort and every merge pass read and write each key once.
  const double rounds = 1.0 + merge_passes(n, false), pair_rounds = 1.0 + merge_passes(n, true);
  pplab::BenchCase spec =
      pplab::bench_case(pplab::bench_impl(), "sort_keys", n, rounds * 2.0 * sizeof(Key) * double(n));
  spec.run = [=](cudaStream_t stream) { pplab::lab10::sort_keys(d_keys->data(), d_keys_out->data(), n, stream); };
  spec.verify = [=] { return keys_ok("sort_keys after timing"); };
  d_keys_out->poison();
  pplab::measure(spec, options);

  pplab::BenchCase global = spec;
  global.variant = "sort_keys global merge passes";
  global.run = [=](cudaStream_t stream) {
    pplab::lab10::sort_keys(d_keys->data(), d_keys_out->data(), n, stream, pplab::lab10::MergeKernel::global);
  };
  d_keys_out->poison();
  pplab::measure(global, options);

  pplab::BenchCase pairs = spec;
  pairs.variant = "sort_pairs";
  pairs.bytes_moved = pair_rounds * 2.0 * (sizeof(Key) + sizeof(Value)) * double(n);
  pairs.run = [=](cudaStream_t stream) {
    pplab::lab10::sort_pairs(d_keys->data(), d_values->data(), d_keys_out->data(), d_values_out->data(), n, stream);
  };
  pairs.verify = [=] { return pairs_ok("sort_pairs after timing"); };
  d_keys_out->poison();
  d_values_out->poison();
  pplab::measure(pairs, options);
}

}  // namespace

pplab::BenchLab pplab::bench_lab() { return {{16, 20, 24, 28}, 0, merge_sort_cases}; }
