// The dot-product benchmark of dot_product_bench.cu (dot_product_case.h: the same
// kernel, sizes and output) on AMD's HIP-CPU runtime (header-only; TBB underneath), so
// that the sim can be measured against another CUDA/HIP-on-the-CPU runtime side by
// side. Built by compare_hip_cpu.sh, not by CMake.
#include <hip/hip_runtime.h>

#include <thread>

#define DOT_RT(name) hip##name
#include "dot_product_case.h"

bool launch_dot(int blocks, const float* a, const float* b, float* out, int n) {
  hipLaunchKernelGGL(dot_kernel, dim3(blocks), dim3(TPB), 0, nullptr, a, b, out, n);
  return hipDeviceSynchronize() == hipSuccess;
}

int idle_cores() { return int(std::thread::hardware_concurrency()); }

int main(int argc, char** argv) { return run_dot_benchmark(argc, argv); }
