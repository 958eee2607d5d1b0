// The CUDA runtime API as a one-device runtime answers it: launch configurations and
// their errors, device properties, copies, streams, events, allocations past the
// device's memory, the dynamic shared memory a kernel may opt into, registered and
// mapped host memory, launches running alongside the host, every cudaError_t's name and
// text, and the bytes copied to the host counted against the line that copied them.
#include <doctest/doctest.h>

#include <string>

#include "kernels.h"
#include "test_support.h"

using namespace simtest::support;

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
  // The copy to the device made no site; this file's own copies (not rewritten) none either.
  for (const pplab::sim::CopySite& site : pplab::sim::to_host_sites()) CHECK(!contains(site.file, "test_runtime.cpp"));
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

TEST_CASE("registered and mapped host memory, cudaMemLocation prefetch, occupancy, umin and CUDA 13 vector types") {
  expect_run(simcc_run("runtime_api"), Exit::cleanly,
             {"registered cudaSuccess, mapped same address, block 256, host[0] 1 host[63] 5",
              "prefetch cudaSuccess, attach cudaSuccess",
              "alignof long4 16 double4_16a 16 double4_32a 32 ulong2 16",
              "compute mode 0 (default 0)"});
}

TEST_CASE("launches run concurrently with the host, in stream order, and synchronising calls wait for them") {
  expect_run(simcc_run("streams", "PPLAB_SIM_TIMEOUT=20 "), Exit::cleanly,
             {"while waiting: cudaErrorNotReady; after the flag: out = 42, cudaSuccess",
              "in stream order: 34, stream cudaSuccess"});
}

TEST_CASE("every cudaError_t of CUDA 13 has its value, name and text, so an error-name switch compiles") {
  expect_run(simcc_run("error_names"), Exit::cleanly,
             {"34 cudaErrorStubLibrary cudaErrorStubLibrary: CUDA driver is a stub library\n",
              "222 cudaErrorUnsupportedPtxVersion cudaErrorUnsupportedPtxVersion: the provided PTX was compiled with "
              "an unsupported toolchain.\n",
              "910 cudaErrorGraphExecUpdateFailure cudaErrorGraphExecUpdateFailure: the graph update was not",
              "10000 cudaErrorApiFailureBase cudaErrorApiFailureBase: api failure base\n"});
}
