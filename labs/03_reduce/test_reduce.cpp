// Lab 03 checks: sum, min and max of int and float arrays against the CPU reference,
// starting with the lecture's "find the largest element" example.
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "pplab/testing.h"
#include "reduce.cuh"

namespace {

using pplab::CheckContext;
using pplab::DeviceBuffer;
using pplab::lab03::Max;
using pplab::lab03::Min;
using pplab::lab03::Sum;

const pplab::Todo kAllSteps{"03.1-03.3",
                            "first add during load (03.1), the tree (03.2), the warp-shuffle finish (03.3)"};

template <class T>
std::string type_name() {
  return std::is_same_v<T, int> ? "int" : "float";
}
template <class T>
std::string op_name(Sum<T>) {
  return "sum";
}
template <class T>
std::string op_name(Min<T>) {
  return "min";
}
template <class T>
std::string op_name(Max<T>) {
  return "max";
}

template <class T, class Op>
constexpr bool is_sum(Op) {
  return std::is_same_v<Op, Sum<T>>;
}

// The exact answer: min and max by folding from the identity; int sums in unsigned
// arithmetic (which wraps like the GPU's adder, so any order gives the same bits);
// float sums in double.
template <class T, class Op>
T expected_reduce(const std::vector<T>& in, Op op) {
  if constexpr (std::is_same_v<Op, Sum<int>>) {
    std::uint32_t total = 0;
    for (int v : in) total += static_cast<std::uint32_t>(v);
    return static_cast<int>(total);
  } else if constexpr (std::is_same_v<Op, Sum<float>>) {
    return pplab::cpu::sum(in);
  } else {
    return pplab::cpu::reduce(in, Op::identity(), op);
  }
}

// A hint from the shape of a wrong answer.
template <class T, class Op>
std::string hint_for(const std::vector<T>& in, T expected, T got, Op op) {
  if (pplab::is_poison(got)) return "the result was never written: thread 0 of the last pass writes it";
  if (got == Op::identity() && expected != Op::identity())
    return "the result is op.identity(): are the elements loaded into `value` (TODO 03.1), and does the "
           "finish leave the block's answer in thread 0 (TODO 03.3)?";
  if (!is_sum<T>(op) && got == T(0))
    return "the result is 0, which is not in the input: elements past n must count as op.identity(), "
           "not 0 (TODO 03.1)";
  if (!in.empty() && got == in[0] && expected != in[0])
    return "the result is in[0]: only thread 0's own value survived; the tree (03.2) or the shuffles (03.3) "
           "did not combine the others";
  return "a wrong answer that changes between thread orders means a missing __syncthreads() between tree "
         "levels; one that does not may be a wrong stride or a lost element at a tile's edge";
}

// compare_value, but an exact match always passes: pplab's tolerance test computes
// |got - expected|, which is NaN when both are the same infinity (the identity of a
// float min or max).
template <class T>
pplab::CheckResult compare_result(const CheckContext& context, T expected, T got, pplab::Tolerance tolerance) {
  if (got == expected) return {};
  return pplab::compare_value(context, expected, got, tolerance);
}

// Runs reduce under every thread order, with d_out poisoned first, and checks the
// result and that the input is unchanged. `offset` starts the input that many
// elements into its buffer (an address that is not 16-byte aligned when odd).
template <class T, class Op>
void check_reduce(const std::string& check, const std::vector<T>& in, Op op,
                  int block_threads = pplab::lab03::kBlockThreads, std::size_t offset = 0) {
  const T expected = expected_reduce(in, op);
  double magnitude = 0;
  for (const T& v : in) magnitude += std::fabs(double(v));
  const pplab::Tolerance tolerance =
      std::is_same_v<Op, Sum<float>> ? pplab::sum_tolerance(in.size(), magnitude) : pplab::Tolerance{};
  std::vector<T> padded(offset, T(7));
  padded.insert(padded.end(), in.begin(), in.end());
  pplab::for_each_schedule(in.size(), [&](const std::string& schedule) {
    // The allocator's address first, then a copy at the other 16-byte alignment: reduce
    // picks its kernel by alignment, and both kernels are checked on every backend.
    DeviceBuffer<T> d_in(padded);
    pplab::PlacedCopy<T> placed(in, !pplab::is_aligned16(d_in.data() + offset));
    for (T* input : {d_in.data() + offset, placed.data()}) {
      DeviceBuffer<T> d_out(1);
      d_out.poison();
      PPLAB_ON_DEVICE("reduce", in.size(), pplab::lab03::reduce(input, d_out.data(), in.size(), op, block_threads));
      const T got = d_out.download()[0];
      CheckContext context{check + " (" + op_name(op) + " of " + type_name<T>() + ", block of " +
                               std::to_string(block_threads) + " threads, input " +
                               (pplab::is_aligned16(input) ? "16-byte aligned" : "not 16-byte aligned") + ")",
                           in.size(), kAllSteps, "result", schedule, hint_for(in, expected, got, op)};
      context.offset = input == placed.data() ? 0 : offset;  // the placed copy is a buffer of its own
      PPLAB_EXPECT(compare_result(context, expected, got, tolerance));
      if (input == placed.data()) PPLAB_EXPECT(pplab::check_unchanged(context, "in", in, placed.download()));
      else PPLAB_EXPECT(pplab::check_unchanged(context, "in", padded, d_in.download()));
    }
  });
}

// The same input under sum, min and max.
template <class T>
void check_all_ops(const std::string& check, const std::vector<T>& in,
                   int block_threads = pplab::lab03::kBlockThreads, std::size_t offset = 0) {
  check_reduce(check, in, Sum<T>{}, block_threads, offset);
  check_reduce(check, in, Min<T>{}, block_threads, offset);
  check_reduce(check, in, Max<T>{}, block_threads, offset);
}

// Copies `values` into a copy of `in` at spread-out positions (seeded).
template <class T>
std::vector<T> plant(std::vector<T> in, const std::vector<T>& values, std::uint64_t stream) {
  auto rng = pplab::make_rng(stream);
  for (const T& v : values) in[rng() % in.size()] = v;
  return in;
}

}  // namespace

