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
    const std::string variant = (inclusive ? "DeviceScan::InclusiveSum " : "DeviceScan::ExclusiveSum ") + type;
    auto scan = [=](void* temp, std::size_t& bytes, cudaStream_t stream) {
      const T* in = d_in->data();
      T* out = d_out->data();
      return inclusive ? cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n, stream)
                       : cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n, stream);
    };
    pplab::measure(pplab::cub_case(variant, n, 2.0 * 4.0 * double(n), scan), options);
  }
}

}  // namespace

void pplab::bench_library_cases(const BenchOptions& options, std::size_t n) {
  cub_scans<int>(options, n, "int");
  cub_scans<float>(options, n, "float");
  measure_copy(PPLAB_LAB, n, 4, options);
}
