/// \file
/// \brief Timing: warm-up, median of repeats, L2 flushed between repeats, effective
/// bandwidth from a bytes-moved model, and % of the device's copy bandwidth measured
/// in the same process.
///
/// measure() has two implementations, and the program links one of them:
/// - in process (bench_in_process.cpp): the timed code runs in the timer's own process
///   and CUDA events time it. Only the reference's benchmark is built so, beside the
///   library rows (CUB, Thrust, the device copy), since it holds no student code.
/// - by the checker (harness/remote/bench_checker.cpp): the timer is a trusted program like a lab's
///   checker, and the lab's code runs in its runner (harness/remote). The timer believes
///   nothing the runner reports: it times each run on its own steady clock around the
///   run request and a device synchronise, less a calibrated empty request, and checks
///   the output of the repeats it picks after each run has returned.
///
/// Each measurement is printed as one JSON line on stdout (read by `pplab bench`), sent
/// on the result channel (read by `pplab grade`), and printed readably on stderr.
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
  /// Checks the output of the run just finished against values computed once on the
  /// CPU. A lab's own case must have one: the checker's timer calls it after the repeats
  /// it picks. Library rows may leave it empty (nothing to verify).
  std::function<bool()> verify;
};

/// The outcome of timing one BenchCase.
struct Measurement {
  BenchCase spec;
  int repeats = 0;
  double median_ms = 0, min_ms = 0, max_ms = 0;
  double gbps = 0;              ///< bytes_moved / median time
  double items_per_s = 0;       ///< n / median time
  double percent_of_copy = 0;   ///< gbps / device copy bandwidth * 100
  bool verified = false;        ///< every verified repeat's output was right
  int verified_repeats = 0;     ///< how many timed repeats had their output checked
  /// Half the width of the median's 95% interval (distribution-free: the order statistics
  /// n/2 -+ 0.98 sqrt(n)), in % of the median: how far another run's median may fall.
  double spread_percent = 0;
  double untimed_ms = 0;        ///< in process: work the events missed (another stream)
  std::string timed_by;         ///< "in-process" or "checker"
  /// The checker's timer only: how long the case held the device, all told (warm-ups,
  /// prepares, flushes, repeats, checks), and how much of it went to the checks.
  double case_wall_ms = 0, check_wall_ms = 0;
  /// The checker's timer only: each timed repeat in the order it ran, and whether a
  /// checked repeat (a download and a comparison, the device idle) came just before it.
  /// They show whether a pause before a repeat costs it time.
  std::vector<double> repeat_ms;
  std::vector<bool> after_check;
  /// The checker's timer only: after the repeats, three new inputs each asked twice in a
  /// row; the fastest second asking (same_input_ms), the fastest run on a new input
  /// (new_input_ms, the timed repeats included), and whether the first was under half the
  /// second and at least 0.1 ms less: an answer kept from an earlier call.
  double same_input_ms = 0;
  double new_input_ms = 0;
  bool from_memory = false;
};

/// Options shared by every benchmark binary, parsed from argv by bench_options().
struct BenchOptions {
  std::vector<std::size_t> sizes;  ///< --sizes=16,20,24,28 (log2) or --n=\<items\>
  int repeats = 20;                ///< --repeats
  int warmup = 3;                  ///< --warmup
  bool compare = true;             ///< --no-compare skips CUB/Thrust and the copy
  /// --verify-all: the checker's timer checks every timed repeat, not a random half
  /// (plus the last); costs one download and comparison per repeat.
  bool verify_all = false;
  /// --spread=P: the checker's timer goes on past `repeats` until spread_percent is at
  /// most P (0: never), up to --max-repeats (default 4 x repeats) and 0.3 s of a case's
  /// repeats, so that a grade's speed comes from a median whose noise is known and small.
  double spread_target_percent = 0;
  int max_repeats = 0;
  /// --variant=NAME, once per variant: time these variants only (the rows a grade
  /// compares), the rest are left out; empty: every variant.
  std::vector<std::string> variants;
};

/// Parses --sizes=, --n=, --repeats=, --warmup=, --no-compare, --verify-all, --spread=,
/// --max-repeats=, --variant=; defaults to
/// `default_log2_sizes`.
BenchOptions bench_options(int argc, char** argv, std::vector<int> default_log2_sizes);

/// Times `spec` and prints the result (JSON line on stdout, summary on stderr); a variant
/// left out by options.variants is not timed (a Measurement of no repeats).
Measurement measure(const BenchCase& spec, const BenchOptions& options);

/// Device-to-device copy bandwidth (bytes read + written per second, in GB/s), measured
/// once per process on a buffer larger than the L2 cache.
double device_copy_gbps();

/// Times a device-to-device copy of n items of `item_bytes` as a BenchCase row ("copy").
/// In-process benchmarks only (a library row).
Measurement measure_copy(const std::string& lab, std::size_t n, std::size_t item_bytes,
                         const BenchOptions& options);

/// Fills a scratch buffer larger than the L2 cache so the next kernel starts cold.
void flush_l2(cudaStream_t stream = 0);

}  // namespace pplab
