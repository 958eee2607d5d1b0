// Lab 05 checks: the naive scan against the CPU reference, starting with the lecture's
// "A B C D E" figure.
#include <cmath>
#include <limits>

#include "naive_scan.cuh"
#include "pplab/testing.h"

namespace {

using pplab::CheckContext;
using pplab::DeviceBuffer;

enum class Kind { inclusive, exclusive };

std::string name_of(Kind kind) { return kind == Kind::inclusive ? "inclusive" : "exclusive"; }

template <class T>
void gpu_scan(Kind kind, const T* d_in, T* d_out, std::size_t n, int block_threads) {
  if (kind == Kind::inclusive) PPLAB_ON_DEVICE("inclusive_scan", n, pplab::lab05::inclusive_scan(d_in, d_out, n, block_threads));
  else PPLAB_ON_DEVICE("exclusive_scan", n, pplab::lab05::exclusive_scan(d_in, d_out, n, block_threads));
}

template <class T>
std::vector<T> cpu_scan(Kind kind, const std::vector<T>& in) {
  return kind == Kind::inclusive ? pplab::cpu::inclusive_scan(in) : pplab::cpu::exclusive_scan(in);
}

// The step most likely at fault, from where the first wrong element is.
struct Diagnosis {
  pplab::Todo todo;
  std::string hint;
};

template <class T>
Diagnosis diagnose(const std::vector<T>& expected, const std::vector<T>& got, std::size_t tile,
                   pplab::Tolerance tolerance) {
  std::size_t first = 0, unwritten = 0;
  while (first < got.size() && pplab::detail::element_matches(expected[first], got[first], tolerance)) ++first;
  for (const T& v : got) unwritten += pplab::is_poison(v) ? 1 : 0;
  if (first == got.size()) return {};
  if (unwritten == got.size())
    return {{"05.1-05.3", "load (05.1), the Hillis-Steele steps (05.2), write (05.3)"},
            "nothing was written: each thread loads its element (05.1), the steps scan the tile (05.2), "
            "and each thread stores its result (05.3)"};
  if (first < tile)
    return {{"05.2", "the Hillis-Steele steps with double buffering"},
            "the first tile is already wrong: check the offsets 1, 2, 4, ..., which copy of the buffer "
            "each step reads and writes, and the barrier after every step (and 05.3 for the exclusive "
            "shift)"};
  return {{"05.3-05.4", "the tile totals (05.3) and adding the tile offsets back (05.4)"},
          "the first tile is right and tile " + std::to_string(first / tile) +
              " is wrong: the last thread stores each tile's total (05.3) and every element adds "
              "its tile's offset (05.4)"};
}

// Scans `in` on the device (under every sim schedule) and compares with the CPU.
template <class T>
void check_scan(const std::string& check, Kind kind, const std::vector<T>& in,
                int block_threads = pplab::lab05::kBlockThreads, pplab::Tolerance tolerance = {}) {
  const auto expected = cpu_scan(kind, in);
  pplab::for_each_schedule(in.size(), [&](const std::string& schedule) {
    DeviceBuffer<T> d_in(in), d_out(in.size());
    d_out.poison();
    gpu_scan(kind, d_in.data(), d_out.data(), in.size(), block_threads);
    const auto got = d_out.download();
    const Diagnosis diagnosis = diagnose(expected, got, std::size_t(block_threads), tolerance);
    CheckContext context{check + " (" + name_of(kind) + ", blocks of " + std::to_string(block_threads) + ")",
                         in.size(), diagnosis.todo, "out", schedule, diagnosis.hint};
    PPLAB_EXPECT(pplab::compare_arrays(context, expected, got, tolerance));
    PPLAB_EXPECT(pplab::check_unchanged(context, "in", in, d_in.download()));
  });
}

// Float prefix sums of positive values, added in a tree order rather than left to
// right: each output is within a few dozen roundings of its own magnitude.
pplab::Tolerance float_scan_tolerance(std::size_t n) {
  const double eps = std::numeric_limits<float>::epsilon();
  return {64 * eps, eps * (4 * std::log2(double(n) + 2) + 16)};
}

}  // namespace

