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
#include <string>
#include <vector>

#include "pplab/bench.h"

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

}  // namespace pplab
