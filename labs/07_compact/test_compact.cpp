// Lab 07 checks: compaction against the CPU reference, starting with the lecture's example.
// Every check runs both paths (the three kernels, and the single pass, which falls back to
// the three kernels until its stretch steps are written) under every sim thread order.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "compact.cuh"
#include "pplab/patterns.h"
#include "pplab/testing.h"

namespace {

using pplab::CheckContext;
using pplab::CheckResult;
using pplab::DeviceBuffer;
using pplab::lab07::CompactPath;

const pplab::Todo kThreeKernels{"07.1-07.3", "flags (07.1), the tile scan (07.2), the scatter (07.3)"};
const pplab::Todo kSinglePass{"07.4-07.5", "the single-pass kernel (07.4) and its launch (07.5)"};

constexpr CompactPath kPaths[] = {CompactPath::three_kernels, CompactPath::single_pass};

const char* name_of(CompactPath path) {
  return path == CompactPath::single_pass ? "single pass" : "three kernels";
}

// The elements greater than the threshold, in input order.
template <class T>
std::vector<T> cpu_compact(const std::vector<T>& in, T threshold) {
  std::vector<T> kept;
  for (const T& v : in)
    if (v > threshold) kept.push_back(v);
  return kept;
}

// A hint from the shape of a wrong answer: the kept values' places first (a wrong count
// is often their symptom), then the count.
template <class T>
std::string hint_for(const std::vector<T>& out, unsigned count, const std::vector<T>& expected) {
  const std::size_t expected_count = expected.size();
  const std::vector<T> front(out.begin(), out.begin() + std::ptrdiff_t(std::min(out.size(), expected_count)));
  const auto written = std::count_if(front.begin(), front.end(), [](const T& v) { return !pplab::is_poison(v); });
  if (expected_count > 0 && written == 0)
    return "nothing was copied: check the flags (07.1) and the scatter (07.3)";
  if (const auto shifted = pplab::patterns::shift(expected, front, 1); shifted == 1)
    return "the kept values sit one place to the right (out[1] holds what belongs in out[0], which was never "
           "written): each position is the count of kept elements up to and including the element, an inclusive "
           "scan; the scatter needs the exclusive one, the count before it (07.2)";
  else if (shifted == -1)
    return "the kept values sit one place to the left: each position is one too small (07.2, 07.3)";
  if (expected_count > 1 && pplab::is_poison(front.back()) &&
      std::equal(front.begin(), front.end() - 1, expected.begin()))
    return "every kept value is in place except the last one, never written: the scatter (07.3) leaves out the "
           "array's last element (a bound of n - 1 where n belongs?)";
  if (pplab::is_poison(count))
    return "the count was never written: the thread of the last element writes it in the scatter (07.3)";
  if (count != expected_count)
    return "a wrong count with kept elements in place usually means a wrong scan (07.2): "
           "a missing barrier, or the tile total not carried to later tiles";
  return "elements in the wrong places mean wrong positions: the scan must be exclusive "
         "(the first kept element goes to out[0]) and carry every earlier tile's count";
}

// Nothing past the count may change: out[count ..] must still hold the poison.
template <class T>
CheckResult check_past_count_untouched(const CheckContext& context, const std::vector<T>& out,
                                       std::size_t count) {
  std::size_t written = 0, first = out.size();
  for (std::size_t i = count; i < out.size(); ++i) {
    if (pplab::is_poison(out[i])) continue;
    if (first == out.size()) first = i;
    ++written;
  }
  if (written == 0) return {};
  std::ostringstream report;
  report << pplab::detail::header(context) << "  out[" << first << "] = " << double(out[first])
         << " lies past the count " << count << " and was written; " << written
         << " slots past the count changed (they must keep their old contents)\n"
         << pplab::detail::footer(context);
  return {false, report.str()};
}

// Runs compact_async on `in` (uploaded at `in_offset` elements into its buffer, so the
// array can start anywhere) and checks the count, the kept elements, the untouched tail
// and the unchanged input, under every sim thread order (or only the current one).
template <class T>
void check_compact(const std::string& check, const std::vector<T>& in, T threshold,
                   std::size_t in_offset = 0) {
  const std::vector<T> expected = cpu_compact(in, threshold);
  const std::size_t n = in.size();
  for (CompactPath path : kPaths) {
    const auto run = [&](const std::string& schedule) {
      std::vector<T> padded(in_offset, T(0));
      padded.insert(padded.end(), in.begin(), in.end());
      DeviceBuffer<T> d_in(padded), d_out(n + in_offset);
      d_out.poison();
      DeviceBuffer<unsigned> d_count(1);
      d_count.poison();
      DeviceBuffer<unsigned char> d_temp(pplab::lab07::compact_temp_bytes(n));
      const CompactPath taken = PPLAB_ON_DEVICE(
          "compact_async", n,
          pplab::lab07::compact_async(d_in.data() + in_offset, d_out.data() + in_offset, d_count.data(), n,
                                      threshold, d_temp.data(), d_temp.bytes(), path));
      const unsigned count = d_count.download()[0];
      std::vector<T> out = d_out.download();
      out.erase(out.begin(), out.begin() + std::ptrdiff_t(in_offset));

      CheckContext context{check + " (" + name_of(path) + ")", n,
                           taken == CompactPath::single_pass ? kSinglePass : kThreeKernels, "count",
                           schedule, hint_for(out, count, expected)};
      context.offset = in_offset;
      PPLAB_EXPECT(pplab::compare_value(context, unsigned(expected.size()), count));
      context.output = "out";
      const std::vector<T> front(out.begin(), out.begin() + std::ptrdiff_t(expected.size()));
      PPLAB_EXPECT(pplab::compare_arrays(context, expected, front));
      PPLAB_EXPECT(check_past_count_untouched(context, out, expected.size()));
      PPLAB_EXPECT(pplab::check_unchanged(context, "in", padded, d_in.download()));
    };
    pplab::for_each_schedule(n, run);
  }
}

}  // namespace

