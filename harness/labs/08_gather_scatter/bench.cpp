// Lab 08 benchmark: gather, scatter and the inverse permutation through a random
// permutation. thrust::gather and thrust::scatter on the same arrays and the device copy
// are in bench_library.cu.
//   build/gpu-solutions/bin/lab08_gather_scatter_ref_bench [--sizes=16,20,24,28]
// Bytes moved per element: gather and scatter 12 (map read, data read, data written),
// the inverse permutation 8 (perm read, inv written). Through a random map each 4-byte
// access touches its own 32-byte sector, so the DRAM moves more than this model counts:
// compare against Thrust, not against the copy.
// The first rows time the _unchecked forms, as Thrust does no index check; the rows
// marked "checked" add the index check (one more read of the map and a round trip to
// the host).
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gather_scatter.cuh"
#include "gather_scatter_inputs.h"
#include "pplab/bench_main.h"
#include "pplab/check.h"
#include "pplab/device_buffer.h"
#include "pplab/fresh_inputs.h"

namespace {

using pplab::lab08::bench::Index;

void gather_scatter_cases(const pplab::BenchOptions& options, std::size_t n) {
  // Values and the permutation are drawn afresh before every run, so no answer kept from
  // an earlier call is right for the next one.
  auto in = std::make_shared<pplab::FreshInput<int>>(n, pplab::Spread::uniform(-1000000, 1000000));
  auto perm = std::make_shared<pplab::FreshInput<Index>>(n, pplab::Spread::permutation());
  auto d_out = std::make_shared<pplab::DeviceBuffer<int>>(n);
  auto d_inv = std::make_shared<pplab::DeviceBuffer<Index>>(n);

  // One table row per operation; `run` is the timed call.
  auto row = [&](const std::string& variant, double bytes_per_item, std::function<void(cudaStream_t)> run,
                 std::function<bool()> verify) {
    pplab::BenchCase spec = pplab::bench_case(pplab::bench_impl(), variant, n, bytes_per_item * double(n));
    spec.prepare = [=] {
      in->next();
      perm->next();
    };
    spec.run = std::move(run);
    spec.verify = std::move(verify);
    pplab::measure(spec, options);
  };
  // Each check looks at positions drawn after the run (pplab/fresh_inputs.h): the draws'
  // values there are computed one by one, never the whole permutation. Scatter and the
  // inverse are checked where sampled elements land: out[perm[i]] for a sampled i.
  const auto check_gathered = [=] {
    return pplab::matches_at("gather after timing", pplab::sample_positions(n), d_out->download(),
                             [&](std::size_t i) { return in->at(std::size_t(perm->at(i))); });
  };
  const auto check_scattered = [=] {
    const auto got = d_out->download();
    for (std::size_t i : pplab::sample_positions(n))
      if (got[perm->at(i)] != in->at(i)) {
        std::fprintf(stderr, "scatter after timing: element %zu went to %zu wrongly\n", i, std::size_t(perm->at(i)));
        return false;
      }
    return true;
  };
  const auto check_inverse = [=] {
    const auto got = d_inv->download();
    for (std::size_t i : pplab::sample_positions(n))
      if (got[perm->at(i)] != Index(i)) {
        std::fprintf(stderr, "inverse permutation after timing: inv[perm[%zu]] is not %zu\n", i, i);
        return false;
      }
    return true;
  };

  row("gather", 12,
      [=](cudaStream_t s) { pplab::lab08::gather_unchecked(in->data(), perm->data(), d_out->data(), n, s); },
      check_gathered);
  row("scatter", 12,
      [=](cudaStream_t s) { pplab::lab08::scatter_unchecked(in->data(), perm->data(), d_out->data(), n, s); },
      check_scattered);
  row("inverse permutation", 8,
      [=](cudaStream_t s) { pplab::lab08::inverse_permutation_unchecked(perm->data(), d_inv->data(), n, s); },
      check_inverse);
  row("gather checked", 12,
      [=](cudaStream_t s) { pplab::lab08::gather(in->data(), n, perm->data(), d_out->data(), n, s); },
      check_gathered);
  row("scatter checked", 12,
      [=](cudaStream_t s) { pplab::lab08::scatter(in->data(), perm->data(), d_out->data(), n, n, s); },
      check_scattered);
}

}  // namespace

pplab::BenchLab pplab::bench_lab() { return {{16, 20, 24, 28}, 0, gather_scatter_cases}; }
