// Lab 07 benchmark: compaction keeping about half of random ints, by the single pass
// (when written) and by three kernels. CUB's DeviceSelect::If with the same predicate and
// the device copy are in bench_library.cu.
//   build/gpu-solutions/bin/lab07_compact_ref_bench [--sizes=16,20,24,28]
// Bytes moved: n * 4 read + k * 4 written for k kept (the flag and position arrays of
// the three-kernel path are not counted: they are what the single pass saves).
#include <cstdio>
#include <memory>
#include <vector>

#include "compact.cuh"
#include "pplab/bench_main.h"
#include "pplab/check.h"
#include "pplab/device_buffer.h"
#include "pplab/fresh_inputs.h"

namespace {

constexpr int kThreshold = 49;  // values 0..99: about half are kept

void compact_cases(const pplab::BenchOptions& options, std::size_t n) {
  using pplab::lab07::CompactPath;
  // Drawn afresh before every run, so no answer kept from an earlier call is right for
  // the next one.
  auto in = std::make_shared<pplab::FreshInput<int>>(n, pplab::Spread::uniform(0, 99));
  auto d_out = std::make_shared<pplab::DeviceBuffer<int>>(n);
  auto d_count = std::make_shared<pplab::DeviceBuffer<unsigned>>(1);
  const std::size_t temp_bytes = pplab::lab07::compact_temp_bytes(n);
  auto d_temp = std::make_shared<pplab::DeviceBuffer<unsigned char>>(temp_bytes);
  // The count, then the kept values at positions drawn after the run (pplab/fresh_inputs.h),
  // only those brought back: one pass over the draw finds the value kept at each.
  auto verify = [=] {
    const auto& values = in->host();
    std::size_t k = 0;
    for (int v : values) k += v > kThreshold;
    const unsigned count = d_count->download()[0];
    if (count != k) {
      std::fprintf(stderr, "compact: count %u, expected %zu\n", count, k);
      return false;
    }
    const auto positions = pplab::sample_positions(k);
    std::vector<int> expected;
    expected.reserve(positions.size());
    std::size_t kept = 0, next = 0;
    for (std::size_t i = 0; i < values.size() && next < positions.size(); ++i) {
      if (values[i] <= kThreshold) continue;
      for (; next < positions.size() && positions[next] == kept; ++next) expected.push_back(values[i]);
      ++kept;
    }
    return pplab::matches_at("compact after timing", positions, pplab::download_at(d_out->data(), positions),
                             expected);
  };

  for (CompactPath path : {CompactPath::single_pass, CompactPath::three_kernels}) {
    d_out->poison();
    const CompactPath taken = pplab::lab07::compact_async(in->data(), d_out->data(), d_count->data(), n,
                                                          kThreshold, d_temp->data(), temp_bytes, path);
    if (path == CompactPath::single_pass && taken != path) continue;  // stretch not written: same as below
    const char* variant = path == CompactPath::single_pass ? "int keep half" : "int keep half, three kernels";
    // Bytes moved: the input, and the half of it kept (values 50..99 of 0..99).
    pplab::BenchCase spec = pplab::bench_case(pplab::bench_impl(), variant, n, 4.0 * double(n) + 2.0 * double(n));
    spec.prepare = [=] { in->next(); };
    spec.run = [=](cudaStream_t stream) {
      pplab::lab07::compact_async(in->data(), d_out->data(), d_count->data(), n, kThreshold, d_temp->data(),
                                  temp_bytes, path, stream);
    };
    spec.verify = verify;
    d_out->poison();  // the trial call above wrote the answer: start again from nothing
    pplab::measure(spec, options);
  }
}

}  // namespace

pplab::BenchLab pplab::bench_lab() { return {{16, 20, 24, 28}, 0, compact_cases}; }
