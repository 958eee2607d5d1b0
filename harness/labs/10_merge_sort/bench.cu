// Lab 10 benchmark (GPU): merge sort of 32-bit keys and of key-value pairs beside CUB's
// DeviceMergeSort on the same inputs, and the device copy. Results are checked after
// timing against CUB's DeviceRadixSort (stable), so even 2^28 keys verify quickly.
//   build/gpu-solutions/bin/lab10_merge_sort_ref_bench [--sizes=16,20,24,28]
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>

#include <cstdint>
#include <functional>
#include <memory>

#include "merge_sort.cuh"
#include "pplab/bench.h"
#include "pplab/check.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"

namespace {

using Key = unsigned;
using Value = std::uint32_t;
using pplab::DeviceBuffer;

struct Less {
  __device__ bool operator()(const Key& a, const Key& b) const { return a < b; }
};

// Merge passes after the block sort: runs of one tile double until one run is left.
int merge_passes(std::size_t n) {
  int passes = 0;
  while ((std::size_t(pplab::lab10::kTileItems) << passes) < n) ++passes;
  return passes;
}

// Scratch memory for the CUB calls, allocated once per size.
std::shared_ptr<DeviceBuffer<unsigned char>> temp_for(const std::function<void(std::size_t&)>& query) {
  std::size_t bytes = 0;
  query(bytes);
  return std::make_shared<DeviceBuffer<unsigned char>>(bytes);
}

}  // namespace

int main(int argc, char** argv) try {
  const auto options = pplab::bench_options(argc, argv, {16, 20, 24, 28});
  const std::string impl = std::string(PPLAB_TREE) == "solutions" ? "reference" : "student";
  // The sort takes its scratch with cudaMallocAsync: keep freed memory in the pool so a
  // repeat does not pay for mapping it again (CUB gets its scratch up front too).
  cudaMemPool_t pool;
  PPLAB_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  std::uint64_t keep_all = UINT64_MAX;
  PPLAB_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all));

  for (std::size_t n : options.sizes) {
    const auto keys = pplab::random_full_range<Key>(n, 1);
    const auto values = pplab::iota_values<Value>(n);
    auto d_keys = std::make_shared<DeviceBuffer<Key>>(keys);
    auto d_values = std::make_shared<DeviceBuffer<Value>>(values);
    auto d_keys_out = std::make_shared<DeviceBuffer<Key>>(n);
    auto d_values_out = std::make_shared<DeviceBuffer<Value>>(n);

    // The expected result, from CUB's stable radix sort.
    auto expected_keys = std::make_shared<std::vector<Key>>();
    auto expected_values = std::make_shared<std::vector<Value>>();
    {
      auto temp = temp_for([&](std::size_t& bytes) {
        cub::DeviceRadixSort::SortPairs(nullptr, bytes, d_keys->data(), d_keys_out->data(), d_values->data(),
                                        d_values_out->data(), int(n));
      });
      std::size_t bytes = temp->bytes();
      PPLAB_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp->data(), bytes, d_keys->data(), d_keys_out->data(),
                                                       d_values->data(), d_values_out->data(), int(n)));
      *expected_keys = d_keys_out->download();
      *expected_values = d_values_out->download();
    }
    auto keys_ok = [=](const char* what) {
      return pplab::compare_arrays({what, n}, *expected_keys, d_keys_out->download()).passed;
    };
    auto pairs_ok = [=](const char* what) {
      return keys_ok(what) && pplab::compare_arrays({what, n}, *expected_values, d_values_out->download()).passed;
    };

    // Bytes-moved model: the block sort and every merge pass read and write each key once.
    const double rounds = 1.0 + merge_passes(n);
    pplab::BenchCase spec;
    spec.lab = PPLAB_LAB;
    spec.impl = impl;
    spec.n = n;
    spec.variant = "sort_keys";
    spec.bytes_moved = rounds * 2.0 * sizeof(Key) * double(n);
    spec.run = [=](cudaStream_t stream) {
      pplab::lab10::sort_keys(d_keys->data(), d_keys_out->data(), n, stream);
    };
    spec.verify = [=] { return keys_ok("sort_keys after timing"); };
    pplab::measure(spec, options);

    pplab::BenchCase global = spec;
    global.variant = "sort_keys global merge passes";
    global.run = [=](cudaStream_t stream) {
      pplab::lab10::sort_keys(d_keys->data(), d_keys_out->data(), n, stream, pplab::lab10::MergeKernel::global);
    };
    pplab::measure(global, options);

    pplab::BenchCase pairs = spec;
    pairs.variant = "sort_pairs";
    pairs.bytes_moved = rounds * 2.0 * (sizeof(Key) + sizeof(Value)) * double(n);
    pairs.run = [=](cudaStream_t stream) {
      pplab::lab10::sort_pairs(d_keys->data(), d_values->data(), d_keys_out->data(), d_values_out->data(), n,
                               stream);
    };
    pairs.verify = [=] { return pairs_ok("sort_pairs after timing"); };
    pplab::measure(pairs, options);
    if (!options.compare) continue;

    auto keys_temp = temp_for([&](std::size_t& bytes) {
      cub::DeviceMergeSort::SortKeysCopy(nullptr, bytes, d_keys->data(), d_keys_out->data(), std::int64_t(n),
                                         Less{});
    });
    pplab::BenchCase cub_keys = spec;
    cub_keys.impl = "cub";
    cub_keys.variant = "DeviceMergeSort::SortKeysCopy";
    cub_keys.run = [=](cudaStream_t stream) {
      std::size_t bytes = keys_temp->bytes();
      cub::DeviceMergeSort::SortKeysCopy(keys_temp->data(), bytes, d_keys->data(), d_keys_out->data(),
                                         std::int64_t(n), Less{}, stream);
    };
    pplab::measure(cub_keys, options);

    auto pairs_temp = temp_for([&](std::size_t& bytes) {
      cub::DeviceMergeSort::SortPairsCopy(nullptr, bytes, d_keys->data(), d_values->data(), d_keys_out->data(),
                                          d_values_out->data(), std::int64_t(n), Less{});
    });
    pplab::BenchCase cub_pairs = pairs;
    cub_pairs.impl = "cub";
    cub_pairs.variant = "DeviceMergeSort::SortPairsCopy";
    cub_pairs.run = [=](cudaStream_t stream) {
      std::size_t bytes = pairs_temp->bytes();
      cub::DeviceMergeSort::SortPairsCopy(pairs_temp->data(), bytes, d_keys->data(), d_values->data(),
                                          d_keys_out->data(), d_values_out->data(), std::int64_t(n), Less{},
                                          stream);
    };
    pplab::measure(cub_pairs, options);
    pplab::measure_copy(PPLAB_LAB, n, sizeof(Key), options);
  }
  return 0;
} catch (const std::exception& error) {
  std::fprintf(stderr, "error: %s\n", error.what());
  return 1;
}
