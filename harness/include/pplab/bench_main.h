/// \file
/// \brief What a lab's benchmark file declares; main() is the harness's (bench_main.cpp).
///
/// A lab's benchmark, harness/labs/NN_name/bench.cpp, defines bench_lab(): its default
/// sizes and a function that measures its own cases at one size, with expected values
/// computed once on the CPU. The library rows (CUB, Thrust, the device copy) live in
/// bench_library.cu beside it and are linked only into the reference's in-process
/// benchmark. The same bench.cpp is built three ways:
///   labNN_name_bench            the student's code, timed by the checker through the runner
///   labNN_name_ref_bench        the reference in process, with the library rows
///   labNN_name_ref_bench_split  the reference timed by the checker through its runner
/// (the last two side by side give the runner's overhead: harness/timing_overhead.sh).
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pplab/bench.h"
#include "pplab/device_buffer.h"

namespace pplab {

/// One lab's benchmark.
struct BenchLab {
  std::vector<int> default_log2_sizes{16, 20, 24, 28};  ///< sizes timed without --sizes
  int max_repeats = 0;  ///< 0: as many as asked (a quadratic sort caps them)
  /// Measures the lab's own cases at size n (pplab::measure once per case).
  void (*cases)(const BenchOptions& options, std::size_t n) = nullptr;
};

/// Defined by the lab's bench.cpp.
BenchLab bench_lab();

/// Defined by the lab's bench_library.cu: the library rows at size n (reference only).
void bench_library_cases(const BenchOptions& options, std::size_t n);

/// "student" or "reference": whose code this program times (the build's tree).
const std::string& bench_impl();

/// A row of this lab's benchmark at size n: whose code it times (bench_impl(), or a
/// library: "cub", "thrust"), the variant, and the bytes the ideal kernel moves. The
/// caller adds run (and verify, prepare).
BenchCase bench_case(std::string impl, std::string variant, std::size_t n, double bytes_moved);

/// A library row timing one CUB device-wide call, `call(temp, temp_bytes, stream)`:
/// called once here with no scratch, as CUB asks, to size the scratch, which is then
/// allocated once; every timed run passes it.
template <class Call>
BenchCase cub_case(std::string variant, std::size_t n, double bytes_moved, Call call) {
  std::size_t temp_bytes = 0;
  call(nullptr, temp_bytes, cudaStream_t(0));
  auto d_temp = std::make_shared<DeviceBuffer<unsigned char>>(temp_bytes);
  BenchCase spec = bench_case("cub", std::move(variant), n, bytes_moved);
  spec.run = [=](cudaStream_t stream) {
    std::size_t bytes = d_temp->bytes();
    call(d_temp->data(), bytes, stream);
  };
  return spec;
}

}  // namespace pplab
