// Lab 02 checks: the dot product against the CPU reference, starting with the seed.
#include <cmath>

#include "dot_product.cuh"
#include "pplab/testing.h"

namespace {

using pplab::CheckContext;
using pplab::DeviceBuffer;

const pplab::Todo kAllSteps{"02.1-02.3", "products (02.1), the tree (02.2), the block's atomicAdd (02.3)"};

// Runs dot_product once and returns the result read back from the device.
float gpu_dot(const float* d_a, const float* d_b, std::size_t n, int block_threads) {
  DeviceBuffer<float> result(1);
  result.poison();
  PPLAB_ON_DEVICE("dot_product", n, pplab::lab02::dot_product(d_a, d_b, result.data(), n, block_threads));
  return result.download()[0];
}

// A hint from the shape of a wrong answer.
std::string hint_for(float got, double expected) {
  if (got == 0.0f && expected != 0.0) return "the result is 0: did thread 0 add the block's sum (TODO 02.3)?";
  if (std::isnan(got)) return "the result is NaN: a thread read shared memory that no thread wrote";
  return "a wrong but nonzero sum usually means a missing __syncthreads() between tree levels, "
         "or threads beyond n adding products they should skip";
}

void check_dot(const std::string& check, const std::vector<float>& a, const std::vector<float>& b,
               int block_threads = pplab::lab02::kBlockThreads, bool exact = false) {
  double expected = 0.0, magnitude = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    expected += double(a[i]) * double(b[i]);
    magnitude += std::fabs(double(a[i]) * double(b[i]));
  }
  const auto tolerance = exact ? pplab::Tolerance{} : pplab::sum_tolerance(a.size(), magnitude);
  pplab::for_each_schedule(a.size(), [&](const std::string& schedule) {
    DeviceBuffer<float> d_a(a), d_b(b);
    const float got = gpu_dot(d_a.data(), d_b.data(), a.size(), block_threads);
    const std::string natural = pplab::is_aligned16(d_a.data()) ? "16-byte aligned" : "not 16-byte aligned";
    CheckContext context{check + " (block of " + std::to_string(block_threads) + " threads, arrays " + natural + ")",
                         a.size(), kAllSteps, "result", schedule, hint_for(got, expected)};
    PPLAB_EXPECT(pplab::compare_value(context, float(expected), got, tolerance));
    PPLAB_EXPECT(pplab::check_unchanged(context, "a", a, d_a.download()));
    PPLAB_EXPECT(pplab::check_unchanged(context, "b", b, d_b.download()));
    // Again at the other 16-byte alignment: the products step picks its loads by
    // alignment, and both are checked on every backend.
    pplab::PlacedCopy<float> p_a(a, !pplab::is_aligned16(d_a.data())), p_b(b, !pplab::is_aligned16(d_a.data()));
    const float placed_got = gpu_dot(p_a.data(), p_b.data(), a.size(), block_threads);
    context.check = check + " (block of " + std::to_string(block_threads) + " threads, arrays " + p_a.placement() + ")";
    context.hint = hint_for(placed_got, expected);
    PPLAB_EXPECT(pplab::compare_value(context, float(expected), placed_got, tolerance));
    PPLAB_EXPECT(pplab::check_unchanged(context, "a", a, p_a.download()));
    PPLAB_EXPECT(pplab::check_unchanged(context, "b", b, p_b.download()));
  });
}

}  // namespace

TEST_SUITE("lab02") {

TEST_CASE("dot product reproduces the seed example (8 threads 8 elements give 52)") {
  const std::vector<float> a = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<float> b = {2, 1, 2, 1, 2, 1, 2, 1};
  check_dot("dot product reproduces the seed example", a, b, 8);
}

TEST_CASE("dot product matches the CPU reference at edge sizes") {
  for (int block_threads : {32, 256}) {
    for (std::size_t n : pplab::edge_sizes()) {
      CAPTURE(n);
      check_dot("dot product matches the CPU reference at edge sizes",
                pplab::random_values<float>(n, -1.0f, 1.0f, 10 + n),
                pplab::random_values<float>(n, -1.0f, 1.0f, 20 + n), block_threads);
    }
  }
}

TEST_CASE("dot product works with every block size from 8 to 1024") {
  const std::size_t n = 10007;
  const auto a = pplab::random_values<float>(n, -2.0f, 2.0f, 30);
  const auto b = pplab::random_values<float>(n, -2.0f, 2.0f, 31);
  for (int block_threads = 8; block_threads <= 1024; block_threads *= 2)
    check_dot("dot product works with every block size", a, b, block_threads);
}

TEST_CASE("dot product of small integers is exact") {
  // Every partial sum is an integer below 2^24, so any order of additions is exact.
  const std::size_t n = 65537;
  const auto ints = pplab::random_values<int>(n, -8, 8, 40);
  check_dot("dot product of small integers is exact", std::vector<float>(ints.begin(), ints.end()),
            std::vector<float>(n, 1.0f), pplab::lab02::kBlockThreads, /*exact=*/true);
}

TEST_CASE("dot product matches the CPU reference on a large random input") {
  const std::size_t n = pplab::large_size() + 5;
  check_dot("dot product matches the CPU reference on a large random input",
            pplab::random_values<float>(n, -1.0f, 1.0f, 50), pplab::random_values<float>(n, -1.0f, 1.0f, 51));
}

TEST_CASE("dot product works on arrays that start at any element") {
  // Sub-arrays one to three elements in are not 16-byte aligned: vectorised code must
  // notice and fall back to scalar loads.
  const std::size_t n = 300007;
  const auto a = pplab::random_values<float>(n + 3, -1.0f, 1.0f, 60);
  const auto b = pplab::random_values<float>(n + 3, -1.0f, 1.0f, 61);
  for (std::size_t offset = 1; offset <= 3; ++offset) {
    const std::vector<float> a_part(a.begin() + offset, a.begin() + offset + n);
    const std::vector<float> b_part(b.begin() + offset, b.begin() + offset + n);
    double expected = 0, magnitude = 0;
    for (std::size_t i = 0; i < n; ++i) {
      expected += double(a_part[i]) * b_part[i];
      magnitude += std::fabs(double(a_part[i]) * b_part[i]);
    }
    DeviceBuffer<float> d_a(a), d_b(b), result(1);
    result.poison();
    PPLAB_ON_DEVICE("dot_product", n, pplab::lab02::dot_product(d_a.data() + offset, d_b.data() + offset, result.data(), n));
    const float got = result.download()[0];
    CheckContext context{"dot product works on arrays that start at any element", n, kAllSteps, "result",
                         pplab::current_schedule_name(), hint_for(got, expected)};
    context.offset = offset;
    PPLAB_EXPECT(pplab::compare_value(context, float(expected), got, pplab::sum_tolerance(n, magnitude)));
  }
}

TEST_CASE("dot product of zero elements is zero") {
  check_dot("dot product of zero elements is zero", {}, {});
}

TEST_CASE("dot product rejects a block size that is not a power of two") {
  DeviceBuffer<float> a(4), b(4), result(1);
  CHECK_THROWS_AS(pplab::lab02::dot_product(a.data(), b.data(), result.data(), 4, 100), std::invalid_argument);
}

}  // TEST_SUITE