TEST_SUITE("lab03") {

TEST_CASE("max reproduces the lecture example (16 elements 8 threads give 20)") {
  // 8 threads, 16 elements: the load keeps the larger of in[t] and in[t + 8], then a
  // tree of 3 levels (strides 4, 2, 1). The handout draws every step.
  const std::vector<int> in = {5, 17, 3, 8, 12, 1, 9, 4, 6, 2, 14, 11, 7, 20, 0, 10};
  REQUIRE(expected_reduce(in, Max<int>{}) == 20);
  REQUIRE(expected_reduce(in, Min<int>{}) == 0);
  REQUIRE(expected_reduce(in, Sum<int>{}) == 129);
  check_reduce("max reproduces the lecture example", in, Max<int>{}, 8);
  check_reduce("min of the lecture example is 0", in, Min<int>{}, 8);
  check_reduce("sum of the lecture example is 129", in, Sum<int>{}, 8);
}

TEST_CASE("reduce matches the CPU reference at edge sizes") {
  for (int block_threads : {32, 256}) {
    for (std::size_t n : pplab::edge_sizes()) {
      CAPTURE(n);
      check_all_ops("reduce matches the CPU reference at edge sizes",
                    pplab::random_values<int>(n, -1000, 1000, 100 + n), block_threads);
      check_all_ops("reduce matches the CPU reference at edge sizes",
                    pplab::random_values<float>(n, -1.0f, 1.0f, 200 + n), block_threads);
    }
  }
}

TEST_CASE("reduce works with every block size from 8 to 1024") {
  const std::size_t n = 10007;
  const auto ints = pplab::random_values<int>(n, -100000, 100000, 300);
  const auto floats = pplab::random_values<float>(n, -4.0f, 4.0f, 301);
  for (int block_threads = 8; block_threads <= 1024; block_threads *= 2) {
    check_all_ops("reduce works with every block size", ints, block_threads);
    check_reduce("reduce works with every block size", floats, Max<float>{}, block_threads);
  }
}

TEST_CASE("reduce of all-equal values") {
  for (std::size_t n : {std::size_t(33), std::size_t(1025), std::size_t(70001)}) {
    CAPTURE(n);
    check_all_ops("reduce of all-equal ints", std::vector<int>(n, 7));
    // Every partial sum is a multiple of 0.5 below 2^22, so the float sum is exact too.
    check_all_ops("reduce of all-equal floats", std::vector<float>(n, -2.5f));
  }
}

TEST_CASE("max of negative values is negative and min of positive values is positive") {
  // A kernel that lets missing elements count as 0 instead of op.identity() gets 0 here.
  for (std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(1000), std::size_t(4099)}) {
    CAPTURE(n);
    check_reduce("max of negative ints is negative", pplab::random_values<int>(n, -90000, -5, 400 + n),
                 Max<int>{});
    check_reduce("min of positive ints is positive", pplab::random_values<int>(n, 5, 90000, 500 + n),
                 Min<int>{});
    check_reduce("max of negative floats is negative",
                 pplab::random_values<float>(n, -100.0f, -0.5f, 600 + n), Max<float>{});
    check_reduce("min of positive floats is positive",
                 pplab::random_values<float>(n, 0.5f, 100.0f, 700 + n), Min<float>{});
    check_reduce("sum of negative ints", pplab::random_values<int>(n, -1000, -1, 800 + n), Sum<int>{});
  }
}

