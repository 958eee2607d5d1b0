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

namespace {

using pplab::lab08::bench::Index;

template <class T>
std::function<bool()> verifier(const char* what, std::shared_ptr<pplab::DeviceBuffer<T>> d_out,
                               std::shared_ptr<const std::vector<T>> expected) {
  return [=] { return pplab::compare_arrays({what, expected->size()}, *expected, d_out->download()).passed; };
}

void gather_scatter_cases(const pplab::BenchOptions& options, std::size_t n) {
  const pplab::lab08::bench::Inputs inputs(n);
  auto gathered = std::make_shared<std::vector<int>>(n);
  auto scattered = std::make_shared<std::vector<int>>(n);
  auto inverse = std::make_shared<std::vector<Index>>(n);
  for (std::size_t i = 0; i < n; ++i) {
    (*gathered)[i] = inputs.in[inputs.perm[i]];
    (*scattered)[inputs.perm[i]] = inputs.in[i];
    (*inverse)[inputs.perm[i]] = Index(i);
  }
  auto d_in = std::make_shared<pplab::DeviceBuffer<int>>(inputs.in);
  auto d_out = std::make_shared<pplab::DeviceBuffer<int>>(n);
  auto d_perm = std::make_shared<pplab::DeviceBuffer<Index>>(inputs.perm);
  auto d_inv = std::make_shared<pplab::DeviceBuffer<Index>>(n);
  const Index* map = d_perm->data();

  // One table row per operation; `run` is the timed call.
  auto row = [&](const std::string& variant, double bytes_per_item, std::function<void(cudaStream_t)> run,
                 std::function<bool()> verify) {
    pplab::BenchCase spec = pplab::bench_case(pplab::bench_impl(), variant, n, bytes_per_item * double(n));
    spec.run = std::move(run);
    spec.verify = std::move(verify);
    pplab::measure(spec, options);
  };
  const auto check_gathered = verifier<int>("gather after timing", d_out, gathered);
  const auto check_scattered = verifier<int>("scatter after timing", d_out, scattered);
  const auto check_inverse = verifier<Index>("inverse permutation after timing", d_inv, inverse);

  row("gather", 12, [=](cudaStream_t s) { pplab::lab08::gather_unchecked(d_in->data(), map, d_out->data(), n, s); },
      check_gathered);
  row("scatter", 12, [=](cudaStream_t s) { pplab::lab08::scatter_unchecked(d_in->data(), map, d_out->data(), n, s); },
      check_scattered);
  row("inverse permutation", 8,
      [=](cudaStream_t s) { pplab::lab08::inverse_permutation_unchecked(map, d_inv->data(), n, s); }, check_inverse);
  row("gather checked", 12, [=](cudaStream_t s) { pplab::lab08::gather(d_in->data(), n, map, d_out->data(), n, s); },
      check_gathered);
  row("scatter checked", 12,
      [=](cudaStream_t s) { pplab::lab08::scatter(d_in->data(), map, d_out->data(), n, n, s); }, check_scattered);
}

}  // namespace

pplab::BenchLab pplab::bench_lab() { return {{16, 20, 24, 28}, 0, gather_scatter_cases}; }
