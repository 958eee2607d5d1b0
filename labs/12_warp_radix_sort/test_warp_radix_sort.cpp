// Lab 12 checks: the single-warp radix sort, starting with the lecture's example and its
// own program (ddata, one warp), then many 32-key segments at once; then, once the stretch
// steps are written, the same checks of the rank pass.
#include <algorithm>
#include <array>
#include <climits>
#include <cstdlib>
#include <set>

#include "pplab/testing.h"
#include "warp_radix_sort.cuh"

namespace {

using pplab::CheckContext;
using pplab::DeviceBuffer;
using pplab::lab12::Algorithm;
using pplab::lab12::kSegmentKeys;

const pplab::Todo kAllSteps{"12.1-12.3",
                            "one bit's placement (12.1), the ping-pong passes (12.2), one segment per warp (12.3)"};
const pplab::Todo kPlacement{"12.1", "one bit's placement with __ballot_sync and __popc"};
const pplab::Todo kPasses{"12.2-12.1", "the ping-pong passes (12.2) built on one bit's placement (12.1)"};
const pplab::Todo kPassSteps{"12.2", "the ping-pong passes: read, place, write the other buffer, __syncwarp(), flip"};
const pplab::Todo kRankSteps{"12.4-12.5",
                             "the rank pass (stretch): one ballot per bit and the lanes before this one in a "
                             "register (12.4), each key stored at its rank (12.5)"};

// The stable sort of each 32-key segment by bits [begin_bit, end_bit): what the warps must write.
std::vector<unsigned> cpu_segment_sort(std::vector<unsigned> keys, int begin_bit = 0, int end_bit = 32) {
  const unsigned long long width_mask = (1ull << (end_bit - begin_bit)) - 1;
  auto digit = [&](unsigned k) { return (static_cast<unsigned long long>(k) >> begin_bit) & width_mask; };
  for (std::size_t s = 0; s < keys.size(); s += kSegmentKeys) {
    auto last = keys.begin() + std::min(keys.size(), s + kSegmentKeys);
    std::stable_sort(keys.begin() + s, last, [&](unsigned a, unsigned b) { return digit(a) < digit(b); });
  }
  return keys;
}

std::string hint_for(const std::vector<unsigned>& in, const std::vector<unsigned>& got) {
  if (!got.empty() && std::all_of(got.begin(), got.end(), [](unsigned v) { return pplab::is_poison(v); }))
    return "nothing was written: does each warp store its sorted key to out[i] (TODO 12.3)?";
  if (got == in) return "the keys came back in input order: are the passes (TODO 12.2) running?";
  return "a lost or doubled key usually means a missing __syncwarp() between passes, or two lanes "
         "computing the same position (check the lane mask of the lanes below this one)";
}

struct Diagnosis {
  pplab::Todo todo;
  std::string hint;
};

// The step a wrong warp sort belongs to, from what the output looks like. One bit's
// placement (12.1) depends only on the ballot, so it is wrong under every thread order,
// and it moves the input's keys: a permutation in the wrong order, or a key written to
// the slot of another. Keys that were never in the input were read from a buffer slot
// before any lane wrote it, and an answer that was right under an earlier thread order
// depends on the order lanes run in: both are the passes' __syncwarp() or buffers (12.2).
// The rank pass has no buffers and no __syncwarp(): a wrong answer is a wrong rank.
Diagnosis diagnose_rank_pass(const std::vector<unsigned>& in, const std::vector<unsigned>& got) {
  if (!got.empty() && std::all_of(got.begin(), got.end(), [](unsigned v) { return pplab::is_poison(v); }))
    return {kRankSteps, "nothing was written: does each warp store its key at out[first + rank] (TODO 12.5)?"};
  if (const std::string changed = pplab::patterns::lost_or_doubled(in, got); !changed.empty())
    return {kRankSteps, changed + ": two lanes got the same rank; `before` starts as the lanes below this one, "
                                  "and each bit either adds the 0-keys (this bit 1) or keeps only them (this bit 0) (12.4)"};
  return {kRankSteps, "every key is there but in the wrong order: walk the bits from begin_bit up to end_bit-1, "
                      "least significant first, as the lecture's passes do (12.4)"};
}

Diagnosis diagnose(const std::vector<unsigned>& in, const std::vector<unsigned>& got, const pplab::Todo& todo,
                   const std::string& passed_under, const std::string& schedule, Algorithm algorithm) {
  if (algorithm == Algorithm::rank_pass) return diagnose_rank_pass(in, got);
  if (!got.empty() && std::all_of(got.begin(), got.end(), [](unsigned v) { return pplab::is_poison(v); }))
    return {todo, "nothing was written: does each warp store its sorted key to out[i] (TODO 12.3)?"};
  if (!passed_under.empty())
    return {kPassSteps, "right under the " + passed_under + " thread order, wrong under " + schedule +
                            ": the answer depends on the order lanes run in, so a lane reads a buffer slot "
                            "before the lane that writes it has run: a __syncwarp() after each pass's writes"};
  const std::set<unsigned> keys(in.begin(), in.end());
  const auto invented = std::count_if(got.begin(), got.end(), [&](unsigned v) { return !keys.count(v); });
  if (invented > 0)
    return {kPassSteps, std::to_string(invented) + " keys in the output were never in the input: they were read from "
                            "a buffer slot no lane had written yet, a __syncwarp() missing after a pass's "
                            "writes, or the result read from the wrong buffer"};
  if (got == in) return {kPassSteps, "the keys came back in input order: are the passes (TODO 12.2) running?"};
  if (const std::string changed = pplab::patterns::lost_or_doubled(in, got); !changed.empty())
    return {todo, changed + ": two lanes computed the same position, so check the lane mask of the "
                            "lanes below this one (12.1), or a pass read keys another lane was still writing (12.2)"};
  return {todo, "every key is there but in the wrong order: where a lane's key goes by one bit (12.1): zeros "
                "first in lane order, then ones"};
}

// Runs the warp sort on `in` and checks every segment: sorted, a permutation of its input,
// equal to the stable CPU sort, every element written, the input unchanged.
void check_warp_sort(const std::string& check, const std::vector<unsigned>& in, int begin_bit = 0,
                     int end_bit = 32, int warps_per_block = pplab::lab12::kWarpsPerBlock,
                     const pplab::Todo& todo = kAllSteps, Algorithm algorithm = Algorithm::bit_passes) {
  const auto expected = cpu_segment_sort(in, begin_bit, end_bit);
  std::string passed_under;  // the last thread order under which every check passed
  auto run = [&](const std::string& schedule) {
    DeviceBuffer<unsigned> d_in(in), d_out(in.size());
    d_out.poison();
    PPLAB_ON_DEVICE("warp_radix_sort", begin_bit < end_bit ? in.size() : 0,
                    pplab::lab12::warp_radix_sort(d_in.data(), d_out.data(), in.size(), begin_bit, end_bit,
                                                  warps_per_block, 0, algorithm));
    const auto got = d_out.download();
    // The diagnosis reads the whole output against the input (a set of every key): only
    // a wrong output needs it, and at the large size it cost a right one 15-30 s on a GPU.
    const Diagnosis diagnosis =
        got == expected ? Diagnosis{todo, ""} : diagnose(in, got, todo, passed_under, schedule, algorithm);
    CheckContext context{check + " (bits " + std::to_string(begin_bit) + " to " + std::to_string(end_bit) +
                             ", " + std::to_string(warps_per_block) + " warps per block" +
                             (algorithm == Algorithm::rank_pass ? ", rank pass)" : ")"),
                         in.size(), diagnosis.todo, "out", schedule, diagnosis.hint};
    if (begin_bit == 0 && end_bit == 32) {
      // Ordered and a permutation, segment by segment (the first bad segment is reported).
      for (std::size_t s = 0; s < in.size(); s += kSegmentKeys) {
        const std::size_t last = std::min(in.size(), s + kSegmentKeys);
        CheckContext segment = context;
        segment.check += ": segment " + std::to_string(s / kSegmentKeys) + " (keys " + std::to_string(s) +
                         " to " + std::to_string(last - 1) + ")";
        const auto result = pplab::check_sorted_permutation(
            segment, std::vector<unsigned>(in.begin() + s, in.begin() + last),
            std::vector<unsigned>(got.begin() + s, got.begin() + last));
        PPLAB_EXPECT(result);
        if (!result.passed) break;
      }
    }
    PPLAB_EXPECT(pplab::compare_arrays(context, expected, got));
    PPLAB_EXPECT(pplab::check_unchanged(context, "in", in, d_in.download()));
    if (got == expected) passed_under = schedule;
  };
  pplab::for_each_schedule(in.size(), run);
}

// The rank pass's checks: check_warp_sort on the stretch kernel, every thread order.
void check_rank_pass(const std::string& check, const std::vector<unsigned>& in, int begin_bit = 0,
                     int end_bit = 32, int warps_per_block = pplab::lab12::kWarpsPerBlock) {
  check_warp_sort(check, in, begin_bit, end_bit, warps_per_block, kRankSteps, Algorithm::rank_pass);
}

// The stretch checks run once steps 12.4-12.5 are written; before that they are skipped.
bool rank_pass_written() {
  if (pplab::lab12::rank_pass_available()) return true;
  pplab::skip_check("the stretch steps TODO(12.4-12.5), the rank pass, are not written yet");
  DeviceBuffer<unsigned> in(32), out(32);
  CHECK_THROWS_AS(pplab::lab12::warp_radix_sort(in.data(), out.data(), 32, 0, 32, pplab::lab12::kWarpsPerBlock, 0,
                                                Algorithm::rank_pass),
                  std::logic_error);
  return false;
}

}  // namespace

