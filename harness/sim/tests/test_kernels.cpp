// Kernels compute what CUDA computes: thread and block indices in 1D, 2D and 3D
// launches, templated kernels in namespaces, dynamic shared memory, pipeline copies,
// per-thread kernel arguments, intrinsics, global and shared atomics and a program with
// __device__ symbols, run in this process (kernels.cu); and a whole program of warp
// operations, votes, intrinsics and launch errors against the output an H200 gave.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "kernels.h"
#include "test_support.h"

using namespace simtest::support;

TEST_CASE("threadIdx, blockIdx, blockDim and gridDim cover 1D, 2D and 3D launches") {
  for (auto [grid, block] : {std::pair{dim3(5), dim3(33)}, std::pair{dim3(3, 2), dim3(8, 4)},
                             std::pair{dim3(2, 3, 2), dim3(4, 2, 3)}}) {
    auto ids = simtest::linear_ids(grid, block);
    unsigned per_block = block.x * block.y * block.z;
    for (unsigned k = 0; k < ids.size(); ++k) REQUIRE(ids[k] == (k / per_block) * 1000 + k % per_block);
  }
}

TEST_CASE("templated kernels in namespaces take functors and launch from template host functions") {
  auto h = simtest::templated_launch(130);
  for (int i = 0; i < 130; ++i) REQUIRE(h[i] == (i * 3 + 1) * 1 + 1);
}

TEST_CASE("extern __shared__ is sized by the third launch argument") {
  auto h = simtest::dynamic_shared(100);
  for (int i = 0; i < 100; ++i) REQUIRE(h[i] == 99 - i);
  auto g = simtest::namespace_scope_dynamic_shared(64);
  for (int i = 0; i < 64; ++i) REQUIRE(g[i] == (63 - i) * 2);
}

TEST_CASE("pipeline copies land at the wait that covers their batch, zero-filled as asked") {
  const int n = 48;
  auto h = simtest::pipeline_copies(n);
  for (int t = 0; t < n; ++t) {
    INFO("thread " << t);
    CHECK(h[t] == 100 + t);  // batch 0, after wait_prior(1)
    CHECK(h[n + t] == -1);   // batch 1, before its wait: the block's fill pattern
    const int other = (t + 1) % n;
    CHECK(h[2 * n + t] == 100 + n + 2 * (other / 2) * 2);
    CHECK(h[3 * n + t] == 0);  // zfill
    CHECK(h[4 * n + t] == ((100 + 4 * (t % 16) + 2) & 0xffff));  // bytes 8-9 copied, 10-11 zero-filled
    CHECK(h[5 * n + t] == 0);
  }
}

TEST_CASE("each thread gets its own copy of the kernel arguments") {
  auto h = simtest::args_are_per_thread(5);
  CHECK(h[0] == -1);
  CHECK(h[1] == 5);
  CHECK(h[3] == 5);
}

TEST_CASE("integer and float intrinsics give CUDA's results (__clz(0) = 32, __ffs(0) = 0)") {
  expect_values(simtest::intrinsics(), {8, 40, 32, 31, 64, 0, 4, static_cast<int>(0x80000000u), 10, 50, 127, 25});
}

TEST_CASE("global atomics from many blocks running at once add up") {
  const int blocks = 64, threads = 128, n = blocks * threads;
  auto h = simtest::global_atomics(blocks, threads);
  CHECK(h[0] == n);
  CHECK(h[1] == 2 * n);
  CHECK(h[2] == 3 * n);
  CHECK(h[3] == n / 2);
  CHECK(h[4] == -(n - 1));
  CHECK(h[5] == n - 1);
  CHECK(h[6] == 0);
  CHECK(h[7] == 0xffff);
  CHECK(h[8] == 0);  // n is even
  CHECK(h[9] == n);
  CHECK(h[10] == 42);
  CHECK(h[11] == -n);
}

TEST_CASE("shared-memory atomics count per block") {
  auto h = simtest::shared_atomics();
  for (int v : h) CHECK(v == 16);
}

TEST_CASE("the seed's warp radix sort runs with __device__ symbols, ballots and popc") {
  for (unsigned seed = 1; seed <= 20; ++seed) REQUIRE(simtest::warp_radix_sort(seed));
  CHECK(simtest::symbol_address_copy());
}

TEST_CASE("warp ops, votes, intrinsics and launch errors match the output recorded on an H200 with CUDA 13") {
  auto r = run(program("pplab_sim_prog_cuda_semantics"));
  CHECK(r.status == 0);
  FILE* f = std::fopen((std::string(PPLAB_SIM_TEST_SRC_DIR) + "/gpu_check/expected_h200_cuda13.txt").c_str(), "r");
  REQUIRE(f != nullptr);
  std::string expected;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) expected.append(buf, n);
  std::fclose(f);
  // Compare line by line so a failure names the construct.
  size_t a = 0, b = 0;
  while (a < expected.size() && b < r.output.size()) {
    size_t ea = expected.find('\n', a), eb = r.output.find('\n', b);
    CHECK(r.output.substr(b, eb - b) == expected.substr(a, ea - a));
    if (ea == std::string::npos || eb == std::string::npos) break;
    a = ea + 1;
    b = eb + 1;
  }
}
