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
  // Each check looks at positions drawn after the run (pplab/fresh_inputs.h) and brings
  // back only those; the draws' values there are computed one by one, never the whole
  // permutation. Scatter and the inverse are checked where sampled elements land,
  // out[perm[i]] for a sampled i.
  const auto check_gathered = [=] {
    const auto positions = pplab::sample_positions(n);
    std::vector<int> expected;
    for (std::size_t i : positions) expected.push_back(in->at(std::size_t(perm->at(i))));
    return pplab::matches_at("gather after timing", positions, pplab::download_at(d_out->data(), positions), expected);
  };
  // The positions where the sampled elements i land, and what each i puts there.
  const auto landing = [=](const std::vector<std::size_t>& sampled) {
    std::vector<std::size_t> positions;
    for (std::size_t i : sampled) positions.push_back(std::size_t(perm->at(i)));
    return positions;
  };
  const auto check_scattered = [=] {
    const auto sampled = pplab::sample_positions(n);
    const auto positions = landing(sampled);
    std::vector<int> expected;
    for (std::size_t i : sampled) expected.push_back(in->at(i));
    return pplab::matches_at("scatter after timing", positions, pplab::download_at(d_out->data(), positions), expected);
  };
  const auto check_inverse = [=] {
    const auto sampled = pplab::sample_positions(n);
    const auto positions = landing(sampled);
    const std::vector<Index> expected(sampled.begin(), sampled.end());
    return pplab::matches_at("inverse permutation after timing", positions,
                             pplab::download_at(d_inv->data(), positions), expected);
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