TEST_SUITE("lab12") {

TEST_CASE("warp sort places the lecture example by bit 0 at positions 2 0 1 3") {
  // Lanes 0..3 hold 7 14 4 1 (0111 1110 0100 0001); the other 28 lanes hold the padding
  // key. Bit 0 is 1 0 0 1: 14 and 4 (zeros) go to 0 and 1, 7 and 1 (ones) to 2 and 3.
  check_warp_sort("warp sort places the lecture example by bit 0 at positions 2 0 1 3", {7, 14, 4, 1}, 0, 1,
                  pplab::lab12::kWarpsPerBlock, kPlacement);
  REQUIRE(cpu_segment_sort({7, 14, 4, 1}, 0, 1) == std::vector<unsigned>{14, 4, 7, 1});
}

TEST_CASE("warp sort reproduces the lecture table pass by pass") {
  // The lecture's four passes: after bit 0, 1, 2 and 3.
  const std::vector<std::vector<unsigned>> after = {{14, 4, 7, 1}, {4, 1, 14, 7}, {1, 4, 14, 7}, {1, 4, 7, 14}};
  for (int end_bit = 1; end_bit <= 4; ++end_bit) {
    CAPTURE(end_bit);
    REQUIRE(cpu_segment_sort({7, 14, 4, 1}, 0, end_bit) == after[end_bit - 1]);
    check_warp_sort("warp sort reproduces the lecture table pass by pass", {7, 14, 4, 1}, 0, end_bit,
                    pplab::lab12::kWarpsPerBlock, kPasses);
  }
  check_warp_sort("warp sort reproduces the lecture table pass by pass", {7, 14, 4, 1});
}

TEST_CASE("the lecture program sorts ddata with one warp") {
  // As in the lecture: 32 keys into __device__ ddata[32] by cudaMemcpyToSymbol, one warp
  // <<<1, 32>>>, back by cudaMemcpyFromSymbol, checked for order; many loops. The
  // lecture drew keys below 2^31 (rand() % (1U << 31)); the last loops use all 32 bits.
  const int loops = 64;
  for (int loop = 0; loop < loops; ++loop) {
    const unsigned hi = loop < loops / 2 ? (1u << 31) - 1 : UINT_MAX;
    const auto drawn = pplab::random_values<unsigned>(kSegmentKeys, 0u, hi, 1000 + loop);
    std::array<unsigned, 32> hdata{};
    std::copy(drawn.begin(), drawn.end(), hdata.begin());
    const auto sorted = pplab::lab12::sort_ddata(hdata);
    const std::vector<unsigned> in(hdata.begin(), hdata.end()), got(sorted.begin(), sorted.end());
    CheckContext context{"the lecture program sorts ddata with one warp (loop " + std::to_string(loop) + ")",
                         in.size(), kAllSteps, "ddata", pplab::current_schedule_name(), hint_for(in, got)};
    const auto result = pplab::check_sorted_permutation(context, in, got);
    PPLAB_EXPECT(result);
    if (!result.passed) break;
  }
}

TEST_CASE("warp sort sorts every segment at edge sizes") {
  for (std::size_t n : pplab::edge_sizes()) {
    CAPTURE(n);
    check_warp_sort("warp sort sorts every segment at edge sizes",
                    pplab::random_full_range<unsigned>(n, 100 + n));
  }
}

TEST_CASE("warp sort handles duplicates all-equal sorted reverse and extreme keys") {
  const std::size_t n = 32 * 9 + 5;
  check_warp_sort("warp sort handles duplicate keys", pplab::random_values<unsigned>(n, 0u, 3u, 200));
  check_warp_sort("warp sort handles all-equal keys", std::vector<unsigned>(n, 12345u));
  check_warp_sort("warp sort handles all-equal padding keys", std::vector<unsigned>(n, UINT_MAX));
  check_warp_sort("warp sort handles sorted keys", pplab::iota_values<unsigned>(n, 1000u));
  auto reverse = pplab::iota_values<unsigned>(n);
  std::reverse(reverse.begin(), reverse.end());
  check_warp_sort("warp sort handles reverse-sorted keys", reverse);
  auto extremes = pplab::random_values<unsigned>(n, 0u, 1u, 201);
  for (auto& k : extremes) k = k ? UINT_MAX : 0u;
  extremes[7] = 0x80000000u;
  extremes[8] = 0x7FFFFFFFu;
  check_warp_sort("warp sort handles the extremes 0 and UINT_MAX", extremes);
}

TEST_CASE("warp sort with a partial bit range is stable on those bits") {
  // Keys equal on bits [4, 12) must keep their input order within a segment.
  const auto keys = pplab::random_values<unsigned>(32 * 20 + 17, 0u, 0xFFFFu, 300);
  check_warp_sort("warp sort with a partial bit range is stable on those bits", keys, 4, 12);
  check_warp_sort("warp sort with an empty bit range copies each segment", keys, 9, 9);
  check_warp_sort("warp sort of the top bit alone is stable", keys, 31, 32);
}

TEST_CASE("warp sort works with every warp count per block") {
  const auto keys = pplab::random_full_range<unsigned>(32 * 70 + 3, 400);
  for (int warps = 1; warps <= 32; warps *= 2)
    check_warp_sort("warp sort works with every warp count per block", keys, 0, 32, warps);
  check_warp_sort("warp sort works with every warp count per block", keys, 0, 32, 3);
}

TEST_CASE("warp sort matches the CPU reference on a large random input") {
  const std::size_t n = pplab::large_size() + 21;  // the last segment is partial
  check_warp_sort("warp sort matches the CPU reference on a large random input",
                  pplab::random_full_range<unsigned>(n, 500), 0, 32, pplab::lab12::kWarpsPerBlock, kAllSteps);
}

TEST_CASE("warp sort rejects bad bit ranges and warp counts") {
  DeviceBuffer<unsigned> in(32), out(32);
  CHECK_THROWS_AS(pplab::lab12::warp_radix_sort(in.data(), out.data(), 32, 5, 4), std::invalid_argument);
  CHECK_THROWS_AS(pplab::lab12::warp_radix_sort(in.data(), out.data(), 32, 0, 33), std::invalid_argument);
  CHECK_THROWS_AS(pplab::lab12::warp_radix_sort(in.data(), out.data(), 32, 0, 32, 0), std::invalid_argument);
  CHECK_THROWS_AS(pplab::lab12::warp_radix_sort(in.data(), out.data(), 32, 0, 32, 33), std::invalid_argument);
}

// ---- stretch: the rank pass (TODO 12.4-12.5) ----

TEST_CASE("rank pass reproduces the lecture table for every bit range it ends on") {
  if (!rank_pass_written()) return;
  // One pass over bits [0, end_bit) gives what the lecture's passes give after bit end_bit-1.
  for (int end_bit = 0; end_bit <= 4; ++end_bit) {
    CAPTURE(end_bit);
    check_rank_pass("rank pass reproduces the lecture table for every bit range it ends on", {7, 14, 4, 1}, 0,
                    end_bit);
  }
}

TEST_CASE("rank pass sorts every segment at edge sizes") {
  if (!rank_pass_written()) return;
  for (std::size_t n : pplab::edge_sizes()) {
    CAPTURE(n);
    check_rank_pass("rank pass sorts every segment at edge sizes", pplab::random_full_range<unsigned>(n, 600 + n));
  }
}

TEST_CASE("rank pass handles duplicates all-equal sorted reverse and extreme keys") {
  if (!rank_pass_written()) return;
  const std::size_t n = 32 * 9 + 5;
  check_rank_pass("rank pass handles duplicate keys", pplab::random_values<unsigned>(n, 0u, 3u, 700));
  check_rank_pass("rank pass handles all-equal keys", std::vector<unsigned>(n, 12345u));
  check_rank_pass("rank pass handles all-equal padding keys", std::vector<unsigned>(n, UINT_MAX));
  auto reverse = pplab::iota_values<unsigned>(n);
  std::reverse(reverse.begin(), reverse.end());
  check_rank_pass("rank pass handles reverse-sorted keys", reverse);
  auto extremes = pplab::random_values<unsigned>(n, 0u, 1u, 701);
  for (auto& k : extremes) k = k ? UINT_MAX : 0u;
  extremes[7] = 0x80000000u;
  extremes[8] = 0x7FFFFFFFu;
  check_rank_pass("rank pass handles the extremes 0 and UINT_MAX", extremes);
}

TEST_CASE("rank pass with a partial bit range is stable on those bits") {
  if (!rank_pass_written()) return;
  const auto keys = pplab::random_values<unsigned>(32 * 20 + 17, 0u, 0xFFFFu, 800);
  check_rank_pass("rank pass with a partial bit range is stable on those bits", keys, 4, 12);
  check_rank_pass("rank pass with an empty bit range copies each segment", keys, 9, 9);
  check_rank_pass("rank pass of the top bit alone is stable", keys, 31, 32);
  check_rank_pass("rank pass of the low bit alone is stable", keys, 0, 1);
}

TEST_CASE("rank pass works with every warp count per block") {
  if (!rank_pass_written()) return;
  const auto keys = pplab::random_full_range<unsigned>(32 * 70 + 3, 900);
  for (int warps = 1; warps <= 32; warps *= 2)
    check_rank_pass("rank pass works with every warp count per block", keys, 0, 32, warps);
  check_rank_pass("rank pass works with every warp count per block", keys, 0, 32, 3);
}

TEST_CASE("rank pass matches the CPU reference on a large random input") {
  if (!rank_pass_written()) return;
  const std::size_t n = pplab::large_size() + 21;
  check_rank_pass("rank pass matches the CPU reference on a large random input",
                  pplab::random_full_range<unsigned>(n, 1000), 0, 32, pplab::lab12::kWarpsPerBlock);
}

}  // TEST_SUITE
