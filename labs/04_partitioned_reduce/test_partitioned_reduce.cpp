// Lab 04 checks: the partitioned sum of int and float arrays, by both methods, against
// the CPU reference, starting with the handout's worked example.
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "partitioned_reduce.cuh"
#include "pplab/testing.h"

namespace {

using pplab::CheckContext;
using pplab::DeviceBuffer;
using pplab::lab04::Method;

const pplab::Todo kTwoPassSteps{"04.1-04.3",
                                "the grid-stride loop (04.1), the block's partial (04.2), the second pass (04.3)"};
const pplab::Todo kAtomicSteps{"04.1 and 04.4", "the grid-stride loop (04.1), the block's atomicAdd (04.4)"};

template <class T>
std::string type_name() {
  return std::is_same_v<T, int> ? "int" : "float";
}

std::string method_name(Method method) { return method == Method::two_pass ? "two passes" : "atomics"; }

// The exact sum: ints in unsigned arithmetic (wrapping like the GPU's adder, so any
// order gives the same bits), floats in double.
template <class T>
T expected_sum(const std::vector<T>& in) {
  if constexpr (std::is_same_v<T, int>) {
    std::uint32_t total = 0;
    for (int v : in) total += static_cast<std::uint32_t>(v);
    return static_cast<int>(total);
  } else {
    return pplab::cpu::sum(in);
  }
}

// A hint from the shape of a wrong answer.
template <class T>
std::string hint_for(Method method, T expected, T got, std::size_t n, unsigned grid_threads) {
  if (pplab::is_poison(got))
    return "the result was never written: the second pass (TODO 04.3) writes it, one block over the partials";
  if (got == T(0) && expected != T(0))
    return method == Method::two_pass
               ? "the result is 0: does the grid-stride loop (04.1) add into `sum`, and does thread 0 write the "
                 "block's partial (04.2)?"
               : "the result is 0: does the grid-stride loop (04.1) add into `sum`, and does thread 0 atomicAdd "
                 "the block's sum (04.4)?";
  if (grid_threads > 0 && n > grid_threads)
    return "n is larger than the grid: each thread must step by the whole grid (gridDim.x * blockDim.x), "
           "not by its block, until it passes n";
  return "threads whose first element is past n must add nothing; every block's partial must reach the "
         "result exactly once";
}

// Runs partitioned_sum by both methods under every thread order, with d_out poisoned
// first, and checks the sum and that the input is unchanged. `offset` starts the
// input that many elements into its buffer (not 16-byte aligned when odd).
template <class T>
void check_sum(const std::string& check, const std::vector<T>& in, int block_threads = pplab::lab04::kBlockThreads,
               unsigned grid_blocks = 0, std::size_t offset = 0) {
  const T expected = expected_sum(in);
  double magnitude = 0;
  for (const T& v : in) magnitude += std::fabs(double(v));
  const pplab::Tolerance tolerance =
      std::is_floating_point_v<T> ? pplab::sum_tolerance(in.size(), magnitude) : pplab::Tolerance{};
  std::vector<T> padded(offset, T(7));
  padded.insert(padded.end(), in.begin(), in.end());
  const unsigned grid = grid_blocks > 0 ? grid_blocks : pplab::lab04::partitioned_grid_size(in.size(), block_threads);
  for (Method method : {Method::two_pass, Method::atomics}) {
    pplab::for_each_schedule(in.size(), [&](const std::string& schedule) {
      DeviceBuffer<T> d_in(padded), d_out(1);
      d_out.poison();
      PPLAB_ON_DEVICE("partitioned_sum", in.size(),
                      pplab::lab04::partitioned_sum(d_in.data() + offset, d_out.data(), in.size(), method,
                                                    block_threads, grid_blocks));
      const T got = d_out.download()[0];
      CheckContext context{check + " (" + type_name<T>() + ", " + method_name(method) + ", " +
                               std::to_string(grid) + " blocks of " + std::to_string(block_threads) + " threads)",
                           in.size(), method == Method::two_pass ? kTwoPassSteps : kAtomicSteps, "result",
                           schedule, hint_for(method, expected, got, in.size(), grid * unsigned(block_threads))};
      context.offset = offset;
      PPLAB_EXPECT(pplab::compare_value(context, expected, got, tolerance));
      PPLAB_EXPECT(pplab::check_unchanged(context, "in", padded, d_in.download()));
    });
  }
}

}  // namespace

