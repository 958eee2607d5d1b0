// The sampled checks of timed repeats (pplab/fresh_inputs.h, pplab/check.h,
// pplab/cpu_reference.h, pplab/sort_checks.h) on outputs made by hand: a right output
// passes, and each kind of wrong one fails.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "pplab/check.h"
#include "pplab/cpu_reference.h"
#include "pplab/fresh_inputs.h"
#include "pplab/sort_checks.h"

namespace {

// The elements of `values` at `positions`, as download_at brings them back.
template <class T>
std::vector<T> at(const std::vector<T>& values, const std::vector<std::size_t>& positions) {
  std::vector<T> picked;
  for (std::size_t i : positions) picked.push_back(values[i]);
  return picked;
}

std::vector<unsigned> keys_with_ties(std::size_t n) {
  std::vector<unsigned> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = unsigned(pplab::fresh::mix(i) % 1000);  // many equal keys
  return keys;
}

}  // namespace

TEST_CASE("sample positions: every position of a small output, a sorted sample of a large one") {
  const auto all = pplab::sample_positions(1000);
  REQUIRE(all.size() == 1000);
  CHECK(all.front() == 0);
  CHECK(all.back() == 999);
  const auto some = pplab::sample_positions(1 << 20, 4096);
  REQUIRE(some.size() == 4096);
  CHECK(std::is_sorted(some.begin(), some.end()));
  CHECK(some.back() < (1u << 20));
  // Drawn afresh each time: two samples of a large output are not the same positions.
  CHECK(pplab::sample_positions(1 << 20, 4096) != some);
}

TEST_CASE("a scan checked at sampled positions") {
  std::vector<int> in(100000);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = int(i % 4);
  const auto positions = pplab::sample_positions(in.size(), 5000);
  for (bool inclusive : {false, true}) {
    const auto whole = inclusive ? pplab::cpu::inclusive_scan(in) : pplab::cpu::exclusive_scan(in);
    const auto expected = pplab::cpu::scan_at(in, positions, inclusive);
    CHECK(pplab::matches_at("scan", positions, at(whole, positions), expected));
    // The other kind of scan is one element off everywhere it matters.
    const auto other = inclusive ? pplab::cpu::exclusive_scan(in) : pplab::cpu::inclusive_scan(in);
    CHECK_FALSE(pplab::matches_at("scan", positions, at(other, positions), expected));
  }
}

TEST_CASE("a stable sort checked at sampled positions, and what it catches") {
  const std::size_t n = 200000;
  const auto keys = keys_with_ties(n);
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](auto x, auto y) { return keys[x] < keys[y]; });
  std::vector<unsigned> sorted(n);
  for (std::size_t i = 0; i < n; ++i) sorted[i] = keys[order[i]];
  const auto positions = pplab::sample_positions(n, 2000);
  const auto got_keys = at(sorted, positions);
  const auto got_values = at(order, positions);

  CHECK(pplab::sampled::stable_sort_at(keys, positions, got_keys));
  CHECK(pplab::sampled::stable_sort_at(keys, positions, got_keys, &got_values));

  SUBCASE("the last draw's answer left in place") {
    std::vector<unsigned> other(n);  // another draw's keys, sorted
    for (std::size_t i = 0; i < n; ++i) other[i] = unsigned(pplab::fresh::mix(i + n) % 1000);
    std::sort(other.begin(), other.end());
    CHECK_FALSE(pplab::sampled::stable_sort_at(keys, positions, at(other, positions)));
  }
  SUBCASE("half of the keys sorted") {
    std::vector<unsigned> half(keys);
    std::sort(half.begin(), half.begin() + n / 2);
    CHECK_FALSE(pplab::sampled::stable_sort_at(keys, positions, at(half, positions)));
  }
  SUBCASE("the right keys, values in input order") {
    std::vector<std::uint32_t> identity(n);
    std::iota(identity.begin(), identity.end(), 0u);
    const auto wrong = at(identity, positions);
    CHECK_FALSE(pplab::sampled::stable_sort_at(keys, positions, got_keys, &wrong));
  }
  SUBCASE("equal keys with their values swapped: sorted, not stable") {
    std::vector<std::uint32_t> unstable(order);
    for (std::size_t i = 1; i < n; ++i)
      if (sorted[i] == sorted[i - 1]) std::swap(unstable[i], unstable[i - 1]), ++i;
    const auto wrong = at(unstable, positions);
    CHECK_FALSE(pplab::sampled::stable_sort_at(keys, positions, got_keys, &wrong));
  }
}

