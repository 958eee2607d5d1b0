// Lab 10 checks: merge sort of keys and key-value pairs, starting with the lecture's merge.
// A sort must be ordered, a permutation of its input, and (for pairs) stable: values are
// the input positions, so any reordering of equal keys shows.
#include <algorithm>
#include <climits>
#include <cstdint>

#include "merge_sort.cuh"
#include "pplab/testing.h"

namespace {

using pplab::CheckContext;
using pplab::DeviceBuffer;
using pplab::lab10::MergeKernel;
using pplab::lab10::SortTile;

const pplab::Todo kMergeSteps{"10.1-10.2 and 10.5",
                              "the merge path (10.1), the serial merge (10.2), the merge pass that runs them (10.5)"};
const pplab::Todo kAllSteps{"10.1-10.6",
                            "merge path (10.1), serial merge (10.2), register sort (10.3), block merges (10.4), "
                            "global merge pass (10.5), passes (10.6)"};
const pplab::Todo kBlockSortSteps{"10.3-10.4", "the register sort (10.3) and the block merges (10.4)"};
const pplab::Todo kPassSteps{"10.5-10.6", "the global merge pass (10.5) and the passes (10.6)"};
const pplab::Todo kTieSteps{"10.1-10.3", "the tie rules: merge path (10.1), serial merge (10.2), register sort (10.3)"};
const pplab::Todo kBlockValueSteps{"10.3-10.4", "the values that follow the keys in the register sort (10.3) and the "
                                                "block merges (10.4)"};
const pplab::Todo kPassValueSteps{"10.5", "the global merge pass (10.5): values_out[first + k] from the key's source"};
const pplab::Todo kTiledSteps{"10.7-10.9", "stretch: tile splits (10.7), staged merge (10.8), switch on (10.9)"};

std::string name_of(MergeKernel merge) {
  switch (merge) {
    case MergeKernel::global: return "global merge passes";
    case MergeKernel::tiled: return "tiled merge passes";
    case MergeKernel::tiled_splits_first: return "tiled merge passes, splits found first";
    case MergeKernel::best: return "best merge passes";
  }
  return "?";
}

// Keys per tile of the block sort that sort_keys (pairs false) or sort_pairs runs with
// `tile` on this device (the lab's sort_block_threads, from the rule in merge_sort.cuh).
std::size_t sort_tile_items(bool pairs, SortTile tile) {
  return std::size_t(pplab::lab10::sort_block_threads(pairs, tile)) * pplab::lab10::kItemsPerThread;
}

std::string name_of(std::size_t sort_tile, SortTile tile) {
  return std::to_string(sort_tile / pplab::lab10::kItemsPerThread) + "-thread block sort" +
         (tile == SortTile::small ? std::string(" (SortTile::small)") : std::string());
}

// Whether this call merged with the stretch kernel: until 10.9 switches it on, "tiled"
// and "best" run the global merge passes, whose steps are the ones to blame.
bool runs_tiled(MergeKernel merge) { return merge != MergeKernel::global && pplab::lab10::tiled_merge_available(); }

struct Diagnosis {
  pplab::Todo todo;
  std::string hint;
};

// The step a wrong sort points to, from the shape of its output: keys in order inside
// each tile but not across them is the merge passes' doing; one tile alone is the block
// sort's; right keys with values out of order among equal keys is a tie rule; right keys
// with values of other keys is the value bookkeeping, of the block sort when one tile
// holds everything, else (first suspect) of the merge pass that copies them.
enum class Values { not_checked, follow_keys, reordered_among_equal_keys, doubled_among_equal_keys, from_other_keys };
template <class Key>
Diagnosis diagnose_sort(const std::vector<Key>& got_keys, std::size_t n, MergeKernel merge, std::size_t tile,
                        bool unwritten, bool keys_right = false, Values values = Values::not_checked) {
  // tile: the keys one block of the block sort sorts
  const pplab::Todo passes = runs_tiled(merge) ? kTiledSteps : kPassSteps;
  if (keys_right && values == Values::from_other_keys) {
    if (n <= tile)
      return {kBlockValueSteps, "the keys are sorted but some values belong to other keys: n fits in one tile, so the "
                                "block sort moved a key without its value (source[] in 10.3 and 10.4)"};
    return {runs_tiled(merge) ? kTiledSteps : kPassValueSteps,
            "the keys are sorted but some values belong to other keys: a merge pass copied a value from the wrong "
            "place; it is values_in[pair.begin + source[k]], the key's own input position within its pair"};
  }
  if (keys_right && values == Values::doubled_among_equal_keys)
    return {kTieSteps,
            "the keys are sorted but among equal keys some values appear twice and others not at all: two steps "
            "broke a tie differently, so a split and the merge after it disagree about which equal key comes "
            "first. Ties go to a in all three: merge_path takes a's key when it is <= b's (10.1), serial_merge "
            "takes a on equal keys (10.2), the register sort swaps only on a strictly greater key (10.3)"};
  if (keys_right)
    return {kTieSteps,
            "the keys are sorted but equal keys' values are out of input order: a tie was broken the wrong way. "
            "Ties go to a: merge_path takes a's key when it is <= b's (10.1), serial_merge takes a on equal "
            "keys (10.2), and the register sort swaps only when the left key is strictly greater (10.3)"};
  if (unwritten)
    return {kAllSteps, "some outputs were never written: the passes ping-pong so the last one lands in the output (10.6)"};
  if (n <= tile)
    return {kBlockSortSteps, "n fits in one tile, so only the block sort runs: the register sort (10.3) and the block "
                             "merges (10.4), with a barrier before each round"};
  if (pplab::patterns::tiles_sorted_not_merged(got_keys, tile))
    return {passes, "each tile of " + std::to_string(tile) + " keys is sorted but the tiles are not merged: " +
                        (runs_tiled(merge) ? std::string("the tiled merge pass (10.7, 10.8)")
                                           : std::string("the merge pass (10.5) and the ping-pong of passes (10.6)"))};
  return {kAllSteps, "some tile is itself out of order, so the block sort (10.3, 10.4) is wrong for this input; "
                     "check it first, then the merges"};
}

template <class Key>
void check_sort_keys(const std::string& check, const std::vector<Key>& keys, MergeKernel merge = MergeKernel::best,
                     SortTile tile = SortTile::best) {
  const std::size_t sort_tile = sort_tile_items(false, tile);
  const std::string sort_name = name_of(sort_tile, tile);
  pplab::for_each_schedule(keys.size(), [&](const std::string& schedule) {
    DeviceBuffer<Key> d_in(keys), d_out(keys.size());
    d_out.poison();
    PPLAB_ON_DEVICE("sort_keys", keys.size(),
                    pplab::lab10::sort_keys(d_in.data(), d_out.data(), keys.size(), 0, merge, tile));
    const auto got = d_out.download();
    const bool unwritten = std::any_of(got.begin(), got.end(), [](Key k) { return pplab::is_poison(k); });
    const Diagnosis diagnosis = diagnose_sort(got, keys.size(), merge, sort_tile, unwritten);
    CheckContext context{check + " (sort_keys, " + sort_name + ", " + name_of(merge) + ")", keys.size(),
                         diagnosis.todo, "keys_out", schedule, diagnosis.hint};
    PPLAB_EXPECT(pplab::check_sorted_permutation(context, keys, got));
    PPLAB_EXPECT(pplab::check_unchanged(context, "keys_in", keys, d_in.download()));
  });
}

template <class Key>
void check_sort_pairs(const std::string& check, const std::vector<Key>& keys, MergeKernel merge = MergeKernel::best,
                      SortTile tile = SortTile::best) {
  const auto values = pplab::iota_values<std::uint32_t>(keys.size());  // input positions: stability shows
  const std::size_t sort_tile = sort_tile_items(true, tile);
  const std::string sort_name = name_of(sort_tile, tile);
  pplab::for_each_schedule(keys.size(), [&](const std::string& schedule) {
    DeviceBuffer<Key> d_keys_in(keys), d_keys_out(keys.size());
    DeviceBuffer<std::uint32_t> d_values_in(values), d_values_out(keys.size());
    d_keys_out.poison();
    d_values_out.poison();
    PPLAB_ON_DEVICE("sort_pairs", keys.size(),
                    pplab::lab10::sort_pairs(d_keys_in.data(), d_values_in.data(), d_keys_out.data(),
                                             d_values_out.data(), keys.size(), 0, merge, tile));
    const auto got_keys = d_keys_out.download();
    const auto got_values = d_values_out.download();
    const bool unwritten = std::any_of(got_values.begin(), got_values.end(),
                                       [](std::uint32_t v) { return pplab::is_poison(v); });
    std::vector<Key> sorted = keys;
    std::stable_sort(sorted.begin(), sorted.end());
    std::vector<std::uint32_t> stable_values(keys.size());  // the input positions in stable order
    for (std::size_t i = 0; i < keys.size(); ++i) stable_values[i] = static_cast<std::uint32_t>(i);
    std::stable_sort(stable_values.begin(), stable_values.end(),
                     [&](std::uint32_t x, std::uint32_t y) { return keys[x] < keys[y]; });
    const bool own_keys = std::all_of(got_values.begin(), got_values.end(), [&, i = std::size_t(0)](std::uint32_t v) mutable {
      return v < keys.size() && i < got_keys.size() && keys[v] == got_keys[i++];  // each value is an equal key's
    });
    const Values following = got_values == stable_values ? Values::follow_keys
                             : pplab::patterns::values_reordered_among_equal_keys(got_keys, stable_values, got_values)
                                 ? Values::reordered_among_equal_keys
                             : own_keys ? Values::doubled_among_equal_keys
                                        : Values::from_other_keys;
    const Diagnosis diagnosis =
        diagnose_sort(got_keys, keys.size(), merge, sort_tile, unwritten, got_keys == sorted, following);
    CheckContext context{check + " (sort_pairs, " + sort_name + ", " + name_of(merge) + ")", keys.size(),
                         diagnosis.todo, "keys_out", schedule, diagnosis.hint};
    PPLAB_EXPECT(pplab::check_stable_pairs(context, keys, values, got_keys, got_values));
    PPLAB_EXPECT(pplab::check_unchanged(context, "keys_in", keys, d_keys_in.download()));
    PPLAB_EXPECT(pplab::check_unchanged(context, "values_in", values, d_values_in.download()));
  });
}

template <class Key>
void check_merge(const std::string& check, std::vector<Key> a, std::vector<Key> b, MergeKernel merge) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::vector<Key> expected(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), expected.begin());
  pplab::for_each_schedule(expected.size(), [&](const std::string& schedule) {
    DeviceBuffer<Key> d_a(a), d_b(b), d_out(expected.size());
    d_out.poison();
    PPLAB_ON_DEVICE("merge_keys", expected.size(),
                    pplab::lab10::merge_keys(d_a.data(), a.size(), d_b.data(), b.size(), d_out.data(), 0, merge));
    CheckContext context{check + " (" + std::to_string(a.size()) + " + " + std::to_string(b.size()) + " keys, " +
                             name_of(merge) + ")",
                         expected.size(), runs_tiled(merge) ? kTiledSteps : kMergeSteps, "out", schedule,
                         "each thread's share starts where the merge path crosses its diagonal: " +
                             std::string("ties go to a, and a thread stops after its ITEMS keys")};
    PPLAB_EXPECT(pplab::compare_arrays(context, expected, d_out.download()));
    PPLAB_EXPECT(pplab::check_unchanged(context, "a", a, d_a.download()));
    PPLAB_EXPECT(pplab::check_unchanged(context, "b", b, d_b.download()));
  });
}