TEST_SUITE("lab07") {

TEST_CASE("compact reproduces the lecture example (keep the elements greater than 50)") {
  // The lecture: 20 60 51 10 49, keep x > 50, giving 60 51. Flags 0 1 1 0 0; their
  // exclusive scan 0 0 1 2 2 gives 60 the slot 0 and 51 the slot 1; the count is 2.
  const std::vector<int> in = {20, 60, 51, 10, 49};
  REQUIRE(cpu_compact(in, 50) == std::vector<int>{60, 51});
  check_compact("compact reproduces the lecture example", in, 50);
}

TEST_CASE("compact does not keep an element equal to the threshold") {
  check_compact("compact does not keep an element equal to the threshold", std::vector<int>{50, 51, 50, 49, 50},
                50);
}

TEST_CASE("compact matches the CPU reference at edge sizes") {
  for (std::size_t n : pplab::edge_sizes()) {
    CAPTURE(n);
    check_compact("compact matches the CPU reference at edge sizes", pplab::random_values<int>(n, 0, 100, 700 + n),
                  50);
  }
}

TEST_CASE("compact keeps nothing when no element passes") {
  for (std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(4099), std::size_t(65537)}) {
    CAPTURE(n);
    check_compact("compact keeps nothing when no element passes", pplab::random_values<int>(n, -100, 50, 710 + n),
                  50);
  }
}

TEST_CASE("compact keeps every element when all pass") {
  for (std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(4099), std::size_t(65537)}) {
    CAPTURE(n);
    check_compact("compact keeps every element when all pass", pplab::random_values<int>(n, 51, 1000, 720 + n), 50);
  }
}

TEST_CASE("compact of alternating elements keeps every other one") {
  for (std::size_t n : {std::size_t(32), std::size_t(1025), std::size_t(8193)}) {
    CAPTURE(n);
    std::vector<int> in(n);
    for (std::size_t i = 0; i < n; ++i) in[i] = i % 2 == 1 ? int(i) : -int(i);
    check_compact("compact of alternating elements keeps every other one", in, 0);
  }
}

TEST_CASE("compact keeps the input order") {
  // Kept elements are +(i + 1), dropped ones -(i + 1): the output must rise strictly.
  const std::size_t n = 20011;
  const auto coin = pplab::random_values<int>(n, 0, 1, 730);
  std::vector<int> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = coin[i] ? int(i + 1) : -int(i + 1);
  check_compact("compact keeps the input order", in, 0);
}

TEST_CASE("compact of floats matches the CPU reference and never keeps NaN") {
  for (std::size_t n : {std::size_t(7), std::size_t(1025), std::size_t(65537)}) {
    CAPTURE(n);
    auto in = pplab::random_values<float>(n, -1.0f, 1.0f, 740 + n);
    for (std::size_t i = 3; i < n; i += 97) in[i] = std::numeric_limits<float>::quiet_NaN();
    in[n / 2] = std::numeric_limits<float>::infinity();
    in[n / 3] = -std::numeric_limits<float>::infinity();
    in[n - 1] = std::numeric_limits<float>::max();
    check_compact("compact of floats matches the CPU reference", in, 0.25f);
  }
}

TEST_CASE("compact works on arrays that start at any element") {
  // Arrays one element in are not 16-byte aligned: vector loads must not be used there.
  check_compact("compact works on arrays that start at any element",
                pplab::random_values<int>(10007, 0, 100, 750), 50, /*in_offset=*/1);
}

TEST_CASE("compact matches the CPU reference on a large random input") {
  // Three levels of tile totals in the scan.
  const std::size_t n = pplab::large_size() + 7;
  check_compact("compact matches the CPU reference on a large random input",
                pplab::random_values<int>(n, 0, 100, 760), 50);
}

TEST_CASE("compact returns the count to the host") {
  const auto in = pplab::random_values<int>(5000, 0, 100, 770);
  const auto expected = cpu_compact(in, 50);
  for (CompactPath path : kPaths) {
    DeviceBuffer<int> d_in(in), d_out(in.size());
    d_out.poison();
    const std::size_t count =
        PPLAB_ON_DEVICE("compact", in.size(), pplab::lab07::compact(d_in.data(), d_out.data(), in.size(), 50, path));
    CheckContext context{std::string("compact returns the count to the host (") + name_of(path) + ")", in.size(),
                         kThreeKernels, "count"};
    PPLAB_EXPECT(pplab::compare_value(context, expected.size(), count));
  }
  DeviceBuffer<int> empty;
  CHECK(pplab::lab07::compact(empty.data(), empty.data(), 0, 50) == 0);
}

TEST_CASE("compact rejects too little scratch memory and too many elements") {
  DeviceBuffer<int> in(4), out(4);
  DeviceBuffer<unsigned> count(1);
  CHECK_THROWS_AS(pplab::lab07::compact_async(in.data(), out.data(), count.data(), 100000, 0, nullptr, 0),
                  std::invalid_argument);
  CHECK_THROWS_AS(pplab::lab07::compact(in.data(), out.data(), std::size_t{1} << 32, 0), std::invalid_argument);
}

}  // TEST_SUITE
