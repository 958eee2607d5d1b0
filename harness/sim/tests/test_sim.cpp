// The sim's own test suite: each construct against known (CUDA) results, each
// schedule, and each diagnostic (run as a subprocess: they end the process).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <string>

#include "kernels.h"

using pplab::sim::Schedule;

namespace {
struct RunResult {
  int status = -1;
  std::string output;  // stdout and stderr together
};

RunResult run(const std::string& command) {
  RunResult r;
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return r;
}

std::string program(const char* name) { return std::string(PPLAB_SIM_TEST_BIN_DIR) + "/" + name; }

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// Checks that `output` holds each of `texts`, in any order; a failure names the text.
void expect_contains(const std::string& output, std::initializer_list<std::string> texts) {
  for (const std::string& text : texts) {
    INFO("expected in the output: " << text);
    CHECK(contains(output, text));
  }
}

// Checks a kernel's results against the expected values, one by one; a failure names the index.
void expect_values(const std::vector<int>& got, std::initializer_list<int> want) {
  REQUIRE(got.size() >= want.size());
  std::size_t i = 0;
  for (int value : want) {
    INFO("result " << i);
    CHECK(got[i++] == value);
  }
}

// How a program must end: exit status 0, or a non-zero status after its report.
enum class Exit { cleanly, with_error };

// Checks how a run ended and that its output holds each of `texts`; a failure shows the
// whole output. Returns the run for the checks that are not a plain "holds this text".
RunResult expect_run(RunResult r, Exit exit, std::initializer_list<std::string> texts) {
  INFO(r.output);
  if (exit == Exit::cleanly) {
    CHECK(r.status == 0);
  } else {
    CHECK(r.status != 0);
  }
  expect_contains(r.output, texts);
  return r;
}

struct ScheduleGuard {
  Schedule saved = pplab::sim::schedule();
  unsigned seed = pplab::sim::schedule_seed();
  ~ScheduleGuard() { pplab::sim::set_schedule(saved, seed); }
};
}  // namespace

TEST_CASE("the seed dot product (TPB=8, SIZE=8) gives 52 under every schedule") {
  ScheduleGuard guard;
  for (Schedule s : {Schedule::forward, Schedule::reverse, Schedule::random}) {
    pplab::sim::set_schedule(s, 7);
    CHECK(simtest::seed_dot_product() == 52.0f);
  }
}

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

