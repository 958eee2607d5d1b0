// Lab 09 benchmark (GPU): odd-even transposition sort beside CUB's DeviceRadixSort on the
// same int keys, and the device copy. The sort does about n²/2 compare-exchanges, so the
// default sizes stop at 2^16 (2^18 takes about a second per run).
//   build/gpu-solutions/bin/lab09_odd_even_sort_ref_bench [--sizes=12,14,16]
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <climits>
#include <memory>

#include "odd_even_sort.cuh"
#include "pplab/bench.h"
#include "pplab/check.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"
#include "pplab/sort_checks.h"

int main(int argc, char** argv) try {
  auto options = pplab::bench_options(argc, argv, {12, 14, 16});
  options.repeats = std::min(options.repeats, 10);
  const std::string impl = std::string(PPLAB_TREE) == "solutions" ? "reference" : "student";
  for (std::size_t n : options.sizes) {
    const auto keys = pplab::random_values<int>(n, INT_MIN, INT_MAX, 1);
    auto d_in = std::make_shared<pplab::DeviceBuffer<int>>(keys);
    auto d_out = std::make_shared<pplab::DeviceBuffer<int>>(n);

    pplab::BenchCase spec;
    spec.lab = PPLAB_LAB;
    spec.impl = impl;
    spec.n = n;
    // The least any sort moves: read n keys, write n keys. The rounds actually move
    // about ceil(n / block_threads) times that.
    spec.bytes_moved = 2.0 * 4.0 * double(n);
    spec.run = [=](cudaStream_t stream) {
      pplab::lab09::odd_even_sort(d_in->data(), d_out->data(), n, pplab::lab09::kBlockThreads, stream);
    };
    spec.verify = [=, &keys] {
      return pplab::check_sorted_permutation({"odd even sort after timing", n}, keys, d_out->download()).passed;
    };
    pplab::measure(spec, options);
    if (!options.compare) continue;

    std::size_t temp_bytes = 0;
    cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, d_in->data(), d_out->data(), int(n));
    auto d_temp = std::make_shared<pplab::DeviceBuffer<unsigned char>>(temp_bytes);
    pplab::BenchCase cub_spec = spec;
    cub_spec.impl = "cub";
    cub_spec.variant = "DeviceRadixSort::SortKeys int";
    cub_spec.run = [=](cudaStream_t stream) {
      std::size_t bytes = d_temp->bytes();
      cub::DeviceRadixSort::SortKeys(d_temp->data(), bytes, d_in->data(), d_out->data(), int(n), 0,
                                     int(sizeof(int) * 8), stream);
    };
    pplab::measure(cub_spec, options);
    pplab::measure_copy(PPLAB_LAB, n, 4, options);
  }
  return 0;
} catch (const std::exception& error) {
  std::fprintf(stderr, "error: %s\n", error.what());
  return 1;
}
