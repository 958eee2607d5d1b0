// Lab 05 benchmark (GPU): the naive scan, exclusive and inclusive over ints, beside
// CUB's DeviceScan::ExclusiveSum / InclusiveSum on the same input, and the device copy.
// Bytes moved: the ideal scan reads n ints and writes n ints (2 * 4n bytes), whatever
// the implementation really moves; this lab's tiles-then-offsets scan moves about 4 * 4n
// and does log2(256) steps per element, so it has no speed target.
//   build/gpu-solutions/bin/lab05_naive_scan_ref_bench [--sizes=16,20,24,28]
#include <cub/device/device_scan.cuh>

#include <memory>

#include "naive_scan.cuh"
#include "pplab/bench.h"
#include "pplab/check.h"
#include "pplab/cpu_reference.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"

int main(int argc, char** argv) try {
  const auto options = pplab::bench_options(argc, argv, {16, 20, 24, 28});
  const std::string impl = std::string(PPLAB_TREE) == "solutions" ? "reference" : "student";
  for (std::size_t n : options.sizes) {
    // Small values keep every prefix of 2^28 elements inside an int.
    const auto in = std::make_shared<std::vector<int>>(pplab::random_values<int>(n, 0, 3, 1));
    auto d_in = std::make_shared<pplab::DeviceBuffer<int>>(*in);
    auto d_out = std::make_shared<pplab::DeviceBuffer<int>>(n);

    for (bool inclusive : {false, true}) {
      const std::string variant = inclusive ? "inclusive int" : "exclusive int";
      pplab::BenchCase spec;
      spec.lab = PPLAB_LAB;
      spec.impl = impl;
      spec.variant = variant;
      spec.n = n;
      spec.bytes_moved = 2.0 * 4.0 * double(n);  // read in, write out
      spec.run = [=](cudaStream_t stream) {
        if (inclusive) pplab::lab05::inclusive_scan(d_in->data(), d_out->data(), n, pplab::lab05::kBlockThreads, stream);
        else pplab::lab05::exclusive_scan(d_in->data(), d_out->data(), n, pplab::lab05::kBlockThreads, stream);
      };
      spec.verify = [=] {
        const auto expected = inclusive ? pplab::cpu::inclusive_scan(*in) : pplab::cpu::exclusive_scan(*in);
        return pplab::compare_arrays({"naive scan after timing (" + variant + ")", n}, expected, d_out->download())
            .passed;
      };
      d_out->poison();  // once, untimed: an output the scan never writes fails verify
      pplab::measure(spec, options);
      if (!options.compare) continue;

      std::size_t temp_bytes = 0;
      if (inclusive) cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, d_in->data(), d_out->data(), n);
      else cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, d_in->data(), d_out->data(), n);
      auto d_temp = std::make_shared<pplab::DeviceBuffer<unsigned char>>(temp_bytes);
      pplab::BenchCase cub_spec = spec;
      cub_spec.impl = "cub";
      cub_spec.variant = inclusive ? "DeviceScan::InclusiveSum int" : "DeviceScan::ExclusiveSum int";
      cub_spec.run = [=](cudaStream_t stream) {
        std::size_t bytes = d_temp->bytes();
        if (inclusive) cub::DeviceScan::InclusiveSum(d_temp->data(), bytes, d_in->data(), d_out->data(), n, stream);
        else cub::DeviceScan::ExclusiveSum(d_temp->data(), bytes, d_in->data(), d_out->data(), n, stream);
      };
      d_out->poison();
      pplab::measure(cub_spec, options);  // verified like the lab's scan
    }
    if (options.compare) pplab::measure_copy(PPLAB_LAB, n, 4, options);
  }
  return 0;
} catch (const std::exception& error) {
  std::fprintf(stderr, "error: %s\n", error.what());
  return 1;
}
