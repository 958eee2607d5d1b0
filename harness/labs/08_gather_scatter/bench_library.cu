// Lab 08's library rows, beside the reference only: thrust::gather and thrust::scatter
// through the lab's permutation, and the device copy.
#include <thrust/execution_policy.h>
#include <thrust/gather.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scatter.h>

#include <functional>
#include <memory>
#include <string>

#include "gather_scatter_inputs.h"
#include "pplab/bench_main.h"
#include "pplab/device_buffer.h"

void pplab::bench_library_cases(const BenchOptions& options, std::size_t n) {
  using Index = lab08::bench::Index;
  const lab08::bench::Inputs inputs(n);
  auto d_in = std::make_shared<DeviceBuffer<int>>(inputs.in);
  auto d_out = std::make_shared<DeviceBuffer<int>>(n);
  auto d_perm = std::make_shared<DeviceBuffer<Index>>(inputs.perm);
  auto d_inv = std::make_shared<DeviceBuffer<Index>>(n);
  const Index* map = d_perm->data();
  const auto nosync = thrust::cuda::par_nosync;
  auto row = [&](const std::string& variant, double bytes_per_item, std::function<void(cudaStream_t)> run) {
    BenchCase spec = bench_case("thrust", variant, n, bytes_per_item * double(n));
    spec.run = std::move(run);
    measure(spec, options);
  };
  row("gather", 12, [=](cudaStream_t s) { thrust::gather(nosync.on(s), map, map + n, d_in->data(), d_out->data()); });
  row("scatter", 12,
      [=](cudaStream_t s) { thrust::scatter(nosync.on(s), d_in->data(), d_in->data() + n, map, d_out->data()); });
  row("inverse permutation", 8, [=](cudaStream_t s) {
    thrust::scatter(nosync.on(s), thrust::counting_iterator<Index>(0), thrust::counting_iterator<Index>(Index(n)),
                    map, d_inv->data());
  });
  measure_copy(PPLAB_LAB, n, 4, options);
}
