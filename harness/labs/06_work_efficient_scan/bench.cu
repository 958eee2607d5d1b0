// Lab 06 benchmark (GPU): the work-efficient scan beside CUB's DeviceScan on the same
// input, and the device copy. Rows: the single-pass scan (stretch 06.6, the launcher's
// choice when written), the Blelloch tiles algorithm (steps 06.1-06.5), and CUB.
// Bytes moved: a scan reads n items and writes n items, 2 * 4n bytes. The single-pass
// scan moves about that (plus 8 bytes of status per 4096 items); the tiles algorithm
// reads the input, writes the output, then reads and writes the output again to add
// the tile offsets: about 4 * 4n.
// Target (issue 8): the fastest step at 2^28 >= CUB DeviceScan::ExclusiveSum.
//   build/gpu-solutions/bin/lab06_work_efficient_scan_ref_bench [--sizes=16,20,24,28]
#include <cub/device/device_scan.cuh>

#include <memory>
#include <type_traits>

#include "pplab/bench.h"
#include "pplab/check.h"
#include "pplab/cpu_reference.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"
#include "work_efficient_scan.cuh"

namespace {

using pplab::lab06::Algorithm;

template <class T>
void bench_type(std::size_t n, const std::string& type, const std::string& impl, const pplab::BenchOptions& options) {
  // Small whole numbers: every int prefix of 2^28 elements fits, and float prefixes are
  // exact up to 2^24 and then round, in a different order for each implementation.
  const auto ints = pplab::random_values<int>(n, 0, 3, 1);
  const auto in = std::make_shared<std::vector<T>>(ints.begin(), ints.end());
  auto d_in = std::make_shared<pplab::DeviceBuffer<T>>(*in);
  auto d_out = std::make_shared<pplab::DeviceBuffer<T>>(n);

  // Floats: one rounding per addition along the longest chain (tile after tile in the
  // single-pass scan), far above what an error in the scan itself would cost.
  const pplab::Tolerance tolerance =
      std::is_same_v<T, float> ? pplab::Tolerance{1.0, 1.2e-7 * (double(n) / 4096 + 64)} : pplab::Tolerance{};

  struct Row {
    bool inclusive;
    Algorithm algorithm;
  };
  std::vector<Row> rows;
  if (pplab::lab06::single_pass_available()) rows.push_back({false, Algorithm::single_pass});
  rows.push_back({false, Algorithm::tiles});
  if (pplab::lab06::single_pass_available()) rows.push_back({true, Algorithm::single_pass});
  else rows.push_back({true, Algorithm::tiles});

  for (const Row& row : rows) {
    const bool inclusive = row.inclusive;
    const Algorithm algorithm = row.algorithm;
    pplab::BenchCase spec;
    spec.lab = PPLAB_LAB;
    spec.impl = impl;
    const std::string variant = std::string(inclusive ? "inclusive " : "exclusive ") + type +
                                (algorithm == Algorithm::single_pass ? " single pass" : " tiles");
    spec.variant = variant;
    spec.n = n;
    spec.bytes_moved = 2.0 * 4.0 * double(n);  // read in, write out
    spec.run = [=](cudaStream_t stream) {
      if (inclusive) pplab::lab06::inclusive_scan(d_in->data(), d_out->data(), n, algorithm, pplab::lab06::kBlockThreads, stream);
      else pplab::lab06::exclusive_scan(d_in->data(), d_out->data(), n, algorithm, pplab::lab06::kBlockThreads, stream);
    };
    spec.verify = [=] {
      const auto expected = inclusive ? pplab::cpu::inclusive_scan(*in) : pplab::cpu::exclusive_scan(*in);
      return pplab::compare_arrays({"work efficient scan after timing (" + variant + ")", n}, expected,
                                   d_out->download(), tolerance)
          .passed;
    };
    d_out->poison();  // once, untimed: an output the scan never writes fails verify
    pplab::measure(spec, options);
    if (!options.compare || algorithm == Algorithm::tiles) continue;

    std::size_t temp_bytes = 0;
    if (inclusive) cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, d_in->data(), d_out->data(), n);
    else cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, d_in->data(), d_out->data(), n);
    auto d_temp = std::make_shared<pplab::DeviceBuffer<unsigned char>>(temp_bytes);
    pplab::BenchCase cub_spec = spec;
    cub_spec.impl = "cub";
    cub_spec.variant = std::string(inclusive ? "DeviceScan::InclusiveSum " : "DeviceScan::ExclusiveSum ") + type;
    cub_spec.run = [=](cudaStream_t stream) {
      std::size_t bytes = d_temp->bytes();
      if (inclusive) cub::DeviceScan::InclusiveSum(d_temp->data(), bytes, d_in->data(), d_out->data(), n, stream);
      else cub::DeviceScan::ExclusiveSum(d_temp->data(), bytes, d_in->data(), d_out->data(), n, stream);
    };
    d_out->poison();
    pplab::measure(cub_spec, options);  // verified like the lab's scan
  }
}

}  // namespace

int main(int argc, char** argv) try {
  const auto options = pplab::bench_options(argc, argv, {16, 20, 24, 28});
  const std::string impl = std::string(PPLAB_TREE) == "solutions" ? "reference" : "student";
  for (std::size_t n : options.sizes) {
    bench_type<int>(n, "int", impl, options);
    bench_type<float>(n, "float", impl, options);
    if (options.compare) pplab::measure_copy(PPLAB_LAB, n, 4, options);
  }
  return 0;
} catch (const std::exception& error) {
  std::fprintf(stderr, "error: %s\n", error.what());
  return 1;
}