TEST_SUITE("lab04") {

TEST_CASE("partitioned sum reproduces the worked example (2 blocks of 4 threads over 20 elements give 210)") {
  // 8 threads for 20 elements: thread t adds elements t, t + 8 and t + 16 (while below
  // 20), block 0 gets 27 + 30 + 33 + 36 = 126, block 1 gets 18 + 20 + 22 + 24 = 84, and
  // the second pass adds 126 + 84. The handout draws every step.
  const std::vector<int> in = pplab::iota_values<int>(20, 1);
  REQUIRE(expected_sum(in) == 210);
  check_sum("partitioned sum reproduces the worked example", in, 4, 2);
  check_sum("partitioned sum reproduces the worked example",
            std::vector<float>(in.begin(), in.end()), 4, 2);
}

TEST_CASE("partitioned sum matches the CPU reference at edge sizes") {
  for (int block_threads : {32, 256}) {
    for (std::size_t n : pplab::edge_sizes()) {
      CAPTURE(n);
      check_sum("partitioned sum matches the CPU reference at edge sizes",
                pplab::random_values<int>(n, -1000, 1000, 100 + n), block_threads);
      check_sum("partitioned sum matches the CPU reference at edge sizes",
                pplab::random_values<float>(n, -1.0f, 1.0f, 200 + n), block_threads);
    }
  }
}

TEST_CASE("partitioned sum works with grids far smaller than the input") {
  // The lecture's question: fewer threads than elements. Here every thread loops
  // hundreds of times, whatever device the checks run on.
  const std::size_t n = 100003;
  const auto ints = pplab::random_values<int>(n, -1000, 1000, 300);
  const auto floats = pplab::random_values<float>(n, -1.0f, 1.0f, 301);
  for (unsigned grid_blocks : {1u, 2u, 3u, 7u, 64u}) {
    CAPTURE(grid_blocks);
    check_sum("partitioned sum works with grids far smaller than the input", ints, 64, grid_blocks);
    check_sum("partitioned sum works with grids far smaller than the input", floats, 64, grid_blocks);
  }
}

TEST_CASE("partitioned sum works with every block size from 4 to 1024") {
  const std::size_t n = 10007;
  const auto ints = pplab::random_values<int>(n, -100000, 100000, 400);
  for (int block_threads = 4; block_threads <= 1024; block_threads *= 2) {
    check_sum("partitioned sum works with every block size", ints, block_threads);
    check_sum("partitioned sum works with every block size", ints, block_threads, 3);
  }
}

TEST_CASE("partitioned sum matches the CPU reference on a large random input") {
  const std::size_t n = pplab::large_size() + 5;
  INFO("seed " << pplab::run_seed() << ", n = " << n);
  check_sum("partitioned sum matches the CPU reference on a large random input",
            pplab::random_values<int>(n, -1000, 1000, 500));
  check_sum("partitioned sum matches the CPU reference on a large random input",
            pplab::random_values<float>(n, -1.0f, 1.0f, 501));
}

TEST_CASE("partitioned sum of many equal floats stays within the tolerance for n") {
  // 0.1 is not exact in binary: a long serial float sum drifts. Every thread adding a
  // short stretch and the tree adding the rest keeps the error small.
  const std::size_t n = pplab::large_size() + 1;
  check_sum("partitioned sum of many equal floats", std::vector<float>(n, 0.1f));
  check_sum("partitioned sum of all-equal ints", std::vector<int>(n, -3));
}

TEST_CASE("partitioned sum works on arrays that start at any element") {
  // An input that starts 1, 2 or 3 elements into its buffer is not 16-byte aligned:
  // vectorised code must notice and use the one-element-at-a-time loop.
  const std::size_t n = 20011;
  for (std::size_t offset : {1, 2, 3, 4}) {
    CAPTURE(offset);
    check_sum("partitioned sum works on arrays that start at any element",
              pplab::random_values<int>(n, -1000, 1000, 600 + offset), 256, 0, offset);
    check_sum("partitioned sum works on arrays that start at any element",
              pplab::random_values<float>(n, -1.0f, 1.0f, 700 + offset), 256, 5, offset);
  }
}

TEST_CASE("partitioned sum of zero elements is zero") {
  check_sum("partitioned sum of zero ints is zero", std::vector<int>{});
  check_sum("partitioned sum of zero floats is zero", std::vector<float>{});
  check_sum("partitioned sum of zero ints is zero", std::vector<int>{}, 4, 3);
}

TEST_CASE("the fixed grid never has more blocks than the device runs at once") {
  int device = 0, multiprocessors = 0, threads_per_sm = 0;
  PPLAB_CUDA_CHECK(cudaGetDevice(&device));
  PPLAB_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  PPLAB_CUDA_CHECK(cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  const std::size_t resident = std::size_t(multiprocessors) * std::size_t(threads_per_sm / 256);
  const unsigned huge = pplab::lab04::partitioned_grid_size(std::size_t{1} << 28, 256);
  INFO(multiprocessors << " multiprocessors of " << threads_per_sm << " threads hold " << resident
                       << " blocks of 256 at once; the grid for 2^28 elements has " << huge);
  CHECK(huge >= 1);
  CHECK(huge <= resident);
  CHECK(pplab::lab04::partitioned_grid_size(std::size_t{1} << 20, 256) == huge);  // fixed, not growing with n
  CHECK(pplab::lab04::partitioned_grid_size(0, 256) == 1);
  CHECK(pplab::lab04::partitioned_grid_size(300, 256) == std::min<std::size_t>(2, resident));
}

TEST_CASE("partitioned sum rejects a block size that is not a power of two") {
  DeviceBuffer<int> in(4), out(1);
  CHECK_THROWS_AS(pplab::lab04::partitioned_sum(in.data(), out.data(), 4, Method::two_pass, 100),
                  std::invalid_argument);
  CHECK_THROWS_AS(pplab::lab04::partitioned_sum(in.data(), out.data(), 4, Method::atomics, 2),
                  std::invalid_argument);
}

}  // TEST_SUITE
