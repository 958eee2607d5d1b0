// Lab 06 benchmark: the work-efficient scan. Rows: the single-pass scan (stretch 06.6,
// the launcher's choice when written) and the Blelloch tiles algorithm (steps
// 06.1-06.5). CUB's DeviceScan and the device copy are in bench_library.cu.
// Bytes moved: a scan reads n items and writes n items, 2 * 4n bytes. The single-pass
// scan moves about that (plus 8 bytes of status per 4096 items); the tiles algorithm
// reads the input, writes the output, then reads and writes the output again to add
// the tile offsets: about 4 * 4n.
// Target (issue 8): the fastest step at 2^28 >= CUB DeviceScan::ExclusiveSum.
//   build/gpu-solutions/bin/lab06_work_efficient_scan_ref_bench [--sizes=16,20,24,28]
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "pplab/bench_main.h"
#include "pplab/check.h"
#include "pplab/cpu_reference.h"
#include "pplab/device_buffer.h"
#include "pplab/fresh_inputs.h"
#include "work_efficient_scan.cuh"

namespace {

using pplab::lab06::Algorithm;

template <class T>
void bench_type(std::size_t n, const std::string& type, const pplab::BenchOptions& options) {
  // Small whole numbers: every int prefix of 2^28 elements fits, and float prefixes are
  // exact up to 2^24 and then round, in a different order for each implementation.
  // Drawn afresh before every run, so no answer kept from an earlier call is right for
  // the next one.
  auto in = std::make_shared<pplab::FreshInput<T>>(n, pplab::Spread::whole_numbers(0, 3));
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
  const bool single_pass = pplab::lab06::single_pass_available();
  if (single_pass) rows.push_back({false, Algorithm::single_pass});
  rows.push_back({false, Algorithm::tiles});
  rows.push_back({true, single_pass ? Algorithm::single_pass : Algorithm::tiles});

  for (const Row& row : rows) {
    const bool inclusive = row.inclusive;
    const Algorithm algorithm = row.algorithm;
    const std::string variant = std::string(inclusive ? "inclusive " : "exclusive ") + type +
                                (algorithm == Algorithm::single_pass ? " single pass" : " tiles");
    pplab::BenchCase spec = pplab::bench_case(pplab::bench_impl(), variant, n, 2.0 * 4.0 * double(n));  // in, out
    spec.prepare = [=] { in->next(); };
    spec.run = [=](cudaStream_t stream) {
      if (inclusive)
        pplab::lab06::inclusive_scan(in->data(), d_out->data(), n, algorithm, pplab::lab06::kBlockThreads, stream);
      else
        pplab::lab06::exclusive_scan(in->data(), d_out->data(), n, algorithm, pplab::lab06::kBlockThreads, stream);
    };
    // Checked at positions drawn after the run, only those brought back (pplab/fresh_inputs.h).
    spec.verify = [=] {
      const auto positions = pplab::sample_positions(n);
      return pplab::matches_at("work efficient scan after timing", positions,
                               pplab::download_at(d_out->data(), positions),
                               pplab::cpu::scan_at(in->host(), positions, inclusive), tolerance);
    };
    d_out->poison();  // once, untimed: an output the scan never writes fails verify
    pplab::measure(spec, options);
  }
}

void work_efficient_scan_cases(const pplab::BenchOptions& options, std::size_t n) {
  bench_type<int>(n, "int", options);
  bench_type<float>(n, "float", options);
}

}  // namespace

pplab::BenchLab pplab::bench_lab() { return {{16, 20, 24, 28}, 0, work_efficient_scan_cases}; }
