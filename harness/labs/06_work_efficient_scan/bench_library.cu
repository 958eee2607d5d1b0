// Lab 06's library rows, beside the reference only: CUB's DeviceScan::ExclusiveSum and
// InclusiveSum on the lab's inputs (int and float), and the device copy.
#include <cub/device/device_scan.cuh>

#include <memory>
#include <string>
#include <vector>

#include "pplab/bench_main.h"
#include "pplab/device_buffer.h"
#include "pplab/inputs.h"

namespace {

template <class T>
void cub_scans(const pplab::BenchOptions& options, std::size_t n, const std::string& type) {
  const auto ints = pplab::random_values<int>(n, 0, 3, 1);
  auto d_in = std::make_shared<pplab::DeviceBuffer<T>>(std::vector<T>(ints.begin(), ints.end()));
  auto d_out = std::make_shared<pplab::DeviceBuffer<T>>(n);
  for (bool inclusive : {false, true}) {
    std::size_t temp_bytes = 0;
    if (inclusive) cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, d_in->data(), d_out->data(), n);
    else cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, d_in->data(), d_out->data(), n);
    auto d_temp = std::make_shared<pplab::DeviceBuffer<unsigned char>>(temp_bytes);
    pplab::BenchCase spec;
    spec.lab = PPLAB_LAB;
    spec.impl = "cub";
    spec.variant = std::string(inclusive ? "DeviceScan::InclusiveSum " : "DeviceScan::ExclusiveSum ") + type;
    spec.n = n;
    spec.bytes_moved = 2.0 * 4.0 * double(n);
    spec.run = [=](cudaStream_t stream) {
      std::size_t bytes = d_temp->bytes();
      if (inclusive) cub::DeviceScan::InclusiveSum(d_temp->data(), bytes, d_in->data(), d_out->data(), n, stream);
      else cub::DeviceScan::ExclusiveSum(d_temp->data(), bytes, d_in->data(), d_out->data(), n, stream);
    };
    pplab::measure(spec, options);
  }
}

}  // namespace

void pplab::bench_library_cases(const BenchOptions& options, std::size_t n) {
  cub_scans<int>(options, n, "int");
  cub_scans<float>(options, n, "float");
  measure_copy(PPLAB_LAB, n, 4, options);
}
