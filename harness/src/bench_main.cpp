// main() of every benchmark program (pplab/bench_main.h). It is compiled into each
// benchmark target with that target's definitions: PPLAB_LAB (the lab's folder),
// PPLAB_TREE (whose code), and either
// PPLAB_BENCH_LIBRARY (in process, with the library rows) or PPLAB_BENCH_RUNNER (timed by
// the checker: the runner program to start, built beside this one).
#include "pplab/bench_main.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "bench_report.h"

#ifndef PPLAB_TREE
#error "a benchmark is built for one tree: define PPLAB_TREE"
#endif
#ifndef PPLAB_LAB
#error "a benchmark is built for one lab: define PPLAB_LAB"
#endif

namespace pplab {

#if defined(PPLAB_GPU) && !defined(PPLAB_BENCH_RUNNER)
// Code that takes scratch with cudaMallocAsync (lab 10's sort) keeps freed memory in the
// pool, so a repeat does not pay for mapping it again (CUB gets its scratch up front).
// The runner does the same for code timed through it (runner_main.cpp).
namespace {
void keep_freed_device_memory() {
  cudaMemPool_t pool;
  PPLAB_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  std::uint64_t keep_all = UINT64_MAX;
  PPLAB_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all));
}
}  // namespace
#endif

const std::string& bench_impl() {
  static const std::string impl = std::string(PPLAB_TREE) == "solutions" ? "reference" : "student";
  return impl;
}

BenchCase bench_case(std::string impl, std::string variant, std::size_t n, double bytes_moved) {
  BenchCase spec;
  spec.lab = PPLAB_LAB;
  spec.impl = std::move(impl);
  spec.variant = std::move(variant);
  spec.n = n;
  spec.bytes_moved = bytes_moved;
  return spec;
}

}  // namespace pplab

int main(int argc, char** argv) try {
#ifdef PPLAB_BENCH_RUNNER
  pplab::detail::time_through_runner(PPLAB_BENCH_RUNNER);
#elif defined(PPLAB_GPU)
  pplab::keep_freed_device_memory();
#endif
  const pplab::BenchLab lab = pplab::bench_lab();
  // --library-only (in process): the library rows alone, for `pplab bench --compare`
  // beside a student's benchmark, which holds none.
  std::vector<char*> arguments(argv, argv + argc);
  bool library_only = false;
#ifdef PPLAB_BENCH_LIBRARY
  const auto flag = std::find_if(arguments.begin(), arguments.end(),
                                 [](const char* a) { return std::string(a) == "--library-only"; });
  library_only = flag != arguments.end();
  if (library_only) arguments.erase(flag);
#endif
  auto options = pplab::bench_options(int(arguments.size()), arguments.data(), lab.default_log2_sizes);
  if (lab.max_repeats > 0 && options.repeats > lab.max_repeats) options.repeats = lab.max_repeats;
  for (std::size_t n : options.sizes) {
    if (!library_only) lab.cases(options, n);
#ifdef PPLAB_BENCH_LIBRARY
    if (options.compare || library_only) pplab::bench_library_cases(options, n);
#endif
  }
  return 0;
} catch (const std::exception& error) {
  std::fprintf(stderr, "error: %s\n", error.what());
  return 1;
}