TEST_CASE("min and max find the extremes of the type") {
  const std::size_t n = 5003;
  const auto ints = plant(pplab::random_values<int>(n, -1000, 1000, 900), {INT_MIN, INT_MAX}, 901);
  check_reduce("min finds INT_MIN", ints, Min<int>{});
  check_reduce("max finds INT_MAX", ints, Max<int>{});
  const auto floats = plant(pplab::random_values<float>(n, -1.0f, 1.0f, 902), {-FLT_MAX, FLT_MAX}, 903);
  check_reduce("min finds -FLT_MAX", floats, Min<float>{});
  check_reduce("max finds FLT_MAX", floats, Max<float>{});
  // Arrays made only of extremes.
  check_reduce("min of all INT_MAX is INT_MAX", std::vector<int>(1025, INT_MAX), Min<int>{});
  check_reduce("max of all INT_MIN is INT_MIN", std::vector<int>(1025, INT_MIN), Max<int>{});
  check_reduce("min of all FLT_MAX is FLT_MAX", std::vector<float>(1025, FLT_MAX), Min<float>{});
  check_reduce("max of all -FLT_MAX is -FLT_MAX", std::vector<float>(1025, -FLT_MAX), Max<float>{});
  // INT_MAX and INT_MIN among zeros: every partial sum in any order is 0, INT_MAX,
  // INT_MIN or -1, so nothing overflows.
  check_reduce("sum of INT_MAX and INT_MIN among zeros is -1",
               plant(std::vector<int>(4099, 0), {INT_MAX, INT_MIN}, 904), Sum<int>{});
}

TEST_CASE("reduce of one element is that element") {
  for (int value : {-3, 0, 42, INT_MIN, INT_MAX}) check_all_ops("reduce of one int", std::vector<int>{value});
  for (float value : {-1.5f, 0.0f, 3.25f, -FLT_MAX, FLT_MAX}) check_all_ops("reduce of one float", std::vector<float>{value});
}

TEST_CASE("reduce of zero elements is the identity") {
  // 0 for a sum, INT_MAX / +infinity for a min, INT_MIN / -infinity for a max.
  check_all_ops("reduce of zero ints is the identity", std::vector<int>{});
  check_all_ops("reduce of zero floats is the identity", std::vector<float>{});
  check_all_ops("reduce of zero ints is the identity", std::vector<int>{}, 8);
}

TEST_CASE("reduce matches the CPU reference on a large random input") {
  const std::size_t n = pplab::large_size() + 5;
  INFO("seed " << pplab::run_seed() << ", n = " << n);
  check_all_ops("reduce matches the CPU reference on a large random input",
                pplab::random_values<int>(n, -1000, 1000, 1000));
  check_all_ops("reduce matches the CPU reference on a large random input",
                pplab::random_values<float>(n, -1.0f, 1.0f, 1001));
}

TEST_CASE("reduce works on arrays that start at any element") {
  // An input that starts 1, 2 or 3 elements into its buffer is not 16-byte aligned:
  // vectorised code must notice and use the one-element-at-a-time kernel.
  const std::size_t n = 20011;
  for (std::size_t offset : {1, 2, 3, 4}) {
    CAPTURE(offset);
    check_all_ops("reduce works on arrays that start at any element",
                  pplab::random_values<int>(n, -1000, 1000, 1100 + offset), 256, offset);
    check_reduce("reduce works on arrays that start at any element",
                 pplab::random_values<float>(n, -1.0f, 1.0f, 1200 + offset), Sum<float>{}, 256, offset);
  }
}

TEST_CASE("reduce rejects a block size that is not a power of two") {
  DeviceBuffer<int> in(4), out(1);
  CHECK_THROWS_AS(pplab::lab03::reduce(in.data(), out.data(), 4, Sum<int>{}, 100), std::invalid_argument);
  CHECK_THROWS_AS(pplab::lab03::reduce(in.data(), out.data(), 4, Max<int>{}, 2048), std::invalid_argument);
}

}  // TEST_SUITE