TEST_SUITE("lab05") {

TEST_CASE("naive scan reproduces the lecture example A B C D E") {
  // A = 1, B = 10, C = 100, D = 1000, E = 10000: each digit of a sum says which letters it holds.
  const std::vector<int> in = {1, 10, 100, 1000, 10000};
  REQUIRE(pplab::cpu::inclusive_scan(in) == std::vector<int>{1, 11, 111, 1111, 11111});
  REQUIRE(pplab::cpu::exclusive_scan(in) == std::vector<int>{0, 1, 11, 111, 1111});
  check_scan("naive scan reproduces the lecture example A B C D E", Kind::inclusive, in, 8);
  check_scan("naive scan reproduces the lecture example A B C D E", Kind::exclusive, in, 8);
}

TEST_CASE("inclusive naive scan matches the CPU reference at edge sizes") {
  for (int block_threads : {32, 256}) {
    for (std::size_t n : pplab::edge_sizes()) {
      CAPTURE(n);
      check_scan("inclusive naive scan matches the CPU reference at edge sizes", Kind::inclusive,
                 pplab::random_values<int>(n, -1000, 1000, 100 + n), block_threads);
    }
  }
}

TEST_CASE("exclusive naive scan matches the CPU reference at edge sizes") {
  for (int block_threads : {32, 256}) {
    for (std::size_t n : pplab::edge_sizes()) {
      CAPTURE(n);
      check_scan("exclusive naive scan matches the CPU reference at edge sizes", Kind::exclusive,
                 pplab::random_values<int>(n, -1000, 1000, 200 + n), block_threads);
    }
  }
}

TEST_CASE("naive scan works with every block size from 8 to 1024") {
  const auto in = pplab::random_values<int>(5003, -50, 50, 300);
  for (int block_threads = 8; block_threads <= 1024; block_threads *= 2) {
    check_scan("naive scan works with every block size", Kind::inclusive, in, block_threads);
    check_scan("naive scan works with every block size", Kind::exclusive, in, block_threads);
  }
}

TEST_CASE("naive scan adds tile offsets over several levels") {
  // Tiles of 8: 5000 elements -> 625 tile totals -> 79 -> 10 -> 2 -> one tile.
  const auto in = pplab::random_values<int>(5000, 0, 9, 400);
  check_scan("naive scan adds tile offsets over several levels", Kind::inclusive, in, 8);
  check_scan("naive scan adds tile offsets over several levels", Kind::exclusive, in, 8);
}

TEST_CASE("naive scan of small integer floats is exact") {
  // Every prefix sum is an integer below 2^24, so every order of additions is exact.
  const auto ints = pplab::random_values<int>(65537, 0, 3, 500);
  const std::vector<float> in(ints.begin(), ints.end());
  check_scan("naive scan of small integer floats is exact", Kind::inclusive, in);
  check_scan("naive scan of small integer floats is exact", Kind::exclusive, in);
}

TEST_CASE("naive scan of random floats is within a tolerance") {
  const std::size_t n = 100003;
  const auto in = pplab::random_values<float>(n, 0.0f, 1.0f, 600);
  check_scan("naive scan of random floats is within a tolerance", Kind::inclusive, in,
             pplab::lab05::kBlockThreads, float_scan_tolerance(n));
  check_scan("naive scan of random floats is within a tolerance", Kind::exclusive, in,
             pplab::lab05::kBlockThreads, float_scan_tolerance(n));
}

TEST_CASE("naive scan matches the CPU reference on a large random input") {
  const std::size_t n = pplab::large_size() + 7;
  const auto in = pplab::random_values<int>(n, -1000, 1000, 700);
  check_scan("naive scan matches the CPU reference on a large random input", Kind::inclusive, in);
  check_scan("naive scan matches the CPU reference on a large random input", Kind::exclusive, in);
}

TEST_CASE("naive scan works in place") {
  const auto in = pplab::random_values<int>(4099, -1000, 1000, 800);
  for (Kind kind : {Kind::inclusive, Kind::exclusive}) {
    pplab::for_each_schedule(in.size(), [&](const std::string& schedule) {
      DeviceBuffer<int> d_data(in);
      gpu_scan(kind, d_data.data(), d_data.data(), in.size(), 64);
      const auto expected = cpu_scan(kind, in);
      const auto got = d_data.download();
      const Diagnosis diagnosis = diagnose(expected, got, 64, {});
      CheckContext context{"naive scan works in place (" + name_of(kind) + ")", in.size(), diagnosis.todo,
                           "data", schedule, diagnosis.hint};
      PPLAB_EXPECT(pplab::compare_arrays(context, expected, got));
    });
  }
}

TEST_CASE("naive scan of zero elements writes nothing") {
  DeviceBuffer<int> d_in(std::vector<int>{7}), d_out(1);
  d_out.poison();
  gpu_scan(Kind::inclusive, d_in.data(), d_out.data(), 0, 256);
  gpu_scan(Kind::exclusive, d_in.data(), d_out.data(), 0, 256);
  CHECK(pplab::is_poison(d_out.download()[0]));
  gpu_scan<int>(Kind::inclusive, nullptr, nullptr, 0, 256);  // no array at all is fine too
}

TEST_CASE("naive scan rejects a block size that is not a power of two") {
  DeviceBuffer<int> d_in(4), d_out(4);
  CHECK_THROWS_AS(pplab::lab05::inclusive_scan(d_in.data(), d_out.data(), 4, 100), std::invalid_argument);
  CHECK_THROWS_AS(pplab::lab05::exclusive_scan(d_in.data(), d_out.data(), 4, 2048), std::invalid_argument);
}

}  // TEST_SUITE