// Keys with long runs of equal values.
template <class Key>
std::vector<Key> few_distinct(std::size_t n, std::uint64_t stream) {
  return pplab::random_values<Key>(n, Key(0), Key(15), stream);
}

}  // namespace

TEST_SUITE("lab10") {

TEST_CASE("merge keys reproduces the lecture example") {
  // A = 0 3 5 8 9 and B = 1 2 4 6 7 merge into 0 1 2 ... 9.
  for (MergeKernel merge : {MergeKernel::global, MergeKernel::best})
    check_merge<int>("merge keys reproduces the lecture example", {0, 3, 5, 8, 9}, {1, 2, 4, 6, 7}, merge);
  check_sort_keys<int>("sort keys sorts the lecture example", {0, 3, 5, 8, 9, 1, 2, 4, 6, 7});
}

TEST_CASE("merge keys matches std merge for runs of unequal sizes") {
  const std::size_t sizes[][2] = {{0, 0}, {0, 5}, {5, 0}, {1, 1}, {3, 4000}, {4000, 3}, {4352, 4352}, {9000, 70001}};
  for (MergeKernel merge : {MergeKernel::global, MergeKernel::tiled, MergeKernel::tiled_splits_first}) {
    for (const auto& size : sizes) {
      check_merge("merge keys matches std merge", few_distinct<int>(size[0], 10 + size[0]),
                  few_distinct<int>(size[1], 20 + size[1]), merge);
    }
    check_merge("merge keys matches std merge", pplab::random_full_range<unsigned>(20000, 30),
                pplab::random_full_range<unsigned>(7000, 31), merge);
  }
}

TEST_CASE("sort keys matches the CPU reference at edge sizes") {
  for (std::size_t n : pplab::edge_sizes()) {
    CAPTURE(n);
    check_sort_keys("sort keys matches the CPU reference at edge sizes", pplab::random_full_range<int>(n, 100 + n));
    check_sort_keys("sort keys matches the CPU reference at edge sizes",
                    pplab::random_full_range<unsigned>(n, 200 + n));
  }
}

TEST_CASE("sort pairs is stable with many duplicate keys") {
  for (std::size_t n : pplab::edge_sizes()) {
    CAPTURE(n);
    check_sort_pairs("sort pairs is stable with many duplicate keys", few_distinct<int>(n, 300 + n));
  }
  check_sort_pairs("sort pairs is stable with many duplicate keys", few_distinct<unsigned>(100003, 399));
  check_sort_pairs("sort pairs is stable with all-equal keys", std::vector<unsigned>(30000, 5u));
}

TEST_CASE("sort keys handles duplicates all equal sorted and reverse sorted inputs") {
  const std::size_t n = 150001;  // 9 sort tiles of 17408 keys and four merge passes (18 and five of 8704)
  std::vector<int> reversed = pplab::iota_values<int>(n, -25000);
  std::reverse(reversed.begin(), reversed.end());
  check_sort_keys("sort keys handles many duplicates", few_distinct<int>(n, 400));
  check_sort_keys("sort keys handles all-equal keys", std::vector<int>(n, -3));
  check_sort_keys("sort keys handles already sorted keys", pplab::iota_values<int>(n, -25000));
  check_sort_keys("sort keys handles reverse sorted keys", reversed);
  check_sort_pairs("sort pairs handles reverse sorted keys", reversed);
}

TEST_CASE("sort keys handles the extremes of int and unsigned keys") {
  // The block sort pads a partial tile with the largest key: real largest keys must stay.
  check_sort_keys<int>("sort keys handles the int extremes", {INT_MAX, 0, INT_MIN, -1, 1, INT_MIN, INT_MAX, -2});
  check_sort_keys<unsigned>("sort keys handles the unsigned extremes", {UINT_MAX, 0u, 1u, UINT_MAX, 0u, 2147483648u});
  for (std::size_t n : {std::size_t(1000), std::size_t(20000)}) {
    auto ints = pplab::random_values<int>(n, -2, 2, 500 + n);
    for (auto& k : ints) k = k == -2 ? INT_MIN : k == 2 ? INT_MAX : k;
    auto uints = pplab::random_values<unsigned>(n, 0u, 3u, 600 + n);
    for (auto& k : uints) k = k == 3u ? UINT_MAX : k;
    check_sort_keys("sort keys handles the int extremes", ints);
    check_sort_pairs("sort pairs handles the int extremes", ints);
    check_sort_keys("sort keys handles the unsigned extremes", uints);
    check_sort_pairs("sort pairs handles the unsigned extremes", uints);
  }
}

// Sizes that follow the block sort's tile (what sort_keys, pairs false, or sort_pairs runs
// with `tile` on this device): just past one sort tile (one pass, a partial second run),
// past four merge tiles of the second run, and eight sort tiles and more (four passes, a
// partial last run; 150001 keys for the 17408-key tile).
std::vector<std::size_t> merge_pass_sizes(bool pairs, SortTile tile = SortTile::best) {
  const std::size_t sort_tile = sort_tile_items(pairs, tile);
  return {sort_tile + 1, sort_tile + 4 * pplab::lab10::kTileItems + 1, 8 * sort_tile + 10737};
}

TEST_CASE("sort keys with the global merge passes matches the CPU reference") {
  for (std::size_t n : merge_pass_sizes(false))
    check_sort_keys("sort keys with the global merge passes", pplab::random_full_range<int>(n, 700 + n),
                    MergeKernel::global);
  for (std::size_t n : merge_pass_sizes(true))
    check_sort_pairs("sort pairs with the global merge passes", few_distinct<unsigned>(n, 800 + n),
                     MergeKernel::global);
}

TEST_CASE("sort keys with the tiled merge passes matches the CPU reference") {
  // Each block finds its own splits (few tiles), or a kernel finds them all first (what
  // runs for more than kWarpSearchTiles tiles).
  for (MergeKernel merge : {MergeKernel::tiled, MergeKernel::tiled_splits_first}) {
    for (std::size_t n : merge_pass_sizes(false))
      check_sort_keys("sort keys with the tiled merge passes", pplab::random_full_range<int>(n, 900 + n), merge);
    for (std::size_t n : merge_pass_sizes(true))
      check_sort_pairs("sort pairs with the tiled merge passes", few_distinct<unsigned>(n, 1000 + n), merge);
  }
}

TEST_CASE("the block sort takes 1024 threads where its tile fits the device's shared memory") {
  // The rule of merge_sort.cuh against the opt-in shared memory of the GPUs the lab runs on.
  using pplab::lab10::kSmallSortBlockThreads;
  using pplab::lab10::kSortBlockThreads;
  using pplab::lab10::sort_block_threads_for;
  struct Gpu {
    const char* name;
    std::size_t optin_bytes;  // cudaDevAttrMaxSharedMemoryPerBlockOptin
    int keys, pairs;          // the block sort's threads
  };
  const Gpu gpus[] = {{"T4 (sm_75)", 65536, kSmallSortBlockThreads, kSmallSortBlockThreads},
                      {"V100 (sm_70)", 98304, kSortBlockThreads, kSmallSortBlockThreads},
                      {"A10, L4, RTX 30 and 40 (sm_86, sm_89)", 101376, kSortBlockThreads, kSmallSortBlockThreads},
                      {"A100 (sm_80)", 166912, kSortBlockThreads, kSortBlockThreads},
                      {"H100, H200 (sm_90)", 232448, kSortBlockThreads, kSortBlockThreads}};
  for (const Gpu& gpu : gpus) {
    CAPTURE(gpu.name);
    CHECK(sort_block_threads_for(gpu.optin_bytes, false) == gpu.keys);
    CHECK(sort_block_threads_for(gpu.optin_bytes, true) == gpu.pairs);
    // The tile the rule picks fits the GPU.
    for (bool pairs : {false, true})
      CHECK(pplab::lab10::block_sort_shared_bytes(sort_block_threads_for(gpu.optin_bytes, pairs), pairs) <=
            gpu.optin_bytes);
  }
  // The lab asks this device, and runs the small block sort when told to.
  int device = 0, optin_bytes = 0;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&optin_bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) == cudaSuccess);
  CAPTURE(optin_bytes);
  for (bool pairs : {false, true}) {
    CAPTURE(pairs);
    CHECK(pplab::lab10::sort_block_threads(pairs, SortTile::best) ==
          sort_block_threads_for(std::size_t(optin_bytes), pairs));
    CHECK(pplab::lab10::sort_block_threads(pairs, SortTile::small) == kSmallSortBlockThreads);
  }
}

