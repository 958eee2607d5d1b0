/// \file
/// \brief GPU timing: CUDA events, warm-up, median of repeats, L2 flushed between
/// repeats, effective bandwidth from a bytes-moved model, and % of the device's
/// copy bandwidth measured in the same process.
///
/// Each measurement is printed as one JSON line on stdout (read by `pplab bench`)
/// and as a human-readable line on stderr.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace pplab {

/// One thing to time at one size.
struct BenchCase {
  std::string lab;          ///< "01_saxpy"
  std::string impl;         ///< "student", "reference", "cub", "copy", ...
  std::string variant;      ///< e.g. "float sum"; empty when the lab has one
  std::size_t n = 0;        ///< items
  double bytes_moved = 0;   ///< global-memory bytes the ideal kernel reads + writes
  std::function<void()> prepare;             ///< fresh inputs before each timed repeat (untimed)
  std::function<void(cudaStream_t)> run;     ///< the timed work
  std::function<bool()> verify;              ///< re-checks the result after timing
};

/// The outcome of timing one BenchCase.
struct Measurement {
  BenchCase spec;
  int repeats = 0;
  double median_ms = 0, min_ms = 0, max_ms = 0;
  double gbps = 0;              ///< bytes_moved / median time
  double items_per_s = 0;       ///< n / median time
  double percent_of_copy = 0;   ///< gbps / device copy bandwidth * 100
  bool verified = false;        ///< verify() held after the timed runs
};

/// Options shared by every benchmark binary, parsed from argv by bench_options().
struct BenchOptions {
  std::vector<std::size_t> sizes;  ///< --sizes=16,20,24,28 (log2) or --n=\<items\>
  int repeats = 20;                ///< --repeats
  int warmup = 3;                  ///< --warmup
  bool compare = true;             ///< --no-compare skips CUB/Thrust and the copy
};

/// Parses --sizes=, --n=, --repeats=, --warmup=, --no-compare; defaults to `default_log2_sizes`.
BenchOptions bench_options(int argc, char** argv, std::vector<int> default_log2_sizes);

/// Times `spec` and prints the result (JSON line on stdout, summary on stderr).
Measurement measure(const BenchCase& spec, const BenchOptions& options);

/// Device-to-device cudaMemcpy bandwidth (bytes read + written per second, in GB/s),
/// measured once per process on a buffer larger than the L2 cache.
double device_copy_gbps();

/// Times a device-to-device copy of n items of `item_bytes` as a BenchCase row ("copy").
Measurement measure_copy(const std::string& lab, std::size_t n, std::size_t item_bytes,
                         const BenchOptions& options);

/// Fills a scratch buffer larger than the L2 cache so the next kernel starts cold.
void flush_l2(cudaStream_t stream = 0);

}  // namespace pplab
