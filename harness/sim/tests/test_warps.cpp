// Warp operations: votes, __match_any_sync, shuffles with their widths and
// out-of-segment lanes, __activemask, __reduce_*_sync, and cooperative groups (tiles,
// coalesced groups, grid sync); and their reports, each from a program run as a
// subprocess: a mask naming lanes that have exited, a shuffle reading a lane outside
// its mask.
#include <doctest/doctest.h>

#include <string>

#include "kernels.h"
#include "test_support.h"

using namespace simtest::support;

TEST_CASE("warp votes give CUDA's results, also for a partial last warp") {
  auto v = simtest::warp_votes(64);
  CHECK(v[0] == 0x49249249u);  // lanes 0, 3, 6, ...
  CHECK(v[1] == 1);
  CHECK(v[2] == 1);
  CHECK(v[3] == 0);
  auto p = simtest::warp_votes(40);  // second warp has lanes 0..7 only
  CHECK(p[4] == (0x49249249u & 0xffu));
  CHECK(p[5] == 1);  // lane 5 of the partial warp exists (thread 37)
  CHECK(p[6] == 1);
}

TEST_CASE("match any sync gives each lane the lanes holding its value") {
  const auto full = simtest::warp_match(32);
  for (int l = 0; l < 32; ++l) REQUIRE(full[l] == 0x49249249u << (l % 3));  // lanes l % 3, l % 3 + 3, ...
  const auto partial = simtest::warp_match(40);  // second warp has lanes 0..7 only
  for (int l = 0; l < 8; ++l) REQUIRE(partial[32 + l] == ((0x49249249u << (l % 3)) & 0xffu));
}

TEST_CASE("shuffles follow CUDA's rules for width and out-of-segment lanes") {
  SUBCASE("__shfl_sync reads lane base + src % width") {
    auto h = simtest::shuffles(0, 3, 8);
    for (int l = 0; l < 32; ++l) REQUIRE(h[l] == 100 + (l / 8) * 8 + 3);
    auto g = simtest::shuffles(0, 35, 32);
    for (int l = 0; l < 32; ++l) REQUIRE(g[l] == 100 + 3);
  }
  SUBCASE("__shfl_up_sync keeps the caller's value below delta within each segment") {
    auto h = simtest::shuffles(1, 2, 16);
    for (int l = 0; l < 32; ++l) REQUIRE(h[l] == 100 + ((l % 16) < 2 ? l : l - 2));
  }
  SUBCASE("__shfl_down_sync keeps the caller's value past the segment end") {
    auto h = simtest::shuffles(2, 4, 16);
    for (int l = 0; l < 32; ++l) REQUIRE(h[l] == 100 + ((l % 16) + 4 >= 16 ? l : l + 4));
  }
  SUBCASE("__shfl_xor_sync exchanges within the segment") {
    auto h = simtest::shuffles(3, 1, 32);
    for (int l = 0; l < 32; ++l) REQUIRE(h[l] == 100 + (l ^ 1));
    auto g = simtest::shuffles(3, 8, 8);  // partner in a later segment: own value
    for (int l = 0; l < 32; ++l) REQUIRE(g[l] == 100 + ((l ^ 8) >= (l & ~7) + 8 ? l : (l ^ 8)));
  }
  CHECK(simtest::warp_reduce(1000) == [] {
    int s = 0;
    for (int i = 0; i < 1000; ++i) s += i % 7;
    return s;
  }());
}

TEST_CASE("__activemask names the lanes that reach it together") {
  CHECK(simtest::active_mask_after_exit() == 0xfffffu);
}

TEST_CASE("a warp op whose mask names exited lanes says where they are") {
  expect_run(run(program("pplab_sim_prog_warp_mask")), Exit::with_error,
             {"pplab-sim: error: warp operation cannot complete in kernel 'half_warp'",
              "__shfl_down_sync(mask 0xffffffff) at",
              "warp_mask.cu:6",
              "lane 16",
              "has exited"});
}

TEST_CASE("cooperative groups: tiles, shuffles, votes, cg::reduce, coalesced groups and grid sync") {
  for (const char* schedule : {"forward", "reverse", "random:3"}) {
    auto r = simcc_run("groups", std::string("PPLAB_SIM_SCHEDULE=") + schedule + " ");
    INFO(schedule << "\n" << r.output);
    CHECK(r.status == 0);
    expect_contains(r.output, {"tile8 sums 28 92 988",
                               "reduce plus 496 less 69 greater 7",
                               "ballot 49249249 any 1 all 0 meta_group_size 16",
                               "coalesced size 16 sum 256 shfl_down 5",
                               "grid: valid 1, blocks 4",
                               "cooperative launch: cudaSuccess, total 10"});
  }
}

TEST_CASE("a shuffle reading a lane outside its mask is reported with its line") {
  expect_run(simcc_run("ub_shuffle"), Exit::with_error,
             {"pplab-sim: error: undefined shuffle in kernel 'partial_sum'",
              "ub_shuffle.cu:6 (mask 0x000000ff): lane 0 reads lane 16, which the mask leaves out"});
}

TEST_CASE("__reduce_*_sync reduce over the lanes of the mask, min and max signed for int") {
  expect_run(simcc_run("warp_reduce"), Exit::cleanly,
             {"reduce: add -10, min -10, max 9, min unsigned 0, or 0xfffff, and 0x1, xor 0xffffe\n"});
}
