// Lab 07 benchmark (GPU): compaction keeping about half of random ints, beside CUB's
// DeviceSelect::If with the same predicate on the same input, and the device copy.
//   build/gpu-solutions/bin/lab07_compact_ref_bench [--sizes=16,20,24,28]
// Bytes moved: n * 4 read + k * 4 written for k kept (the flag and position arrays of
// the three-kernel path are not counted: they are what the single pass saves).
#include <cub/device/device_select.cuh>

#include <memory>

#include "compact.cuh"
#include "pplab/bench.h"
#include "pplab/check.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"

namespace {

struct GreaterThan {
  int threshold;
  __host__ __device__ bool operator()(const int& x) const { return x > threshold; }
};

}  // namespace

int main(int argc, char** argv) try {
  using pplab::lab07::CompactPath;
  const auto options = pplab::bench_options(argc, argv, {16, 20, 24, 28});
  const std::string impl = std::string(PPLAB_TREE) == "solutions" ? "reference" : "student";
  const int threshold = 49;  // values 0..99: about half are kept
  for (std::size_t n : options.sizes) {
    const auto in = pplab::random_values<int>(n, 0, 99, 1);
    std::vector<int> expected;
    expected.reserve(n / 2 + n / 8);
    for (int v : in)
      if (v > threshold) expected.push_back(v);
    const std::size_t k = expected.size();

    auto d_in = std::make_shared<pplab::DeviceBuffer<int>>(in);
    auto d_out = std::make_shared<pplab::DeviceBuffer<int>>(n);
    auto d_count = std::make_shared<pplab::DeviceBuffer<unsigned>>(1);
    const std::size_t temp_bytes = pplab::lab07::compact_temp_bytes(n);
    auto d_temp = std::make_shared<pplab::DeviceBuffer<unsigned char>>(temp_bytes);
    auto verify = [=] {
      const unsigned count = d_count->download()[0];
      if (count != k) {
        std::fprintf(stderr, "compact: count %u, expected %zu\n", count, k);
        return false;
      }
      auto out = d_out->download();
      out.resize(k);
      return pplab::compare_arrays({"compact after timing", n}, expected, out).passed;
    };

    for (CompactPath path : {CompactPath::single_pass, CompactPath::three_kernels}) {
      d_out->poison();
      const CompactPath taken = pplab::lab07::compact_async(d_in->data(), d_out->data(), d_count->data(), n,
                                                            threshold, d_temp->data(), temp_bytes, path);
      if (path == CompactPath::single_pass && taken != path) continue;  // stretch not written: same as below
      pplab::BenchCase spec;
      spec.lab = PPLAB_LAB;
      spec.impl = impl;
      spec.variant = path == CompactPath::single_pass ? "int keep half" : "int keep half, three kernels";
      spec.n = n;
      spec.bytes_moved = 4.0 * double(n) + 4.0 * double(k);
      spec.run = [=](cudaStream_t stream) {
        pplab::lab07::compact_async(d_in->data(), d_out->data(), d_count->data(), n, threshold, d_temp->data(),
                                    temp_bytes, path, stream);
      };
      spec.verify = verify;
      pplab::measure(spec, options);
    }
    if (!options.compare) continue;

    auto d_selected = std::make_shared<pplab::DeviceBuffer<int>>(1);
    std::size_t cub_temp_bytes = 0;
    cub::DeviceSelect::If(nullptr, cub_temp_bytes, d_in->data(), d_out->data(), d_selected->data(),
                          static_cast<int>(n), GreaterThan{threshold});
    auto d_cub_temp = std::make_shared<pplab::DeviceBuffer<unsigned char>>(cub_temp_bytes);
    pplab::BenchCase cub_spec;
    cub_spec.lab = PPLAB_LAB;
    cub_spec.impl = "cub";
    cub_spec.variant = "int keep half";
    cub_spec.n = n;
    cub_spec.bytes_moved = 4.0 * double(n) + 4.0 * double(k);
    cub_spec.run = [=](cudaStream_t stream) {
      std::size_t bytes = d_cub_temp->bytes();
      cub::DeviceSelect::If(d_cub_temp->data(), bytes, d_in->data(), d_out->data(), d_selected->data(),
                            static_cast<int>(n), GreaterThan{threshold}, stream);
    };
    cub_spec.verify = [=] { return std::size_t(d_selected->download()[0]) == k; };
    pplab::measure(cub_spec, options);
    pplab::measure_copy(PPLAB_LAB, n, 4, options);
  }
  return 0;
} catch (const std::exception& error) {
  std::fprintf(stderr, "error: %s\n", error.what());
  return 1;
}
