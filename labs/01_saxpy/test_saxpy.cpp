// Lab 01 checks: SAXPY against the CPU reference.
#include <algorithm>
#include <cmath>

#include "pplab/testing.h"
#include "saxpy.cuh"

namespace {

using pplab::CheckContext;
using pplab::DeviceBuffer;

const pplab::Todo kMap{"01.1", "the map: each thread updates y[i] = a * x[i] + y[i]"};

std::vector<float> cpu_saxpy(float a, const std::vector<float>& x, std::vector<float> y) {
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = a * x[i] + y[i];
  return y;
}

// nvcc fuses a * x + y into one rounding (FMA); the CPU rounds a * x first. The two
// differ by up to one rounding of a * x, which is large next to a result that nearly
// cancels, so the absolute tolerance scales with the largest |a * x| + |y|.
pplab::Tolerance saxpy_tolerance(float a, const std::vector<float>& x, const std::vector<float>& y) {
  double magnitude = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    magnitude = std::max(magnitude, std::fabs(double(a) * x[i]) + std::fabs(double(y[i])));
  return {magnitude * 2e-7 + 1e-7, 1e-6};
}

// Runs saxpy on copies of x and y and checks y and that x is unchanged.
void check_saxpy(const std::string& check, float a, const std::vector<float>& x,
                 const std::vector<float>& y) {
  pplab::for_each_schedule(x.size(), [&](const std::string& schedule) {
    DeviceBuffer<float> d_x(x), d_y(y);
    PPLAB_ON_DEVICE("saxpy", x.size(), pplab::lab01::saxpy(a, d_x.data(), d_y.data(), x.size()));
    const std::string natural = pplab::is_aligned16(d_x.data()) ? "16-byte aligned" : "not 16-byte aligned";
    CheckContext context{check + " (arrays " + natural + ")", x.size(), kMap, "y", schedule};
    PPLAB_EXPECT(pplab::compare_arrays(context, cpu_saxpy(a, x, y), d_y.download(), saxpy_tolerance(a, x, y)));
    PPLAB_EXPECT(pplab::check_unchanged(context, "x", x, d_x.download()));
    // Again at the other 16-byte alignment: saxpy picks its kernel by alignment, and
    // both kernels are checked on every backend.
    pplab::PlacedCopy<float> p_x(x, !pplab::is_aligned16(d_x.data())), p_y(y, !pplab::is_aligned16(d_x.data()));
    PPLAB_ON_DEVICE("saxpy", x.size(), pplab::lab01::saxpy(a, p_x.data(), p_y.data(), x.size()));
    context.check = check + " (arrays " + p_x.placement() + ")";
    PPLAB_EXPECT(pplab::compare_arrays(context, cpu_saxpy(a, x, y), p_y.download(), saxpy_tolerance(a, x, y)));
    PPLAB_EXPECT(pplab::check_unchanged(context, "x", x, p_x.download()));
  });
}

}  // namespace

TEST_SUITE("lab01") {

TEST_CASE("saxpy reproduces the lecture worked example") {
  // a = 4; the lecture's x and y rows (its slide prints 49 and 50 at indices 7 and 8,
  // which do not follow from its own inputs: 4 * 5 + 4 = 24 and 4 * 5 + 5 = 25).
  const std::vector<float> x = {2, 4, 2, 1, 8, 3, 9, 5, 5, 1, 2, 1};
  const std::vector<float> y = {3, 7, 0, 1, 4, 0, 0, 4, 5, 3, 1, 0};
  const std::vector<float> expected = {11, 23, 8, 5, 36, 12, 36, 24, 25, 7, 9, 4};
  REQUIRE(cpu_saxpy(4.0f, x, y) == expected);
  check_saxpy("saxpy reproduces the lecture worked example", 4.0f, x, y);
}

TEST_CASE("saxpy matches the CPU reference at edge sizes") {
  for (std::size_t n : pplab::edge_sizes()) {
    CAPTURE(n);
    check_saxpy("saxpy matches the CPU reference at edge sizes", 2.5f,
                pplab::random_values<float>(n, -1.0f, 1.0f, 100 + n),
                pplab::random_values<float>(n, -1.0f, 1.0f, 200 + n));
  }
}

TEST_CASE("saxpy matches the CPU reference on a large random input") {
  const std::size_t n = pplab::large_size() + 3;  // not a multiple of the block size
  check_saxpy("saxpy matches the CPU reference on a large random input", -1.75f,
              pplab::random_values<float>(n, -100.0f, 100.0f, 1),
              pplab::random_values<float>(n, -100.0f, 100.0f, 2));
}

TEST_CASE("saxpy with a = 0 leaves y as it was and with a = 1 adds x") {
  const std::size_t n = 4099;
  const auto x = pplab::random_values<float>(n, -8.0f, 8.0f, 3);
  const auto y = pplab::random_values<float>(n, -8.0f, 8.0f, 4);
  check_saxpy("saxpy with a = 0 leaves y as it was", 0.0f, x, y);
  check_saxpy("saxpy with a = 1 adds x", 1.0f, x, y);
}

TEST_CASE("saxpy works on arrays that start at any element") {
  // Sub-arrays starting one element in are not 16-byte aligned: vectorised code must
  // notice and fall back to the scalar kernel.
  const std::size_t n = 1031;
  const auto x = pplab::random_values<float>(n + 1, -1.0f, 1.0f, 5);
  const auto y = pplab::random_values<float>(n + 1, -1.0f, 1.0f, 6);
  pplab::for_each_schedule(n, [&](const std::string& schedule) {
    DeviceBuffer<float> d_x(x), d_y(y);
    PPLAB_ON_DEVICE("saxpy", n, pplab::lab01::saxpy(3.0f, d_x.data() + 1, d_y.data() + 1, n));
    std::vector<float> expected = y;
    for (std::size_t i = 1; i <= n; ++i) expected[i] = 3.0f * x[i] + y[i];
    CheckContext context{"saxpy works on arrays that start at any element", n, kMap, "y", schedule};
    context.hint = "y[0] lies before the array saxpy was given and must not change";
    context.offset = 1;
    PPLAB_EXPECT(pplab::compare_arrays(context, expected, d_y.download(), saxpy_tolerance(3.0f, x, y)));
  });
}

TEST_CASE("saxpy of zero elements does nothing") {
  DeviceBuffer<float> empty;
  PPLAB_ON_DEVICE("saxpy", 0, pplab::lab01::saxpy(1.0f, empty.data(), empty.data(), 0));
}

}  // TEST_SUITE
