// Lab 09 checks: odd-even transposition sort, starting with the lecture's 5 1 4 2 3.
// The sort does about n²/2 compare-exchanges, so sizes stop at largest_checked_size():
// 4099 on the CPU emulator, 65537 on a GPU, and the large size plus 3 when PPLAB_LARGE_N
// makes it smaller (compute-sanitizer's run, where each shared-memory access is checked).
#include <algorithm>
#include <climits>

#include "odd_even_sort.cuh"
#include "pplab/testing.h"

namespace {

using pplab::CheckContext;
using pplab::DeviceBuffer;

#ifdef PPLAB_SIM
constexpr std::size_t kMaxCheckedSize = 4099;
#else
constexpr std::size_t kMaxCheckedSize = 65537;
#endif

std::size_t largest_checked_size() { return std::min(kMaxCheckedSize, pplab::large_size() + 3); }

const pplab::Todo kAllSteps{"09.1-09.5",
                            "compare-exchange (09.1), load (09.2), phases (09.3), store (09.4), rounds (09.5)"};
const pplab::Todo kPhaseSteps{"09.1-09.4", "compare-exchange (09.1), load (09.2), phases (09.3), store (09.4)"};

// A hint from the shape of a wrong answer.
std::string hint_for(const std::vector<int>& input, const std::vector<int>& got) {
  if (!got.empty() && pplab::is_poison(got[0]))
    return "the output was never written: does the window go back to keys (09.4)?";
  if (got == input) return "the output equals the input: nothing was sorted (09.1-09.3) or no round was launched (09.5)";
  return "sorted inside each window but not across windows points at the rounds (09.5); wrong inside a "
         "window points at a missing __syncthreads() between phases (09.3)";
}

void check_sort(const std::string& check, const std::vector<int>& keys, int block_threads = pplab::lab09::kBlockThreads) {
  pplab::for_each_schedule(keys.size(), [&](const std::string& schedule) {
    DeviceBuffer<int> d_in(keys), d_out(keys.size());
    d_out.poison();
    PPLAB_ON_DEVICE("odd_even_sort", keys.size(),
                    pplab::lab09::odd_even_sort(d_in.data(), d_out.data(), keys.size(), block_threads));
    const auto got = d_out.download();
    CheckContext context{check + " (block of " + std::to_string(block_threads) + " threads)", keys.size(),
                         kAllSteps, "out", schedule, hint_for(keys, got)};
    PPLAB_EXPECT(pplab::check_sorted_permutation(context, keys, got));
    PPLAB_EXPECT(pplab::check_unchanged(context, "in", keys, d_in.download()));
  });
}

// Keys with many repeats and both int extremes, from the seed.
std::vector<int> keys_with_extremes(std::size_t n, std::uint64_t stream) {
  auto keys = pplab::random_values<int>(n, -3, 3, stream);
  for (auto& k : keys) k = k == -3 ? INT_MIN : k == 3 ? INT_MAX : k;
  return keys;
}

}  // namespace

TEST_SUITE("lab09") {

TEST_CASE("odd even sort reproduces the lecture phases for 5 1 4 2 3") {
  // The lecture's table: even phase, odd phase, even phase, odd phase.
  const std::vector<int> input = {5, 1, 4, 2, 3};
  const std::vector<std::vector<int>> after = {
      {5, 1, 4, 2, 3}, {1, 5, 2, 4, 3}, {1, 2, 5, 3, 4}, {1, 2, 3, 5, 4}, {1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}};
  for (int phases = 0; phases < int(after.size()); ++phases) {
    pplab::for_each_schedule([&](const std::string& schedule) {
      DeviceBuffer<int> d_keys(input);
      const std::size_t worked = phases > 0 ? input.size() : 0;  // zero phases: nothing to launch
      PPLAB_ON_DEVICE("odd_even_phases", worked, pplab::lab09::odd_even_phases(d_keys.data(), input.size(), phases));
      CheckContext context{"odd even sort reproduces the lecture phases: keys after " + std::to_string(phases) +
                               " phases",
                           input.size(), kPhaseSteps, "keys", schedule,
                           "phase 0 compares (0,1) (2,3), phase 1 compares (1,2) (3,4), and so on"};
      PPLAB_EXPECT(pplab::compare_arrays(context, after[phases], d_keys.download()));
    });
  }
  for (int block_threads : {1, 2, 4, 256}) check_sort("odd even sort sorts the lecture example", input, block_threads);
}

TEST_CASE("odd even sort with one thread per block runs one launch per phase") {
  // A window of 2 keys: each launch is one phase of the lecture's global odd-even sort.
  for (std::size_t n : {2, 3, 5, 8, 33, 100})
    check_sort("odd even sort with one thread per block", pplab::random_values<int>(n, -50, 50, 100 + n), 1);
}

TEST_CASE("odd even sort matches the CPU reference at edge sizes") {
  for (int block_threads : {32, 256}) {
    for (std::size_t n : pplab::edge_sizes()) {
      if (n > largest_checked_size()) continue;
      CAPTURE(n);
      check_sort("odd even sort matches the CPU reference at edge sizes",
                 pplab::random_values<int>(n, -1000000, 1000000, 200 + n), block_threads);
    }
  }
}

TEST_CASE("odd even sort handles negative keys and the int extremes") {
  check_sort("odd even sort handles the int extremes", {INT_MAX, 0, INT_MIN, -1, 1, INT_MIN, INT_MAX, -2});
  check_sort("odd even sort handles negative keys and the int extremes", keys_with_extremes(1500, 300));
  check_sort("odd even sort handles keys over the whole int range", pplab::random_full_range<int>(2049, 301), 64);
}

TEST_CASE("odd even sort handles duplicates all equal sorted and reverse sorted inputs") {
  const std::size_t n = 1537;
  std::vector<int> reversed = pplab::iota_values<int>(n, -700);
  std::reverse(reversed.begin(), reversed.end());
  check_sort("odd even sort handles many duplicates", pplab::random_values<int>(n, 0, 3, 400));
  check_sort("odd even sort handles all-equal keys", std::vector<int>(n, 7));
  check_sort("odd even sort handles already sorted keys", pplab::iota_values<int>(n, -700));
  check_sort("odd even sort handles reverse sorted keys", reversed);
  check_sort("odd even sort handles reverse sorted keys in small windows", reversed, 16);
}

TEST_CASE("odd even sort works with every block size from 1 to 1024") {
  const auto keys = pplab::random_values<int>(301, -99, 99, 500);
  for (int block_threads = 1; block_threads <= 1024; block_threads *= 2)
    check_sort("odd even sort works with every block size", keys, block_threads);
}

TEST_CASE("odd even sort matches the CPU reference on a large random input") {
  const std::size_t n = std::min(pplab::large_size(), kMaxCheckedSize) + 3;
  check_sort("odd even sort matches the CPU reference on a large random input",
             pplab::random_values<int>(n, INT_MIN, INT_MAX, 600));
}

TEST_CASE("odd even sort rejects a block size that is not a power of two") {
  DeviceBuffer<int> in(4), out(4);
  CHECK_THROWS_AS(pplab::lab09::odd_even_sort(in.data(), out.data(), 4, 100), std::invalid_argument);
  CHECK_THROWS_AS(pplab::lab09::odd_even_sort(in.data(), out.data(), 4, 2048), std::invalid_argument);
  CHECK_THROWS_AS(pplab::lab09::odd_even_phases(out.data(), pplab::lab09::kMaxPhasesKeys + 1, 1),
                  std::invalid_argument);
}

}  // TEST_SUITE
