// Lab 11 benchmark (GPU): the radix sort of 32-bit unsigned keys, and of key-value pairs,
// beside CUB's DeviceRadixSort::SortKeys / SortPairs on the same inputs, and the device copy.
//   build/gpu-solutions/bin/lab11_radix_sort_ref_bench [--sizes=16,20,24,28]
// Bytes-moved model (the ideal LSD sort, as for CUB): 4 passes of 8-bit digits, each
// reading and writing every key once: 4 x 2 x 4 bytes = 32 bytes per key, 64 per pair.
// (The reference's reduce-then-scan reads the keys once more per pass for its
// histograms, so it moves 48 bytes per key: its GB/s figure understates its traffic.)
// Rows "keys" and "pairs" are the lecture's three kernels per digit (what speed points
// compare); once written, the stretch one-sweep sort adds rows "keys, one sweep" and
// "pairs, one sweep".
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

#include "pplab/bench.h"
#include "pplab/check.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"
#include "radix_sort.cuh"

namespace {
using Buffer = pplab::DeviceBuffer<unsigned>;
using Bytes = pplab::DeviceBuffer<unsigned char>;

bool same(const std::vector<unsigned>& expected, const std::vector<unsigned>& got) {
  return expected.size() == got.size() &&
         (expected.empty() || std::memcmp(expected.data(), got.data(), expected.size() * sizeof(unsigned)) == 0);
}

void print_ratio(const char* what, std::size_t n, const pplab::Measurement& ours, const pplab::Measurement& cub) {
  std::fprintf(stderr, "  %-16s n=2^%-2d  %7.2f G/s  cub %7.2f G/s  ratio %5.2f\n", what,
               static_cast<int>(std::log2(double(n))), ours.items_per_s * 1e-9, cub.items_per_s * 1e-9,
               cub.items_per_s > 0 ? ours.items_per_s / cub.items_per_s : 0.0);
}
}  // namespace

