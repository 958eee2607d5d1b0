// Lab 08 checks: gather, scatter and the inverse permutation against the CPU reference,
// starting with the lecture's sorting task done by a gather and by a scatter.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>

#include "gather_scatter.cuh"
#include "pplab/testing.h"

namespace {

using pplab::CheckContext;
using pplab::DeviceBuffer;
using Index = std::uint32_t;

const pplab::Todo kGather{"08.1", "gather: out[i] = in[map[i]]"};
const pplab::Todo kScatter{"08.2", "scatter: out[map[i]] = in[i]"};
const pplab::Todo kInverse{"08.3", "the inverse permutation: inv[perm[i]] = i"};

// ------------------------------------------------------------------------ CPU side --
template <class T>
std::vector<T> cpu_gather(const std::vector<T>& in, const std::vector<Index>& map) {
  std::vector<T> out(map.size());
  for (std::size_t i = 0; i < map.size(); ++i) out[i] = in[map[i]];
  return out;
}

// `out` starts as the output's previous contents; slots the map does not name keep them.
template <class T>
std::vector<T> cpu_scatter(const std::vector<T>& in, const std::vector<Index>& map, std::vector<T> out) {
  for (std::size_t i = 0; i < map.size(); ++i) out[map[i]] = in[i];
  return out;
}

std::vector<Index> cpu_inverse(const std::vector<Index>& perm) {
  std::vector<Index> inv(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) inv[perm[i]] = Index(i);
  return inv;
}

std::vector<Index> identity_map(std::size_t n) { return pplab::iota_values<Index>(n); }

std::vector<Index> reverse_map(std::size_t n) {
  std::vector<Index> map(n);
  for (std::size_t i = 0; i < n; ++i) map[i] = Index(n - 1 - i);
  return map;
}

std::vector<Index> random_permutation(std::size_t n, std::uint64_t stream) {
  auto map = identity_map(n);
  auto rng = pplab::make_rng(stream);
  std::shuffle(map.begin(), map.end(), rng);
  return map;
}

// ---------------------------------------------------------------------- the checks --
template <class T>
void check_gather(const std::string& check, const std::vector<T>& in, const std::vector<Index>& map) {
  const auto expected = cpu_gather(in, map);
  pplab::for_each_schedule(map.size(), [&](const std::string& schedule) {
    DeviceBuffer<T> d_in(in), d_out(map.size());
    DeviceBuffer<Index> d_map(map);
    d_out.poison();
    PPLAB_ON_DEVICE("gather", map.size(),
                    pplab::lab08::gather(d_in.data(), in.size(), d_map.data(), d_out.data(), map.size()));
    CheckContext context{check, map.size(), kGather, "out", schedule,
                         "output i comes from the input element map[i] names"};
    PPLAB_EXPECT(pplab::compare_arrays(context, expected, d_out.download()));
    PPLAB_EXPECT(pplab::check_unchanged(context, "in", in, d_in.download()));
    PPLAB_EXPECT(pplab::check_unchanged(context, "map", map, d_map.download()));
  });
}

// Scatters into an output of out_size >= map.size() slots, poisoned first: the slots
// the map names must hold their input, every other slot must keep the poison. (Floats
// only with every slot named: their poison is a NaN, which compares unequal to itself.)
template <class T>
void check_scatter(const std::string& check, const std::vector<T>& in, const std::vector<Index>& map,
                   std::size_t out_size) {
  const auto expected = cpu_scatter(in, map, std::vector<T>(out_size, pplab::poison_value<T>()));
  pplab::for_each_schedule(in.size(), [&](const std::string& schedule) {
    DeviceBuffer<T> d_in(in), d_out(out_size);
    DeviceBuffer<Index> d_map(map);
    d_out.poison();
    PPLAB_ON_DEVICE("scatter", map.size(),
                    pplab::lab08::scatter(d_in.data(), d_map.data(), d_out.data(), out_size, map.size()));
    CheckContext context{check, map.size(), kScatter, "out", schedule,
                         "input i goes to the output slot map[i] names; slots no index names stay as they were"};
    PPLAB_EXPECT(pplab::compare_arrays(context, expected, d_out.download()));
    PPLAB_EXPECT(pplab::check_unchanged(context, "in", in, d_in.download()));
    PPLAB_EXPECT(pplab::check_unchanged(context, "map", map, d_map.download()));
  });
}

void check_inverse(const std::string& check, const std::vector<Index>& perm) {
  const auto expected = cpu_inverse(perm);
  pplab::for_each_schedule(perm.size(), [&](const std::string& schedule) {
    DeviceBuffer<Index> d_perm(perm), d_inv(perm.size());
    d_inv.poison();
    PPLAB_ON_DEVICE("inverse_permutation", perm.size(),
                    pplab::lab08::inverse_permutation(d_perm.data(), d_inv.data(), perm.size()));
    CheckContext context{check, perm.size(), kInverse, "inv", schedule,
                         "perm sends i to perm[i], so the inverse sends perm[i] back to i"};
    PPLAB_EXPECT(pplab::compare_arrays(context, expected, d_inv.download()));
    PPLAB_EXPECT(pplab::check_unchanged(context, "perm", perm, d_perm.download()));
  });
}

// Expects `call` to throw std::invalid_argument whose message names all of `words`,
// without writing the (poisoned) output.
template <class T, class Call>
void check_rejects(const std::string& what, DeviceBuffer<T>& out, const std::vector<std::string>& words, Call call) {
  CAPTURE(what);
  out.poison();
  std::string message;
  try {
    call();
  } catch (const std::invalid_argument& error) {
    message = error.what();
  }
  CHECK_MESSAGE(!message.empty(), what << " did not throw std::invalid_argument for an index out of range");
  for (const auto& word : words)
    CHECK_MESSAGE(message.find(word) != std::string::npos, "the message \"" << message << "\" should name " << word);
  const auto after = out.download();
  CHECK_MESSAGE(std::all_of(after.begin(), after.end(), [](const T& v) { return pplab::is_poison(v); }),
                what << " wrote its output although the index check failed (check before launching)");
}

}  // namespace