TEST_CASE("the small block sort of a T4 matches the CPU reference at edge sizes") {
  // What a GPU with less shared memory runs (512 threads, 8704-key tiles), on every device.
  const std::size_t small_tile = pplab::lab10::kSmallSortTileItems;
  std::vector<std::size_t> sizes = pplab::edge_sizes();
  sizes.insert(sizes.end(), {small_tile - 1, small_tile, small_tile + 1});
  for (std::size_t n : sizes) {
    CAPTURE(n);
    check_sort_keys("sort keys with the small block sort matches the CPU reference at edge sizes",
                    pplab::random_full_range<int>(n, 1300 + n), MergeKernel::best, SortTile::small);
    check_sort_pairs("sort pairs with the small block sort is stable with many duplicate keys",
                     few_distinct<unsigned>(n, 1400 + n), MergeKernel::best, SortTile::small);
  }
}

TEST_CASE("the small block sort of a T4 with every merge kernel matches the CPU reference") {
  for (MergeKernel merge : {MergeKernel::global, MergeKernel::tiled, MergeKernel::tiled_splits_first}) {
    for (std::size_t n : merge_pass_sizes(false, SortTile::small))
      check_sort_keys("sort keys with the small block sort", pplab::random_full_range<unsigned>(n, 1500 + n), merge,
                      SortTile::small);
    for (std::size_t n : merge_pass_sizes(true, SortTile::small))
      check_sort_pairs("sort pairs with the small block sort", few_distinct<int>(n, 1600 + n), merge,
                       SortTile::small);
  }
}