TEST_CASE("32-key segments checked at sampled positions") {
  const std::size_t n = 32 * 3000 + 5;
  std::vector<unsigned> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = unsigned(pplab::fresh::mix(i));
  std::vector<unsigned> sorted(keys);
  for (std::size_t begin = 0; begin < n; begin += 32)
    std::sort(sorted.begin() + begin, sorted.begin() + std::min(n, begin + 32));
  const auto positions = pplab::sample_positions(n, 3000);
  const auto key_at = [&](std::size_t i) { return keys[i]; };
  CHECK(pplab::sampled::segments_sorted_at(n, 32, positions, at(sorted, positions), key_at));
  std::vector<unsigned> whole(keys);
  std::sort(whole.begin(), whole.end());  // sorted as one array, not by segment
  CHECK_FALSE(pplab::sampled::segments_sorted_at(n, 32, positions, at(whole, positions), key_at));
  CHECK_FALSE(pplab::sampled::segments_sorted_at(n, 32, positions, at(keys, positions), key_at));  // unsorted
}

namespace {

// RankLookup against std::lower_bound, for every key of `probes`.
template <class K>
void rank_lookup_agrees(std::vector<K> distinct, const std::vector<K>& probes) {
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  const pplab::sampled::detail::RankLookup<K> rank(distinct);
  for (const K& key : probes) {
    INFO(key);
    CHECK(rank(key) == std::size_t(std::lower_bound(distinct.begin(), distinct.end(), key) - distinct.begin()));
  }
}

}  // namespace

TEST_CASE("sampled sort checks find a key's rank by its top bits as a binary search would") {
  std::vector<unsigned> u;
  std::vector<int> s;
  std::vector<float> f;
  for (std::uint64_t i = 0; i < 4000; ++i) {
    const std::uint64_t r = pplab::fresh::mix(i);
    u.push_back(unsigned(r));
    s.push_back(int(r >> 7) - (1 << 24));  // both signs
    float x;
    const auto bits = std::uint32_t(r) & 0xBFFFFFFFu;  // finite: the exponent is never all ones
    std::memcpy(&x, &bits, sizeof x);
    f.push_back(x);
  }
  for (unsigned extreme : {0u, 1u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu}) u.push_back(extreme);
  for (int extreme : {INT_MIN, -1, 0, 1, INT_MAX}) s.push_back(extreme);
  // -0 and +0 compare equal but differ in their bits: one of them is in the distinct keys.
  for (float extreme : {-0.0f, 0.0f, -1.0f, 1.0f, -FLT_MAX, FLT_MAX}) f.push_back(extreme);
  rank_lookup_agrees(std::vector<unsigned>(u.begin(), u.begin() + 2000), u);
  rank_lookup_agrees(std::vector<int>(s.begin(), s.begin() + 2000), s);
  rank_lookup_agrees(std::vector<float>(f.begin(), f.begin() + 2000), f);
  rank_lookup_agrees(std::vector<float>{0.0f, 2.0f}, std::vector<float>{-0.0f, 0.0f, 1.0f, -3.0f});
  rank_lookup_agrees(std::vector<float>{-0.0f, 2.0f}, std::vector<float>{-0.0f, 0.0f, 1.0f, -3.0f});
  rank_lookup_agrees(std::vector<unsigned>{}, std::vector<unsigned>{0u, 5u});
}