int main(int argc, char** argv) try {
  const auto options = pplab::bench_options(argc, argv, {16, 20, 24, 28});
  const std::string impl = std::string(PPLAB_TREE) == "solutions" ? "reference" : "student";
  for (std::size_t n : options.sizes) {
    const auto keys = pplab::random_full_range<unsigned>(n, 1);
    auto d_keys_in = std::make_shared<Buffer>(keys);
    auto d_values_in = std::make_shared<Buffer>(pplab::iota_values<unsigned>(n));
    auto d_keys_out = std::make_shared<Buffer>(n);
    auto d_values_out = std::make_shared<Buffer>(n);
    auto d_cub_keys = std::make_shared<Buffer>(n);
    auto d_cub_values = std::make_shared<Buffer>(n);

    // Scratch for both sorts, and CUB's answer to verify against (CUB's sort is stable too).
    std::size_t our_bytes = 0, cub_keys_bytes = 0, cub_pairs_bytes = 0;
    pplab::lab11::radix_sort_pairs(nullptr, our_bytes, d_keys_in->data(), d_keys_out->data(), d_values_in->data(),
                                   d_values_out->data(), n);
    cub::DeviceRadixSort::SortKeys(nullptr, cub_keys_bytes, d_keys_in->data(), d_cub_keys->data(), n);
    cub::DeviceRadixSort::SortPairs(nullptr, cub_pairs_bytes, d_keys_in->data(), d_cub_keys->data(),
                                    d_values_in->data(), d_cub_values->data(), n);
    auto d_ours_temp = std::make_shared<Bytes>(our_bytes);
    auto d_cub_temp = std::make_shared<Bytes>(std::max(cub_keys_bytes, cub_pairs_bytes));
    {
      std::size_t bytes = d_cub_temp->bytes();
      PPLAB_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(d_cub_temp->data(), bytes, d_keys_in->data(),
                                                       d_cub_keys->data(), d_values_in->data(),
                                                       d_cub_values->data(), n));
      PPLAB_CUDA_CHECK(cudaDeviceSynchronize());
    }
    const auto expected_keys = std::make_shared<std::vector<unsigned>>(d_cub_keys->download());
    const auto expected_values = std::make_shared<std::vector<unsigned>>(d_cub_values->download());

    pplab::BenchCase sort_keys;
    sort_keys.lab = PPLAB_LAB;
    sort_keys.impl = impl;
    sort_keys.variant = "keys";
    sort_keys.n = n;
    sort_keys.bytes_moved = 4.0 * 2.0 * 4.0 * double(n);
    sort_keys.run = [=](cudaStream_t stream) {
      std::size_t bytes = d_ours_temp->bytes();
      pplab::lab11::radix_sort_keys(d_ours_temp->data(), bytes, d_keys_in->data(), d_keys_out->data(), n, 0, 32,
                                    stream, pplab::lab11::Algorithm::three_kernels);
    };
    sort_keys.verify = [=] { return same(*expected_keys, d_keys_out->download()); };
    const auto ours_keys = pplab::measure(sort_keys, options);

    pplab::BenchCase sort_pairs = sort_keys;
    sort_pairs.variant = "pairs";
    sort_pairs.bytes_moved = 4.0 * 2.0 * 8.0 * double(n);
    sort_pairs.run = [=](cudaStream_t stream) {
      std::size_t bytes = d_ours_temp->bytes();
      pplab::lab11::radix_sort_pairs(d_ours_temp->data(), bytes, d_keys_in->data(), d_keys_out->data(),
                                     d_values_in->data(), d_values_out->data(), n, 0, 32, stream,
                                     pplab::lab11::Algorithm::three_kernels);
    };
    sort_pairs.verify = [=] {
      return same(*expected_keys, d_keys_out->download()) && same(*expected_values, d_values_out->download());
    };
    const auto ours_pairs = pplab::measure(sort_pairs, options);
    pplab::Measurement onesweep_keys, onesweep_pairs;
    const bool onesweep = pplab::lab11::onesweep_available();
    if (onesweep) {
      pplab::BenchCase keys_case = sort_keys, pairs_case = sort_pairs;
      keys_case.variant = "keys, one sweep";
      keys_case.run = [=](cudaStream_t stream) {
        std::size_t bytes = d_ours_temp->bytes();
        pplab::lab11::radix_sort_keys(d_ours_temp->data(), bytes, d_keys_in->data(), d_keys_out->data(), n, 0, 32,
                                      stream, pplab::lab11::Algorithm::onesweep);
      };
      pairs_case.variant = "pairs, one sweep";
      pairs_case.run = [=](cudaStream_t stream) {
        std::size_t bytes = d_ours_temp->bytes();
        pplab::lab11::radix_sort_pairs(d_ours_temp->data(), bytes, d_keys_in->data(), d_keys_out->data(),
                                       d_values_in->data(), d_values_out->data(), n, 0, 32, stream,
                                       pplab::lab11::Algorithm::onesweep);
      };
      onesweep_keys = pplab::measure(keys_case, options);
      onesweep_pairs = pplab::measure(pairs_case, options);
    }
    if (!options.compare) continue;

    pplab::BenchCase cub_keys = sort_keys;
    cub_keys.impl = "cub";
    cub_keys.variant = "DeviceRadixSort::SortKeys";
    cub_keys.run = [=](cudaStream_t stream) {
      std::size_t bytes = d_cub_temp->bytes();
      cub::DeviceRadixSort::SortKeys(d_cub_temp->data(), bytes, d_keys_in->data(), d_cub_keys->data(), n, 0, 32,
                                     stream);
    };
    cub_keys.verify = nullptr;
    const auto cub_keys_m = pplab::measure(cub_keys, options);

    pplab::BenchCase cub_pairs = sort_pairs;
    cub_pairs.impl = "cub";
    cub_pairs.variant = "DeviceRadixSort::SortPairs";
    cub_pairs.run = [=](cudaStream_t stream) {
      std::size_t bytes = d_cub_temp->bytes();
      cub::DeviceRadixSort::SortPairs(d_cub_temp->data(), bytes, d_keys_in->data(), d_cub_keys->data(),
                                      d_values_in->data(), d_cub_values->data(), n, 0, 32, stream);
    };
    cub_pairs.verify = nullptr;
    const auto cub_pairs_m = pplab::measure(cub_pairs, options);
    pplab::measure_copy(PPLAB_LAB, n, 4, options);
    print_ratio("keys", n, ours_keys, cub_keys_m);
    print_ratio("pairs", n, ours_pairs, cub_pairs_m);
    if (onesweep) {
      print_ratio("keys, one sweep", n, onesweep_keys, cub_keys_m);
      print_ratio("pairs, one sweep", n, onesweep_pairs, cub_pairs_m);
    }
  }
  return 0;
} catch (const std::exception& error) {
  std::fprintf(stderr, "error: %s\n", error.what());
  return 1;
}
