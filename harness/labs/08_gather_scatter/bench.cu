// Lab 08 benchmark (GPU): gather, scatter and the inverse permutation through a random
// permutation, beside thrust::gather and thrust::scatter on the same arrays, and the
// device copy.
//   build/gpu-solutions/bin/lab08_gather_scatter_ref_bench [--sizes=16,20,24,28]
// Bytes moved per element: gather and scatter 12 (map read, data read, data written),
// the inverse permutation 8 (perm read, inv written). Through a random map each 4-byte
// access touches its own 32-byte sector, so the DRAM moves more than this model counts:
// compare against Thrust, not against the copy.
// The reference rows time the _unchecked forms, as Thrust does no index check; the rows
// marked "checked" add the index check (one more read of the map and a round trip to
// the host).
#include <thrust/execution_policy.h>
#include <thrust/gather.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scatter.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>

#include "gather_scatter.cuh"
#include "pplab/bench.h"
#include "pplab/check.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"

namespace {

using Index = std::uint32_t;
using Ints = pplab::DeviceBuffer<int>;
using Indices = pplab::DeviceBuffer<Index>;

template <class T>
std::function<bool()> verifier(const char* what, std::shared_ptr<pplab::DeviceBuffer<T>> d_out,
                               std::shared_ptr<const std::vector<T>> expected) {
  return [=] { return pplab::compare_arrays({what, expected->size()}, *expected, d_out->download()).passed; };
}

}  // namespace

int main(int argc, char** argv) try {
  const auto options = pplab::bench_options(argc, argv, {16, 20, 24, 28});
  const std::string impl = std::string(PPLAB_TREE) == "solutions" ? "reference" : "student";
  const auto nosync = thrust::cuda::par_nosync;
  for (std::size_t n : options.sizes) {
    const auto in = pplab::random_values<int>(n, -1000000, 1000000, 1);
    std::vector<Index> perm(n);
    std::iota(perm.begin(), perm.end(), Index(0));
    auto rng = pplab::make_rng(2);
    std::shuffle(perm.begin(), perm.end(), rng);

    auto gathered = std::make_shared<std::vector<int>>(n);
    auto scattered = std::make_shared<std::vector<int>>(n);
    auto inverse = std::make_shared<std::vector<Index>>(n);
    for (std::size_t i = 0; i < n; ++i) {
      (*gathered)[i] = in[perm[i]];
      (*scattered)[perm[i]] = in[i];
      (*inverse)[perm[i]] = Index(i);
    }
    auto d_in = std::make_shared<Ints>(in);
    auto d_out = std::make_shared<Ints>(n);
    auto d_perm = std::make_shared<Indices>(perm);
    auto d_inv = std::make_shared<Indices>(n);
    const Index* map = d_perm->data();

    // One table row per (implementation, operation); `run` is the timed call.
    auto row = [&](const std::string& who, const std::string& variant, double bytes_per_item,
                   std::function<void(cudaStream_t)> run, std::function<bool()> verify) {
      pplab::BenchCase spec;
      spec.lab = PPLAB_LAB;
      spec.impl = who;
      spec.variant = variant;
      spec.n = n;
      spec.bytes_moved = bytes_per_item * double(n);
      spec.run = std::move(run);
      spec.verify = std::move(verify);
      pplab::measure(spec, options);
    };
    const auto check_gathered = verifier<int>("gather after timing", d_out, gathered);
    const auto check_scattered = verifier<int>("scatter after timing", d_out, scattered);
    const auto check_inverse = verifier<Index>("inverse permutation after timing", d_inv, inverse);

    row(impl, "gather", 12, [=](cudaStream_t s) {
      pplab::lab08::gather_unchecked(d_in->data(), map, d_out->data(), n, s);
    }, check_gathered);
    row(impl, "scatter", 12, [=](cudaStream_t s) {
      pplab::lab08::scatter_unchecked(d_in->data(), map, d_out->data(), n, s);
    }, check_scattered);
    row(impl, "inverse permutation", 8, [=](cudaStream_t s) {
      pplab::lab08::inverse_permutation_unchecked(map, d_inv->data(), n, s);
    }, check_inverse);
    row(impl, "gather checked", 12, [=](cudaStream_t s) {
      pplab::lab08::gather(d_in->data(), n, map, d_out->data(), n, s);
    }, check_gathered);
    row(impl, "scatter checked", 12, [=](cudaStream_t s) {
      pplab::lab08::scatter(d_in->data(), map, d_out->data(), n, n, s);
    }, check_scattered);
    if (!options.compare) continue;

    row("thrust", "gather", 12, [=](cudaStream_t s) {
      thrust::gather(nosync.on(s), map, map + n, d_in->data(), d_out->data());
    }, check_gathered);
    row("thrust", "scatter", 12, [=](cudaStream_t s) {
      thrust::scatter(nosync.on(s), d_in->data(), d_in->data() + n, map, d_out->data());
    }, check_scattered);
    row("thrust", "inverse permutation", 8, [=](cudaStream_t s) {
      thrust::scatter(nosync.on(s), thrust::counting_iterator<Index>(0), thrust::counting_iterator<Index>(Index(n)),
                      map, d_inv->data());
    }, check_inverse);
    pplab::measure_copy(PPLAB_LAB, n, 4, options);
  }
  return 0;
} catch (const std::exception& error) {
  std::fprintf(stderr, "error: %s\n", error.what());
  return 1;
}