TEST_CASE("__syncthreads_count, _and and _or reduce the predicate over the block") {
  expect_values(simtest::syncthreads_preds(), {32, 1, 1, 0});  // count, and, or, and over a false lane
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

TEST_CASE("a reduction missing the barrier in its loop is wrong under at least one schedule") {
  // With checking on, the first race ends the process (tested below); the values
  // are what a run with PPLAB_SIM_CHECK=off sees.
  ScheduleGuard guard;
  struct CheckOff {
    CheckOff() { pplab::sim::set_shared_check(false); }
    ~CheckOff() { pplab::sim::set_shared_check(true); }
  } check_off;
  const int n = 4096;
  bool wrong_somewhere = false;
  for (Schedule s : {Schedule::forward, Schedule::reverse, Schedule::random}) {
    pplab::sim::set_schedule(s, 3);
    CHECK(simtest::reduction(true, n) == static_cast<float>(n));
    if (simtest::reduction(false, n) != static_cast<float>(n)) wrong_somewhere = true;
  }
  CHECK(wrong_somewhere);
}

TEST_CASE("bad launch configurations set CUDA 13's errors without running") {
  CHECK(simtest::launch_with(dim3(1), dim3(1025), 0) == cudaErrorInvalidValue);
  CHECK(simtest::launch_with(dim3(1), dim3(32, 32, 2), 0) == cudaErrorInvalidValue);
  CHECK(simtest::launch_with(dim3(0), dim3(32), 0) == cudaErrorInvalidValue);
  CHECK(simtest::launch_with(dim3(1), dim3(0), 0) == cudaErrorInvalidValue);
  CHECK(simtest::launch_with(dim3(1), dim3(32), 64 * 1024) != cudaSuccess);
  CHECK(simtest::launch_with(dim3(1), dim3(1024), 48 * 1024) == cudaSuccess);
  CHECK(cudaPeekAtLastError() == cudaSuccess);
}

TEST_CASE("the runtime API answers like a one-device CUDA runtime") {
  int count = 0, dev = -1;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess);
  CHECK(count == 1);
  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK(cudaGetDevice(&dev) == cudaSuccess);
  CHECK(dev == 0);
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0) == cudaSuccess);
  // The default device, named as the emulator standing in for it.
  CHECK(std::string(p.name).find("NVIDIA H200 (pplab CPU emulator") == 0);
  CHECK(p.major * 100 + p.minor * 10 == 900);
  CHECK(p.warpSize == 32);
  CHECK(p.maxThreadsPerBlock == 1024);
  CHECK(p.sharedMemPerBlock == 48 * 1024);
  CHECK(p.multiProcessorCount == pplab::sim::worker_count());
  CHECK(cudaSetDevice(1) == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(std::string(cudaGetErrorString(cudaErrorInvalidConfiguration)) == "invalid configuration argument");
  CHECK(std::string(cudaGetErrorName(cudaErrorInvalidValue)) == "cudaErrorInvalidValue");
  CHECK(static_cast<int>(cudaErrorIllegalAddress) == 700);

  int* d = nullptr;
  int h[4] = {1, 2, 3, 4}, back[4] = {};
  CHECK(cudaMalloc(&d, sizeof h) == cudaSuccess);
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(back, d, sizeof h, cudaMemcpyDefault) == cudaSuccess);
  CHECK(back[3] == 4);
  CHECK(cudaMemset(d, 0, sizeof h) == cudaSuccess);
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s) == cudaSuccess);
  CHECK(cudaMemcpyAsync(back, d, sizeof h, cudaMemcpyDeviceToHost, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(back[3] == 0);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  // A copy past the end of an allocation, or into host memory declared as device, fails.
  CHECK(cudaMemcpy(d, h, 2 * sizeof h, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
  CHECK(cudaMemcpy(h, back, sizeof h, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
  cudaGetLastError();
  CHECK(cudaFree(d) == cudaSuccess);

  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a) == cudaSuccess);
  CHECK(cudaEventCreate(&b) == cudaSuccess);
  CHECK(cudaEventRecord(a) == cudaSuccess);
  CHECK(cudaEventRecord(b) == cudaSuccess);
  CHECK(cudaEventSynchronize(b) == cudaSuccess);
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, a, b) == cudaSuccess);
  CHECK(ms >= 0.0f);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  size_t free_b = 0, total_b = 0;
  CHECK(cudaMemGetInfo(&free_b, &total_b) == cudaSuccess);
  CHECK(total_b > 0);
}

TEST_CASE("copies to the host are counted against the line of the call that made them") {
  const auto sites_before = pplab::sim::to_host_sites();
  const unsigned long long before = pplab::sim::traffic().to_host_bytes;
  int lines[3] = {};
  simtest::copies_to_host(lines);
  CHECK(pplab::sim::traffic().to_host_bytes - before == 64 + 32 + 8);
  // The bytes each line copied in this call (a line's total less what it had before).
  const auto copied_at = [&](const char* function, int line) {
    unsigned long long total = 0, earlier = 0;
    for (const pplab::sim::CopySite& site : pplab::sim::to_host_sites())
      if (site.line == line && std::string(site.function) == function && contains(site.file, "tests/kernels.cu"))
        total = site.to_host_bytes;
    for (const pplab::sim::CopySite& site : sites_before)
      if (site.line == line && std::string(site.function) == function) earlier = site.to_host_bytes;
    return total - earlier;
  };
  CHECK(copied_at("cudaMemcpy", lines[0]) == 64);
  CHECK(copied_at("cudaMemcpyAsync", lines[1]) == 32);
  CHECK(copied_at("cudaMemcpyFromSymbol", lines[2]) == 8);
  // The copy to the device made no site; test_sim.cpp's own copies (not rewritten) none either.
  for (const pplab::sim::CopySite& site : pplab::sim::to_host_sites()) CHECK(!contains(site.file, "test_sim.cpp"));
}

TEST_CASE("the rewriter names the line of copy calls only, not members, other namespaces or declarations") {
  const std::string src = std::string(PPLAB_SIM_TEST_TMP_DIR) + "/copy_calls_probe.cu";
  const std::string out = src + ".cpp";
  {
    std::ofstream file(src);
    file << "cudaError_t cudaMemcpy(void*, const void*, size_t, cudaMemcpyKind);\n"  // 1: a declaration
            "struct Copier { int cudaMemcpy(int) { return 0; } };\n"
            "namespace mine { int cudaMemcpy(int) { return 1; } }\n"
            "int f(Copier& c, Copier* p, float* h, const float* d) {\n"
            "  const char* text = \"cudaMemcpy(h, d)\";  // cudaMemcpy(h, d) in a comment\n"  // 5
            "  if (cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;\n"
            "  c.cudaMemcpy(1); p->cudaMemcpy(2); mine::cudaMemcpy(3);\n"
            "  return cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, 0);\n"  // 8
            "}\n";
  }
  const RunResult rewritten = run(std::string(PPLAB_SIM_REWRITE) + " " + src + " " + out);
  REQUIRE(rewritten.status == 0);
  std::ifstream file(out);
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  INFO(text);
  expect_contains(text, {"cudaError_t cudaMemcpy(void*, const void*, size_t, cudaMemcpyKind);\n",
                         "int cudaMemcpy(int) { return 0; }",
                         "\"cudaMemcpy(h, d)\";  // cudaMemcpy(h, d) in a comment\n",
                         "  if ((::pplab::sim::CopyCall(\"cudaMemcpy\", __FILE__, 6), cudaMemcpy(h, d, 4, "
                         "cudaMemcpyDeviceToHost)) != cudaSuccess) return 1;\n",
                         "  c.cudaMemcpy(1); p->cudaMemcpy(2); mine::cudaMemcpy(3);\n",
                         "  return (::pplab::sim::CopyCall(\"cudaMemcpyAsync\", __FILE__, 8), cudaMemcpyAsync(h, d, 4, "
                         "cudaMemcpyDeviceToHost, 0));\n"});
  CHECK(std::count(text.begin(), text.end(), '\n') == 2 + 9);  // the runtime header and #line, then the 9 lines
}

TEST_CASE("cudaMalloc of more than the device memory fails like a GPU") {
  cudaDeviceProp p;
  REQUIRE(cudaGetDeviceProperties(&p, 0) == cudaSuccess);
  void* ptr = reinterpret_cast<void*>(1);
  CHECK(cudaMalloc(&ptr, p.totalGlobalMem * 4) == cudaErrorMemoryAllocation);
  CHECK(ptr == nullptr);
  CHECK(cudaGetLastError() == cudaErrorMemoryAllocation);
  CHECK(cudaMalloc(&ptr, 1 << 20) == cudaSuccess);
  CHECK(cudaFree(ptr) == cudaSuccess);
}

TEST_CASE("cudaFuncSetAttribute raises the dynamic shared memory limit up to the default device's 227 KiB") {
  CHECK(cudaFuncSetAttribute(simtest::seed_dot_product, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024) ==
        cudaSuccess);
  CHECK(simtest::launch_with(dim3(1), dim3(32), 100 * 1024) == cudaSuccess);
  CHECK(cudaFuncSetAttribute(simtest::seed_dot_product, cudaFuncAttributeMaxDynamicSharedMemorySize, 300 * 1024) ==
        cudaErrorInvalidValue);
  cudaGetLastError();
}

// ---------------------------------------------------------------- diagnostics ----
namespace {
// The test programs with many cases, one a run (programs/shared_checks.cu, namespace_shared.cu).
const char* const kSharedChecks = "pplab_sim_prog_shared_checks";
const char* const kNamespaceShared = "pplab_sim_prog_namespace_shared";

// One case of a test program (its argument `which`), checked shared memory on, under `schedule`.
RunResult checked_run(const char* name, const std::string& which, const char* schedule) {
  return run(std::string("PPLAB_SIM_CHECK=on PPLAB_SIM_SCHEDULE=") + schedule + " " + program(name) + " " + which);
}

// A case the checks must stop before it finishes (status 1); returns the report.
std::string failing_case(const char* name, const std::string& which, const char* schedule = "forward") {
  auto r = checked_run(name, which, schedule);
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK(!contains(r.output, "finished"));
  return r.output;
}

// A case that must finish under every one of `schedules`, printing `finished`, with no report.
void expect_clean(const char* name, const std::string& which, const char* finished,
                  std::initializer_list<const char*> schedules) {
  for (const char* schedule : schedules) {
    auto r = checked_run(name, which, schedule);
    INFO(schedule, r.output);
    CHECK(r.status == 0);
    CHECK(contains(r.output, finished));
    CHECK(!contains(r.output, "pplab-sim: error"));
  }
}
}  // namespace

TEST_CASE("a tree reduction without its barrier is a data race naming both threads, lines and the barrier") {
  // Forward order: thread 0 runs the whole loop first, then thread 1 overwrites a
  // value thread 0 read. Reverse: lane 31 reads what thread 63 of the next warp wrote.
  std::string out = failing_case(kSharedChecks, "tree");
  expect_contains(out, {"pplab-sim: error: data race on shared memory in kernel 'tree_no_barrier'",
                        "kernel 'tree_no_barrier' (launched at",
                        "block (0,0,0):\n",
                        "in __shared__ partial (128 elements of 4 bytes, declared at",
                        "shared_checks.cu:10)",
                        "thread (1,0,0) (warp 0, lane 1) writes partial[1] at",
                        "thread (0,0,0) (warp 0, lane 0) read it at",
                        "shared_checks.cu:14 since the last __syncthreads()",
                        "they need a __syncthreads() between them (a __syncwarp() would order only these two lanes"});
  out = failing_case(kSharedChecks, "tree", "reverse");
  expect_contains(out, {"thread (31,0,0) (warp 0, lane 31) reads partial[63] at",
                        "thread (63,0,0) (warp 1, lane 31) wrote it at",
                        "the threads are in different warps and need a __syncthreads() between them"});
}

TEST_CASE("warp ping-pong buffers without __syncwarp are a data race between the read and the write line") {
  std::string out = failing_case(kSharedChecks, "warp");
  expect_contains(out, {"data race on shared memory in kernel 'warp_no_syncwarp'",
                        "thread (1,0,0) (warp 0, lane 1) writes buffers[33] at",
                        "shared_checks.cu:27\n",
                        "thread (0,0,0) (warp 0, lane 0) read it at",
                        "shared_checks.cu:26 since",
                        "the lanes need a __syncthreads() (or, in a block of one warp, a __syncwarp()) between them"});
}

TEST_CASE("a race through a device function's volatile pointer into a cast array is found") {
  std::string out = failing_case(kSharedChecks, "pointer");
  expect_contains(out, {"data race on shared memory in kernel 'race_through_pointer'",
                        "__shared__ raw (64 elements of 4 bytes",
                        "writes raw[1] at",
                        "shared_checks.cu:33"});
}

namespace {
// A case that must finish despite its warnings (status 0, no error); returns the output.
std::string finishing_case(const char* name, const std::string& which) {
  auto r = checked_run(name, which, "forward");
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(contains(r.output, which + " finished: "));
  CHECK(!contains(r.output, "pplab-sim: error"));
  return r.output;
}

int count_of(const std::string& haystack, const std::string& needle) {
  int n = 0;
  for (auto at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("a shared read no thread of the block wrote is a warning, in the second block too, and gives the poison") {
  std::string out = finishing_case(kSharedChecks, "uninit");
  expect_contains(out, {"pplab-sim: warning: uninitialised shared read in kernel 'uninit_static'",
                        "block (1,0,0), thread (0,0,0)",
                        "reads slots[31] at",
                        "shared_checks.cu:49\n",
                        "in __shared__ slots (32 elements of 4 bytes, declared at",
                        "shared_checks.cu:46)",
                        "the kernel goes on, and the read gives the emulator's poison",
                        // block 1's thread 0 stored what it read: the poison, -1
                        "uninit finished: -1\n"});
  out = finishing_case(kSharedChecks, "uninit_dynamic");
  expect_contains(out, {"pplab-sim: warning: uninitialised shared read in kernel 'uninit_dynamic'",
                        "reads byte 128 of the dynamic shared memory at",
                        "shared_checks.cu:56\n",
                        "(extern __shared__, 256 bytes in this launch)",
                        "uninit_dynamic finished: -1\n"});
}

TEST_CASE("a harmless uninitialised shared read is warned about once per line and the kernel finishes right") {
  // Eight blocks, thirty lanes each reading an unwritten slot at one line.
  const std::string out = finishing_case(kSharedChecks, "harmless_uninit");
  INFO(out);
  CHECK(count_of(out, "pplab-sim: warning: uninitialised shared read") == 1);
  expect_contains(out, {"uninitialised shared read in kernel 'harmless_uninit'", "reads sums[2] at",
                        "shared_checks.cu:170\n", "reported once per line", "harmless_uninit finished: 2\n"});
}

TEST_CASE("an index read from unwritten shared memory that runs out of bounds is reported with the warning") {
  auto r = checked_run(kSharedChecks, "index_from_uninit", "forward");
  expect_run(r, Exit::with_error,
             {"pplab-sim: warning: uninitialised shared read in kernel 'index_from_uninit'", "reads where[0] at",
              "shared_checks.cu:186\n",
              "pplab-sim: error: shared memory out of bounds in kernel 'index_from_uninit'",
              "reads 4 bytes at tile[-1] at", "that is before the start of __shared__ tile",
              "a thread read uninitialised shared memory (the warning above): that value may be what put the index "
              "out of range"});
  CHECK(!contains(r.output, "index_from_uninit finished"));
}

TEST_CASE("a write after many threads read one word in an interval is a race with a reader on record") {
  // Forward: threads 0 and 1 are the readers on record, 2 to 39 read through the
  // fast path, thread 40 reads and then writes. Reverse: 63 and 62 are on record.
  std::string out = failing_case(kSharedChecks, "many_readers");
  expect_contains(out, {"data race on shared memory in kernel 'many_readers_then_write'",
                        "thread (40,0,0) (warp 1, lane 8) writes tile[0] at", "shared_checks.cu:196\n",
                        "thread (0,0,0) (warp 0, lane 0) read it at", "shared_checks.cu:195 since"});
  out = failing_case(kSharedChecks, "many_readers", "reverse");
  expect_contains(out, {"thread (40,0,0) (warp 1, lane 8) writes tile[0] at",
                        "thread (63,0,0) (warp 1, lane 31) read it at"});
}

TEST_CASE("a read that runs ahead of another thread's write is reported as the race it is") {
  // In forward order threads 0..3 read tile[7..4] before their owners wrote them;
  // thread 4's write is the first to meet such a read. Without the later write it
  // would be an uninitialised read.
  std::string out = failing_case(kSharedChecks, "reverse");
  expect_contains(out, {"data race on shared memory in kernel 'reverse_no_barrier'",
                        "thread (4,0,0) (warp 0, lane 4) writes tile[4] at",
                        "shared_checks.cu:128\n",
                        "thread (3,0,0) (warp 0, lane 3) read it at",
                        "shared_checks.cu:129 since"});
  CHECK(!contains(out, "uninitialised"));
}

TEST_CASE("shared accesses past the end, before the start and past the dynamic size name array, index and line") {
  std::string out = failing_case(kSharedChecks, "past_end");
  expect_contains(out, {"pplab-sim: error: shared memory out of bounds in kernel 'past_end'",
                        "thread (31,0,0)",
                        "reads 4 bytes at tile[32] at",
                        "shared_checks.cu:65\n",
                        "that is past the end of __shared__ tile (32 elements of 4 bytes"});
  out = failing_case(kSharedChecks, "before_start");
  expect_contains(out, {"reads 4 bytes at second[-17] at",
                        "shared_checks.cu:72\n",
                        "that is before the start of __shared__ second (16 elements"});
  out = failing_case(kSharedChecks, "past_dynamic");
  expect_contains(out, {"thread (16,0,0)",
                        "writes 1 byte at byte 64 of the dynamic shared memory at",
                        "shared_checks.cu:76\n",
                        "past the end of the dynamic shared memory (extern __shared__, 64 bytes in this launch)"});
}

TEST_CASE("shared atomics, barrier trees, __syncwarp double buffers, shuffles and a volatile flag report nothing") {
  expect_clean(kSharedChecks, "clean", "clean finished: 515",
               {"forward", "reverse", "random:1", "random:2"});
}

TEST_CASE("single bytes of shared words are checked per byte: their own bytes never race, a neighbour's does") {
  expect_clean(kSharedChecks, "bytes", "bytes finished: 192", {"forward", "reverse", "random:1"});
  // Forward: thread 0 writes flags[0] (line 155), thread 1 reads it (line 156);
  // threads 0 to 3 writing the four bytes of one word is no race.
  std::string out = failing_case(kSharedChecks, "byte_race");
  expect_contains(out, {"data race on shared memory in kernel 'byte_race'",
                        "thread (1,0,0) (warp 0, lane 1) reads flags[0] at",
                        "shared_checks.cu:156\n",
                        "thread (0,0,0) (warp 0, lane 0) wrote it at",
                        "shared_checks.cu:155 since the last __syncthreads()"});
}

TEST_CASE("a namespace-scope __shared__ array is checked: a race with both lines") {
  // Forward order: thread 0 writes sums[0] (line 15), thread 31 reads it (line 16).
  std::string out = failing_case(kNamespaceShared, "race");
  expect_contains(out, {"pplab-sim: error: data race on shared memory in kernel 'race_on_namespace_array'",
                        "thread (31,0,0) (warp 0, lane 31) reads sums[0] at",
                        "namespace_shared.cu:16\n",
                        "thread (0,0,0) (warp 0, lane 0) wrote it at",
                        "namespace_shared.cu:15 since the last __syncthreads()",
                        "in __shared__ sums (64 elements of 4 bytes, declared at",
                        "namespace_shared.cu:8)"});
  // Under every order: the two accesses share one barrier interval whatever runs first.
  for (const char* schedule : {"reverse", "random:1"}) {
    std::string o = failing_case(kNamespaceShared, "race", schedule);
    CHECK(contains(o, "data race on shared memory in kernel 'race_on_namespace_array'"));
  }
}

TEST_CASE("a namespace-scope __shared__ array is checked: out of bounds, and unwritten (a warning) in every block") {
  std::string out = failing_case(kNamespaceShared, "past_end");
  expect_contains(out, {"pplab-sim: error: shared memory out of bounds in kernel 'past_end_of_namespace_array'",
                        "thread (31,0,0) (warp 0, lane 31):\n",
                        "reads 4 bytes at tile[32] at",
                        "namespace_shared.cu:23\n",
                        "that is past the end of __shared__ tile (32 elements of 4 bytes, declared at",
                        "namespace_shared.cu:10)"});
  // Block 0 wrote spare[]; block 1 did not, and reads it (a warning: the run goes on).
  out = finishing_case(kNamespaceShared, "uninit");
  expect_contains(out, {"pplab-sim: warning: uninitialised shared read in kernel 'uninit_namespace_array'",
                        "block (1,0,0), thread (0,0,0)",
                        "reads spare[7] at",
                        "namespace_shared.cu:30\n"});
}

TEST_CASE("a barrier tree over a namespace-scope __shared__ array in many blocks reports nothing") {
  expect_clean(kNamespaceShared, "clean", "clean finished: 323200",  // 64 * (1 + 2 + ... + 100)
               {"forward", "reverse", "random:1"});
}

TEST_CASE("PPLAB_SIM_CHECK=off turns the shared-memory checks off, and a bad value is an error") {
  expect_run(run("PPLAB_SIM_CHECK=off " + program("pplab_sim_prog_shared_checks") + " tree"), Exit::cleanly,
             {"tree finished"});
  const auto r = run("PPLAB_SIM_CHECK=maybe " + program("pplab_sim_prog_shared_checks") + " clean");
  CHECK(r.status == 1);
  CHECK(contains(r.output, "pplab-sim: error: PPLAB_SIM_CHECK='maybe' is not on or off (or 1 or 0)"));
}

TEST_CASE("every PPLAB_SIM_ setting refuses a value it does not accept, naming it, instead of changing it quietly") {
  // Each used to be read its own way: a bad timeout became 60 s, a bad thread count 1,
  // a small stack 16 KiB, with nothing said (settings.h).
  const struct {
    const char* setting;
    const char* says;
  } bad[] = {
      {"PPLAB_SIM_TIMEOUT=soon", "PPLAB_SIM_TIMEOUT='soon' is not a number of seconds greater than 0"},
      {"PPLAB_SIM_TIMEOUT=0", "PPLAB_SIM_TIMEOUT='0' is not a number of seconds greater than 0"},
      {"PPLAB_SIM_THREADS=0", "PPLAB_SIM_THREADS='0' is not a whole number from 1 to 256"},
      {"PPLAB_SIM_THREADS=4x", "PPLAB_SIM_THREADS='4x' is not a whole number from 1 to 256"},
      {"PPLAB_SIM_STACK_KIB=8", "PPLAB_SIM_STACK_KIB='8' is not a whole number from 16 to 1048576"},
      {"PPLAB_SIM_SCHEDULE=backwards",
       "PPLAB_SIM_SCHEDULE='backwards' is not one of forward, reverse, random, random:<seed>"},
      {"PPLAB_SIM_DEVICE=k80", "PPLAB_SIM_DEVICE 'k80' is not a device the emulator knows"},
  };
  for (const auto& b : bad) {
    CAPTURE(b.setting);
    const auto r = run(std::string(b.setting) + " " + program("pplab_sim_prog_shared_checks") + " clean");
    CHECK(r.status == 1);
    CHECK(contains(r.output, std::string("pplab-sim: error: ") + b.says));
  }
  // And a good value of each is taken.
  expect_run(run("PPLAB_SIM_TIMEOUT=2.5 PPLAB_SIM_THREADS=3 PPLAB_SIM_STACK_KIB=256 PPLAB_SIM_SCHEDULE=random:4 " +
                 program("pplab_sim_prog_shared_checks") + " clean"),
             Exit::cleanly, {"clean finished"});
}

TEST_CASE("an out-of-bounds write names the kernel, block, thread, allocation and line") {
  // The first thread past the end depends on the order threads run in: pin it, so
  // the suite also passes when PPLAB_SIM_SCHEDULE is set for the labs around it.
  // CUDA's error model: the report, then the error is sticky from the next synchronising
  // call until cudaDeviceReset; the program's own verdict on it is its exit status 1.
  const auto r = expect_run(run("PPLAB_SIM_SCHEDULE=forward " + program("pplab_sim_prog_oob")), Exit::with_error,
                            {"pplab-sim: error: out-of-bounds write in kernel 'fill'",
                             "block (3,0,0)",
                             "thread (232,0,0)",
                             "0 bytes past the end of a 4000-byte cudaMalloc allocation",
                             "oob.cu:13",
                             "the launch stops; the next synchronising call returns cudaErrorIllegalAddress",
                             "sync: cudaErrorIllegalAddress (an illegal memory access was encountered)",
                             "later: copy cudaErrorIllegalAddress, launch cudaErrorIllegalAddress",
                             "after cudaDeviceReset: cudaSuccess, out[0] = 0"});
  CHECK(r.status == 1);
  // Only the first fault is reported, though every later thread of the launch would fault too.
  CHECK(r.output.find("out-of-bounds") == r.output.rfind("out-of-bounds"));
}

TEST_CASE("a fault ends its block while the block's other threads wait at a barrier") {
  // The abandoned block's fibers are replaced: barriers work after the reset.
  const auto r = expect_run(run(program("pplab_sim_prog_oob") + " barrier"), Exit::with_error,
                            {"pplab-sim: error: out-of-bounds read in kernel 'staged'",
                             "block (1,0,0), thread (200,0,0)",
                             "0 bytes past the end of a 4096-byte cudaMalloc allocation",
                             "oob.cu:20",
                             "sync: cudaErrorIllegalAddress",
                             "after cudaDeviceReset: cudaSuccess, out[0] = 0"});
  CHECK(r.status == 1);
}

TEST_CASE("set_faults_end_process(true): the fault report ends the process") {
  const auto r = expect_run(run("PPLAB_SIM_SCHEDULE=forward " + program("pplab_sim_prog_oob") + " end"),
                            Exit::with_error, {"pplab-sim: error: out-of-bounds write in kernel 'fill'", "oob.cu:13"});
  CHECK(r.status == 1);
  CHECK(!contains(r.output, "the launch stops"));
  CHECK(!contains(r.output, "sync:"));
}

TEST_CASE("host code that writes a cudaMalloc buffer is reported as a host write of device memory, naming it") {
  const auto r = expect_run(run(program("pplab_sim_prog_host_device_access") + " write"), Exit::with_error,
                            {"pplab-sim: error: device memory written in host code at",
                             "(byte 12 of a 4000-byte cudaMalloc allocation at",
                             "a GPU's device memory is not the host's",
                             "copy it with cudaMemcpy",
                             "faulting source line: ",
                             "host_device_access.cu:29"});
  CHECK(r.status == 1);
  CHECK(!contains(r.output, "unnoticed"));
}

TEST_CASE("host code that reads a cudaMalloc buffer after cudaDeviceSynchronize is reported as a host read") {
  const auto r = expect_run(run(program("pplab_sim_prog_host_device_access") + " read"), Exit::with_error,
                            {"pplab-sim: error: device memory read in host code at",
                             "(byte 20 of a 4000-byte cudaMalloc allocation at",
                             "host_device_access.cu:37"});
  CHECK(r.status == 1);
  CHECK(!contains(r.output, "unnoticed"));
}

TEST_CASE("host reads of device memory through a library call, cudaMallocAsync buffers and host callbacks are reported") {
  // std::memcpy faults inside the C library: the report names the caller's line.
  expect_run(run(program("pplab_sim_prog_host_device_access") + " library"), Exit::with_error,
             {"pplab-sim: error: device memory read in host code at", "(byte 0 of a 4000-byte cudaMalloc allocation",
              "host_device_access.cu:44"});
  expect_run(run(program("pplab_sim_prog_host_device_access") + " async"), Exit::with_error,
             {"pplab-sim: error: device memory written in host code at", "(byte 0 of a 4000-byte cudaMalloc allocation",
              "host_device_access.cu:50"});
  // A host function on a stream is host code, on a GPU too: device memory stays closed to it.
  expect_run(run(program("pplab_sim_prog_host_device_access") + " callback"), Exit::with_error,
             {"pplab-sim: error: device memory read in host code at", "(byte 0 of a 4000-byte cudaMalloc allocation",
              "host_device_access.cu:14"});
}

TEST_CASE("managed and pinned host memory stay open to the host, and the runtime's copies of device memory work") {
  expect_run(run(program("pplab_sim_prog_host_device_access") + " open"), Exit::cleanly,
             {"managed and pinned memory from the host: ok", "copies of device memory: ok, memset 0, cudaSuccess"});
}

TEST_CASE("threads that exit while others wait at __syncthreads are barrier divergence") {
  const auto r = expect_run(run(program("pplab_sim_prog_divergence")), Exit::with_error,
                            {"pplab-sim: error: barrier divergence",
                             "kernel 'early_exit'"});
  // Both blocks diverge; the worker that finds it first reports its block.
  CHECK((contains(r.output, "block (0,0,0)") || contains(r.output, "block (1,0,0)")));
  expect_contains(r.output, {"threads (0,0,0)..(15,0,0) [16 threads] wait at __syncthreads() at",
                             "divergence.cu:6",
                             "(16,0,0)..(63,0,0) [48 threads] have exited"});
}

TEST_CASE("threads waiting at two different __syncthreads calls are reported with both lines") {
  expect_run(run(program("pplab_sim_prog_two_barriers")), Exit::with_error,
             {"different __syncthreads() calls",
              "two_barriers.cu:6",
              "two_barriers.cu:8"});
}

TEST_CASE("a warp op whose mask names exited lanes says where they are") {
  expect_run(run(program("pplab_sim_prog_warp_mask")), Exit::with_error,
             {"pplab-sim: error: warp operation cannot complete in kernel 'half_warp'",
              "__shfl_down_sync(mask 0xffffffff) at",
              "warp_mask.cu:6",
              "lane 16",
              "has exited"});
}

TEST_CASE("lanes split between a warp op and a barrier are a deadlock naming both lines") {
  expect_run(run(program("pplab_sim_prog_warp_vs_barrier")), Exit::with_error,
             {"warp_vs_barrier.cu:7",
              "waits at __syncthreads() at",
              "warp_vs_barrier.cu:9"});
}

TEST_CASE("a spin-wait deadlock is ended by the watchdog after PPLAB_SIM_TIMEOUT") {
  // Thread 0 spins waiting for a later thread: under the forward order it never ends.
  const auto r = expect_run(run("PPLAB_SIM_SCHEDULE=forward PPLAB_SIM_TIMEOUT=1 " + program("pplab_sim_prog_spin")),
                            Exit::with_error,
                            {"pplab-sim: error: kernel 'spin'",
                             "still running after",
                             "thread (0,0,0)"});
  CHECK((contains(r.output, "now at /") && (contains(r.output, "spin.cu:10") || contains(r.output, "spin.cu:11"))));
}

TEST_CASE("device printf reaches stdout and the schedule comes from PPLAB_SIM_SCHEDULE") {
  expect_run(run("PPLAB_SIM_SCHEDULE=reverse " + program("pplab_sim_prog_hello")), Exit::cleanly,
             {"hello from block 1 thread 1 value 11",
              "device: NVIDIA H200 (pplab CPU emulator",
              "schedule: 1"});
  auto rnd = run("PPLAB_SIM_SCHEDULE=random:42 " + program("pplab_sim_prog_hello"));
  CHECK(contains(rnd.output, "schedule: 2"));
  auto bad = run("PPLAB_SIM_SCHEDULE=sideways " + program("pplab_sim_prog_hello"));
  CHECK(bad.status != 0);
  CHECK(contains(bad.output, "pplab-sim: error: PPLAB_SIM_SCHEDULE='sideways' is not one of"));
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

TEST_CASE("simcc compiles a standalone .cu program and its errors name the .cu line") {
  std::string dir = PPLAB_SIM_TEST_TMP_DIR;
  auto ok = run(std::string(PPLAB_SIM_SIMCC) + " -O2 " + PPLAB_SIM_TEST_SRC_DIR + "/programs/hello.cu -o " + dir +
                "/simcc_hello && " + dir + "/simcc_hello");
  INFO(ok.output);
  CHECK(ok.status == 0);
  CHECK(contains(ok.output, "hello from block 0 thread 0 value 10"));
  auto bad = run(std::string(PPLAB_SIM_SIMCC) + " " + PPLAB_SIM_TEST_SRC_DIR + "/programs/broken.cu -o " + dir +
                 "/simcc_broken");
  INFO(bad.output);
  CHECK(bad.status != 0);
  CHECK(contains(bad.output, "programs/broken.cu:6"));
}

namespace {
// Builds tests/programs/nvcc_like/<name>.cu with simcc, as a user would with nvcc, and runs it.
RunResult simcc_run(const std::string& name, const std::string& env = "") {
  std::string dir = PPLAB_SIM_TEST_TMP_DIR;
  std::string src = std::string(PPLAB_SIM_TEST_SRC_DIR) + "/programs/nvcc_like/" + name + ".cu";
  RunResult built = run(std::string(PPLAB_SIM_SIMCC) + " -O2 -arch=sm_90 " + src + " -o " + dir + "/nvcc_like_" + name);
  if (built.status != 0) return built;
  return run(env + dir + "/nvcc_like_" + name);
}
}  // namespace

TEST_CASE("a .cu file without includes gets the runtime header, as under nvcc") {
  expect_run(simcc_run("implicit"), Exit::cleanly,
             {"implicit include: h[99] = 297, CUDART_VERSION = 13000"});
}

TEST_CASE("launches and extern T __shared__ in an included .cuh are rewritten with their lines kept") {
  expect_run(simcc_run("header_launch"), Exit::cleanly,
             {"header line 10\n",
              "launch in a header: reversed, main line 14"});
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

TEST_CASE("registered and mapped host memory, cudaMemLocation prefetch, occupancy, umin and CUDA 13 vector types") {
  expect_run(simcc_run("runtime_api"), Exit::cleanly,
             {"registered cudaSuccess, mapped same address, block 256, host[0] 1 host[63] 5",
              "prefetch cudaSuccess, attach cudaSuccess",
              "alignof long4 16 double4_16a 16 double4_32a 32 ulong2 16",
              "compute mode 0 (default 0)"});
}

TEST_CASE("a failed device assert prints CUDA's line and leaves cudaErrorAssert sticky") {
  const auto r = expect_run(simcc_run("device_assert"), Exit::cleanly,
                            {"device_assert.cu:8: void check(int): block: [1,0,0], thread: [28,0,0] Assertion `i < n` failed.",
                             "thread: [31,0,0] Assertion"});
  CHECK(!contains(r.output, "thread: [27,0,0] Assertion"));
  expect_contains(r.output, {"pplab-sim: error: device assert failed in kernel 'check'",
                             "sync cudaErrorAssert, later cudaErrorAssert"});
}

TEST_CASE("a shuffle reading a lane outside its mask is reported with its line") {
  expect_run(simcc_run("ub_shuffle"), Exit::with_error,
             {"pplab-sim: error: undefined shuffle in kernel 'partial_sum'",
              "ub_shuffle.cu:6 (mask 0x000000ff): lane 0 reads lane 16, which the mask leaves out"});
}

TEST_CASE("__CUDA_ARCH__ is the sim's device in code only a GPU compiles, and undefined in host code") {
  expect_run(simcc_run("cuda_arch"), Exit::cleanly,
             {"arch: sum_path 800, device_body 900, both_sides 1, kernel 90, lambda 7, host_group 1, host_body 10\n"});
}

namespace {
// A simcc program built for a device (PPLAB_SIM_DEVICE when compiling) and run with `env`.
RunResult simcc_run_for(const std::string& device, const std::string& name, const std::string& args = "",
                        const std::string& env = "") {
  const std::string src = std::string(PPLAB_SIM_TEST_SRC_DIR) + "/programs/nvcc_like/" + name + ".cu";
  const std::string exe = std::string(PPLAB_SIM_TEST_TMP_DIR) + "/nvcc_like_" + name + "_" + device;
  RunResult built = run("PPLAB_SIM_DEVICE=" + device + " " + PPLAB_SIM_SIMCC + " " + src + " -o " + exe);
  if (built.status != 0) return built;
  return run("env -u PPLAB_SIM_DEVICE " + env + exe + " " + args);
}

struct ProfileFacts {
  const char *key, *name;
  int arch, optin;
};
// From NVIDIA's tables: the most dynamic shared memory a block may opt into, by GPU.
const ProfileFacts kProfileFacts[] = {
    {"v100", "Tesla V100-SXM2-16GB", 700, 98304}, {"t4", "Tesla T4", 750, 65536},
    {"a100", "NVIDIA A100-SXM4-40GB", 800, 166912}, {"a10", "NVIDIA A10", 860, 101376},
    {"l4", "NVIDIA L4", 890, 101376},   {"h100", "NVIDIA H100 80GB HBM3", 900, 232448},
    {"h200", "NVIDIA H200", 900, 232448}};
}  // namespace

TEST_CASE("each device profile reports its GPU, lets a block opt into its shared memory and no more, and sets __CUDA_ARCH__") {
  for (const ProfileFacts& gpu : kProfileFacts) {
    INFO(gpu.key);
    const std::string optin = std::to_string(gpu.optin), above = std::to_string(gpu.optin + 1);
    const std::string cc = std::to_string(gpu.arch / 100) + "." + std::to_string(gpu.arch % 100 / 10);
    expect_run(simcc_run_for(gpu.key, "device_profile"), Exit::cleanly,
               {std::string("device: ") + gpu.name + " (pplab CPU emulator", "; " + cc + " (attribute",
                "opt-in " + optin + ", per SM",
                "opt-in " + optin + " bytes: cudaSuccess, launch cudaSuccess, __CUDA_ARCH__ " + std::to_string(gpu.arch),
                "opt-in " + above + " bytes: cudaErrorInvalidValue, launch cudaErrorInvalidValue; 1025 threads: "
                "cudaErrorInvalidValue",
                "warp sum 32"});
  }
}

TEST_CASE("PPLAB_SIM_DEVICE at run time picks the device; code built for a newer one gets no kernel image") {
  // Built for the T4, run as an H200: the older architecture's code runs (as its PTX would).
  expect_run(simcc_run_for("t4", "device_profile", "", "PPLAB_SIM_DEVICE=h200 "), Exit::cleanly,
             {"device: NVIDIA H200", "launch cudaSuccess, __CUDA_ARCH__ 750"});
  // Built for the H200, run as a T4: its device code tests __CUDA_ARCH__, so it cannot run.
  expect_run(simcc_run_for("h200", "device_profile", "", "PPLAB_SIM_DEVICE=T4 "), Exit::cleanly,
             {"device: Tesla T4", "launch cudaErrorNoKernelImageForDevice",
              "device_profile.cu was compiled for sm_90 (its device code tests __CUDA_ARCH__), and the Tesla T4 "
              "(PPLAB_SIM_DEVICE=t4) is sm_75"});
  const RunResult unknown = simcc_run_for("h200", "device_profile", "", "PPLAB_SIM_DEVICE=rtx9000 ");
  CHECK(unknown.status != 0);
  CHECK(contains(unknown.output, "PPLAB_SIM_DEVICE 'rtx9000' is not a device the emulator knows; it knows v100, t4"));
}

TEST_CASE("static shared memory above 48 KiB, and static plus dynamic above the device's limit, are reported") {
  expect_run(simcc_run_for("h200", "device_profile", "static"), Exit::with_error,
             {"too much static shared memory: __shared__ big (declared at", "device_profile.cu:26",
              "49156 bytes, above the 48 KiB (49152 bytes) a kernel may declare"});
  expect_run(simcc_run_for("t4", "device_profile", "static_and_dynamic"), Exit::with_error,
             {"too much shared memory for the Tesla T4 (PPLAB_SIM_DEVICE=t4): __shared__ fixed", "device_profile.cu:33",
              "40960 static and 49152 dynamic bytes, above the 65536"});
  expect_run(simcc_run_for("h200", "device_profile", "static_and_dynamic"), Exit::cleanly, {});
}

TEST_CASE("__reduce_*_sync does not compile for a GPU below sm_80, and is reported with its line when run on one") {
  const RunResult built_for_t4 = simcc_run_for("t4", "warp_reduce");
  CHECK(built_for_t4.status != 0);
  CHECK(contains(built_for_t4.output, "warp_reduce.cu:12:19:   required from here"));
  CHECK(contains(built_for_t4.output, "__reduce_*_sync needs compute capability 8.0 (sm_80)"));
  expect_run(simcc_run_for("a100", "warp_reduce", "", "PPLAB_SIM_DEVICE=t4 "), Exit::with_error,
             {"pplab-sim: error: __reduce_*_sync at", "warp_reduce.cu:12 in kernel 'reduce'",
              "needs compute capability 8.0 (sm_80), and the Tesla T4 (PPLAB_SIM_DEVICE=t4) is sm_75"});
}

TEST_CASE("__reduce_*_sync reduce over the lanes of the mask, min and max signed for int") {
  expect_run(simcc_run("warp_reduce"), Exit::cleanly,
             {"reduce: add -10, min -10, max 9, min unsigned 0, or 0xfffff, and 0x1, xor 0xffffe\n"});
}

TEST_CASE("the rewriter's depfile names its input, so a build does not redo the rewrite of a file without headers") {
  // An empty depfile is, to ninja, a missing one: it reran such a rewrite, and every
  // compile after it, on each build.
  const std::string src = std::string(PPLAB_SIM_TEST_SRC_DIR) + "/programs/nvcc_like/ub_shuffle.cu";
  const std::string out = std::string(PPLAB_SIM_TEST_TMP_DIR) + "/depfile_probe.cpp";
  const RunResult rewritten = run(std::string(PPLAB_SIM_REWRITE) + " " + src + " " + out + " --depfile " + out + ".d");
  REQUIRE(rewritten.status == 0);
  std::ifstream depfile(out + ".d");
  const std::string text((std::istreambuf_iterator<char>(depfile)), std::istreambuf_iterator<char>());
  INFO(text);
  CHECK(text.rfind(out + ": ", 0) == 0);
  CHECK(contains(text, "nvcc_like/ub_shuffle.cu"));
}

TEST_CASE("simcc --version and --help say what is supported") {
  auto v = run(std::string(PPLAB_SIM_SIMCC) + " --version");
  CHECK(v.status == 0);
  CHECK(contains(v.output, "simcc (pplab CPU emulator): CUDA runtime API 13.0 subset"));
  auto h = run(std::string(PPLAB_SIM_SIMCC) + " --help");
  CHECK(h.status == 0);
  expect_contains(h.output, {"cooperative groups",
                             "Not supported: dynamic parallelism"});
}

TEST_CASE("launches run concurrently with the host, in stream order, and synchronising calls wait for them") {
  expect_run(simcc_run("streams", "PPLAB_SIM_TIMEOUT=20 "), Exit::cleanly,
             {"while waiting: cudaErrorNotReady; after the flag: out = 42, cudaSuccess",
              "in stream order: 34, stream cudaSuccess"});
}

TEST_CASE("thrust's device_vector, sort_by_key and copy run on its C++ back end") {
  expect_run(simcc_run("thrust_sort"), Exit::cleanly,
             {"thrust sort_by_key: sorted, values follow"});
}

TEST_CASE("launches take nvcc's spellings, and their arguments convert to the kernel's parameter types") {
  expect_run(simcc_run("launch_arguments"), Exit::cleanly,
             {"spaced launch, default argument: 5\n", "null pointers: 5\n", "converted: 11.5\n",
              "templates: 7.0 4\n", "through a pointer: 9, cudaSuccess\n"});
}

TEST_CASE("every cudaError_t of CUDA 13 has its value, name and text, so an error-name switch compiles") {
  expect_run(simcc_run("error_names"), Exit::cleanly,
             {"34 cudaErrorStubLibrary cudaErrorStubLibrary: CUDA driver is a stub library\n",
              "222 cudaErrorUnsupportedPtxVersion cudaErrorUnsupportedPtxVersion: the provided PTX was compiled with "
              "an unsupported toolchain.\n",
              "910 cudaErrorGraphExecUpdateFailure cudaErrorGraphExecUpdateFailure: the graph update was not",
              "10000 cudaErrorApiFailureBase cudaErrorApiFailureBase: api failure base\n"});
}

namespace {
// A fresh folder under the test's build folder, for builds that write where they run.
std::string fresh_dir(const std::string& name) {
  const std::string dir = std::string(PPLAB_SIM_TEST_TMP_DIR) + "/" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}
const std::string nvcc_like_dir = std::string(PPLAB_SIM_TEST_SRC_DIR) + "/programs/nvcc_like/";
}  // namespace

TEST_CASE("a C file calls the runtime API: compiled by simcc, or by gcc against the sim's headers, it links") {
  const std::string dir = fresh_dir("c_caller");
  const std::string src = nvcc_like_dir + "c_caller/";
  const std::string expected = "from C: 1 device, warp 32, host[255] = 510\n";
  // One simcc command for both files, as `nvcc main.c scale.cu` would.
  expect_run(run(std::string("cd ") + dir + " && " + PPLAB_SIM_SIMCC + " " + src + "main.c " + src +
                 "scale.cu -o both && ./both"),
             Exit::cleanly, {expected, "cudaSetDevice(7): cudaErrorInvalidDevice (invalid device ordinal)\n"});
  // A Makefile's way: the C file by the C compiler, the .cu by simcc -c (no -o: scale.o), linked by simcc.
  const std::string sim_include = std::string(PPLAB_SIM_TEST_SRC_DIR) + "/../include";
  expect_run(run(std::string("cd ") + dir + " && cc -std=c99 -Wall -Werror -I" + sim_include + " -c " + src +
                 "main.c -o main.o && " + PPLAB_SIM_SIMCC + " -c " + src + "scale.cu && " + PPLAB_SIM_SIMCC +
                 " main.o scale.o -o apart && ./apart"),
             Exit::cleanly, {expected});
}

TEST_CASE("simcc follows nvcc's include rules and names objects as nvcc does") {
  const std::string dir = fresh_dir("include_rules");
  const RunResult r = expect_run(run(std::string("cd ") + dir + " && " + PPLAB_SIM_SIMCC + " -c " + nvcc_like_dir +
                                     "include_rules/main.cu && " + PPLAB_SIM_SIMCC + " main.o -o prog && ./prog"),
                                 Exit::cleanly, {"include rules: 42, pid positive\n"});
  CHECK(!contains(r.output, "the local unistd.h was read"));
  // -c with -o and two sources cannot name both objects.
  expect_run(run(std::string("cd ") + dir + " && " + PPLAB_SIM_SIMCC + " -c " + nvcc_like_dir + "c_caller/main.c " +
                 nvcc_like_dir + "c_caller/scale.cu -o one.o"),
             Exit::with_error, {"simcc: error: -c with -o takes one source file"});
  // nvcc's steps that have no counterpart here are refused by name.
  expect_run(run(std::string(PPLAB_SIM_SIMCC) + " -cuda " + nvcc_like_dir + "c_caller/scale.cu"), Exit::with_error,
             {"simcc: error: -cuda asks nvcc for one step of its GPU pipeline"});
}

TEST_CASE("a dependent member template without `template`: simcc names the line and the fix") {
  const RunResult r = run(std::string(PPLAB_SIM_SIMCC) + " " + nvcc_like_dir + "missing_template_keyword.cu -o " +
                          PPLAB_SIM_TEST_TMP_DIR + "/missing_template_keyword");
  INFO(r.output);
  CHECK(r.status != 0);
  expect_contains(r.output, {"missing_template_keyword.cu:10:", "simcc: note: nvcc accepts a member template",
                             "write t.template f<1>(x)"});
}