TEST_SUITE("lab08") {

TEST_CASE("gather and scatter put the lecture array 5 1 4 2 3 in order") {
  // Gather: output slot i names the input it takes (the smallest, 1, is in[1]; then 2 is
  // in[3], 3 is in[4], 4 is in[2], 5 is in[0]). Scatter: input i names the slot it goes
  // to (5 goes to slot 4, 1 to slot 0, ...). The two maps are inverse permutations.
  const std::vector<int> in = {5, 1, 4, 2, 3};
  const std::vector<Index> gather_map = {1, 3, 4, 2, 0};
  const std::vector<Index> scatter_map = {4, 0, 3, 1, 2};
  const std::vector<int> sorted = {1, 2, 3, 4, 5};
  REQUIRE(cpu_gather(in, gather_map) == sorted);
  REQUIRE(cpu_scatter(in, scatter_map, std::vector<int>(5)) == sorted);
  REQUIRE(cpu_inverse(gather_map) == scatter_map);
  check_gather("gather puts the lecture array in order", in, gather_map);
  check_scatter("scatter puts the lecture array in order", in, scatter_map, in.size());
  check_inverse("the inverse of the lecture's gather map is its scatter map", gather_map);
}

TEST_CASE("gather and scatter with the identity map copy the input") {
  for (std::size_t n : pplab::edge_sizes()) {
    CAPTURE(n);
    const auto in = pplab::random_values<int>(n, -1000, 1000, 800 + n);
    check_gather("gather with the identity map copies the input", in, identity_map(n));
    check_scatter("scatter with the identity map copies the input", in, identity_map(n), n);
  }
}

TEST_CASE("gather and scatter with the reversing map reverse the input") {
  for (std::size_t n : pplab::edge_sizes()) {
    CAPTURE(n);
    const auto in = pplab::random_values<int>(n, -1000, 1000, 810 + n);
    check_gather("gather with the reversing map reverses the input", in, reverse_map(n));
    check_scatter("scatter with the reversing map reverses the input", in, reverse_map(n), n);
  }
}

TEST_CASE("gather and scatter match the CPU reference with a random permutation") {
  for (std::size_t n : pplab::edge_sizes()) {
    CAPTURE(n);
    const auto in = pplab::random_values<int>(n, -1000000, 1000000, 820 + n);
    check_gather("gather with a random permutation", in, random_permutation(n, 830 + n));
    check_scatter("scatter of a random permutation", in, random_permutation(n, 840 + n), n);
  }
}

TEST_CASE("gather with repeated indices copies one input to many outputs") {
  // More outputs than inputs (every input used about 150 times), and fewer.
  for (std::size_t in_size : {std::size_t(1), std::size_t(7), std::size_t(5000)}) {
    CAPTURE(in_size);
    const auto in = pplab::random_values<int>(in_size, -1000, 1000, 850 + in_size);
    const auto map = pplab::random_values<Index>(1025, 0, Index(in_size - 1), 860 + in_size);
    check_gather("gather with repeated indices", in, map);
  }
}

TEST_CASE("scatter leaves the output slots no index names untouched") {
  // 1000 inputs to distinct random slots of a 4099-slot output.
  const std::size_t n = 1000, out_size = 4099;
  auto slots = random_permutation(out_size, 870);
  slots.resize(n);
  check_scatter("scatter leaves the output slots no index names untouched",
                pplab::random_values<int>(n, -1000, 1000, 871), slots, out_size);
}

TEST_CASE("gather and scatter move floats bit for bit") {
  const std::size_t n = 4099;
  auto in = pplab::random_values<float>(n, -1.0f, 1.0f, 880);
  in[5] = -0.0f;
  in[6] = std::numeric_limits<float>::denorm_min();
  check_gather("gather of floats", in, random_permutation(n, 881));
  check_scatter("scatter of floats", in, random_permutation(n, 882), n);
}

TEST_CASE("inverse permutation matches the CPU reference") {
  for (std::size_t n : pplab::edge_sizes()) {
    CAPTURE(n);
    check_inverse("inverse permutation of a random permutation", random_permutation(n, 890 + n));
    check_inverse("inverse permutation of the reversing permutation", reverse_map(n));
  }
}

TEST_CASE("the inverse of the inverse is the original permutation") {
  const std::size_t n = 65537;
  const auto perm = random_permutation(n, 900);
  pplab::for_each_schedule(n, [&](const std::string& schedule) {
    DeviceBuffer<Index> d_perm(perm), d_inv(n), d_back(n);
    d_inv.poison();
    d_back.poison();
    PPLAB_ON_DEVICE("inverse_permutation", n, pplab::lab08::inverse_permutation(d_perm.data(), d_inv.data(), n));
    PPLAB_ON_DEVICE("inverse_permutation", n, pplab::lab08::inverse_permutation(d_inv.data(), d_back.data(), n));
    CheckContext context{"the inverse of the inverse is the original permutation", n, kInverse, "inverse of inv",
                         schedule};
    PPLAB_EXPECT(pplab::compare_arrays(context, perm, d_back.download()));
  });
}

TEST_CASE("gather scatter and inverse permutation match the CPU reference on a large random input") {
  const std::size_t n = pplab::large_size() + 3;
  const auto in = pplab::random_values<int>(n, -1000000, 1000000, 910);
  const auto perm = random_permutation(n, 911);
  check_gather("gather on a large random input", in, perm);
  check_scatter("scatter on a large random input", in, perm, n);
  check_inverse("inverse permutation on a large random input", perm);
}

TEST_CASE("an index out of range is rejected before launching with its position and value") {
  // map[3] = 10 is out of range for 10 inputs; so is map[6] = 99, but map[3] comes first.
  const std::vector<Index> map = {0, 7, 2, 10, 4, 5, 99, 1};
  DeviceBuffer<Index> d_map(map);
  DeviceBuffer<int> d_in(pplab::iota_values<int>(10)), d_out(10);
  check_rejects("gather", d_out, {"map[3]", "10", "below 10"},
                [&] { pplab::lab08::gather(d_in.data(), 10, d_map.data(), d_out.data(), map.size()); });
  check_rejects("scatter", d_out, {"map[3]", "10", "below 10"},
                [&] { pplab::lab08::scatter(d_in.data(), d_map.data(), d_out.data(), 10, map.size()); });
  DeviceBuffer<Index> d_inv(map.size());
  check_rejects("inverse_permutation", d_inv, {"perm[3]", "10", "below 8"},
                [&] { pplab::lab08::inverse_permutation(d_map.data(), d_inv.data(), map.size()); });
  // The last element alone out of range, in a map spanning several blocks.
  auto long_map = random_permutation(4099, 920);
  long_map.back() = 4099;
  DeviceBuffer<Index> d_long_map(long_map);
  DeviceBuffer<int> d_long_in(4099), d_long_out(4099);
  check_rejects("gather of 4099", d_long_out, {"map[4098]", "4099", "below 4099"}, [&] {
    pplab::lab08::gather(d_long_in.data(), 4099, d_long_map.data(), d_long_out.data(), 4099);
  });
}

TEST_CASE("gather scatter and inverse permutation of zero elements do nothing") {
  DeviceBuffer<int> empty;
  DeviceBuffer<Index> no_map;
  PPLAB_ON_DEVICE("gather", 0, pplab::lab08::gather(empty.data(), 0, no_map.data(), empty.data(), 0));
  PPLAB_ON_DEVICE("scatter", 0, pplab::lab08::scatter(empty.data(), no_map.data(), empty.data(), 0, 0));
  PPLAB_ON_DEVICE("inverse_permutation", 0, pplab::lab08::inverse_permutation(no_map.data(), no_map.data(), 0));
}

}  // TEST_SUITE
