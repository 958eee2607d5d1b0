// What both timers share (bench.cpp): the L2 scrub buffer, the summary of a
// measurement's times, the one place a measurement is written out, and the copy
// bandwidth's setup, so the in-process and the checker's figures have the same form.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <functional>
#include <vector>

#include "pplab/bench.h"
#include "pplab/cuda_check.h"
#include "pplab/device_buffer.h"

namespace pplab::detail {

/// The checker's timer only (remote/bench_checker.cpp): the runner it times, by file name
/// in its own folder (PPLAB_RUNNER_COMMAND still takes precedence). Call before the
/// first request.
void time_through_runner(const char* runner_file);

/// Fills median/min/max, GB/s, items/s and % of copy from the repeats' times.
void summarise(Measurement& m, std::vector<double> times_ms);

/// Prints the JSON line on stdout, sends it on the result channel, and prints the
/// readable line on stderr.
void report(const Measurement& m);

/// A scratch buffer twice the L2 size (one per process): writing it evicts whatever the
/// last run left in the L2.
DeviceBuffer<unsigned char>& l2_scrub_buffer();

/// The middle of `values` (they are sorted in place).
double median(std::vector<double>& values);

/// Whether options.variants leaves this case out.
bool left_out(const BenchCase& spec, const BenchOptions& options);

/// Measurement::spread_percent of these times (100 for fewer than two).
double median_spread_percent(std::vector<double> values);

inline double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

/// The wall times of `runs` calls of `request`, each started on an idle device: what a
/// timer's own requests cost, to be taken off what it measures. The error that `request`
/// returns is checked once the clock has stopped.
template <class Request>
std::vector<double> request_wall_ms(int runs, Request&& request) {
  std::vector<double> walls;
  for (int i = 0; i < runs; ++i) {
    PPLAB_CUDA_CHECK(cudaDeviceSynchronize());
    const auto start = std::chrono::steady_clock::now();
    const cudaError_t error = request();
    walls.push_back(milliseconds_since(start));
    PPLAB_CUDA_CHECK(error);
  }
  return walls;
}

/// Their median (the in-process timer's events, which the CPU's load does not move).
template <class Request>
double median_request_wall_ms(int runs, Request&& request) {
  auto walls = request_wall_ms(runs, request);
  return median(walls);
}

/// Their fastest (the checker's timer, whose every figure is a wall time).
template <class Request>
double fastest_request_wall_ms(int runs, Request&& request) {
  const auto walls = request_wall_ms(runs, request);
  return *std::min_element(walls.begin(), walls.end());
}

/// Device-to-device copy bandwidth in GB/s (bytes read plus bytes written): 12 copies of
/// a buffer far beyond any L2 (1 GiB; 64 MiB on the emulator, which copies with memcpy),
/// the first two dropped, the median of the rest. `copy_ms` copies `bytes` from `from`
/// to `to` and returns how long it took as that timer sees it.
double copy_gbps(const std::function<double(unsigned char* to, const unsigned char* from, std::size_t bytes)>& copy_ms);

}  // namespace pplab::detail