TEST_CASE("sort keys and sort pairs work in place") {
  const std::size_t n = 30011;
  const auto keys = few_distinct<int>(n, 1100);
  const auto values = pplab::iota_values<std::uint32_t>(n);
  DeviceBuffer<int> d_keys(keys);
  DeviceBuffer<std::uint32_t> d_values(values);
  PPLAB_ON_DEVICE("sort_pairs", n, pplab::lab10::sort_pairs(d_keys.data(), d_values.data(), d_keys.data(), d_values.data(), n));
  CheckContext context{"sort pairs works in place", n, kAllSteps, "keys", pplab::current_schedule_name(),
                       "the block sort must read all of a tile before it writes any of it"};
  PPLAB_EXPECT(pplab::check_stable_pairs(context, keys, values, d_keys.download(), d_values.download()));
  const auto more = pplab::random_full_range<unsigned>(n, 1101);
  DeviceBuffer<unsigned> d_more(more);
  PPLAB_ON_DEVICE("sort_keys", n, pplab::lab10::sort_keys(d_more.data(), d_more.data(), n));
  context.check = "sort keys works in place";
  PPLAB_EXPECT(pplab::check_sorted_permutation(context, more, d_more.download()));
}

TEST_CASE("sort keys matches the CPU reference on a large random input") {
  const std::size_t n = pplab::large_size() + 7;
  check_sort_keys("sort keys matches the CPU reference on a large random input",
                  pplab::random_full_range<int>(n, 1200));
  check_sort_pairs("sort pairs is stable on a large random input", pplab::random_values<unsigned>(n, 0u, 999u, 1201));
}

}  // TEST_SUITE
