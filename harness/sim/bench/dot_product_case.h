// The seed's dot product as both dot-product benchmarks run it (dot_product_bench.cu on
// the sim, dot_product_hip_cpu.cpp on HIP-CPU): the kernel, the inputs, the timing and
// the two printed lines, so the runtimes are compared on the same work. HIP spells the
// CUDA runtime's calls with "hip" for "cuda", so the includer names its runtime's
// prefix, includes this after the runtime's header, and defines the two things the
// runtimes do differently:
//   #define DOT_RT(name) cuda##name   (or hip##name)
//   bool launch_dot(int blocks, const float* a, const float* b, float* out, int n);
//     launches dot_kernel<<<blocks, TPB>>> and synchronises; true when it ran
//   int idle_cores();  the cores the runtime spreads blocks over
#pragma once
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int TPB = 256;

__global__ void dot_kernel(const float* a, const float* b, float* out, int n) {
  __shared__ float cache[TPB];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int t = threadIdx.x;
  cache[t] = i < n ? a[i] * b[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) cache[t] += cache[t + stride];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, cache[0]);
}

bool launch_dot(int blocks, const float* a, const float* b, float* out, int n);
int idle_cores();

// Prints "dot product: N threads in S s = X M threads/s" and the CPU-time line that
// compare_hip_cpu.sh reads, or the wrong result (status 1). argv[1]: log2 of the
// number of threads (default 24).
inline int run_dot_benchmark(int argc, char** argv) {
  int log2n = argc > 1 ? std::atoi(argv[1]) : 24;
  int n = 1 << log2n;
  // Small integers keep every partial sum exact in float, so the check is exact.
  std::vector<float> a(n), b(n);
  double expect = 0;
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 3);
    b[i] = (i % 5 == 0) ? 1.0f : 0.0f;
    expect += a[i] * b[i];
  }
  float *da, *db, *dout;
  DOT_RT(Malloc)(&da, n * sizeof(float));
  DOT_RT(Malloc)(&db, n * sizeof(float));
  DOT_RT(Malloc)(&dout, sizeof(float));
  DOT_RT(Memcpy)(da, a.data(), n * sizeof(float), DOT_RT(MemcpyHostToDevice));
  DOT_RT(Memcpy)(db, b.data(), n * sizeof(float), DOT_RT(MemcpyHostToDevice));
  DOT_RT(Memset)(dout, 0, sizeof(float));
  DOT_RT(DeviceSynchronize)();
  int blocks = (n + TPB - 1) / TPB;
  // CPU time too: on a busy machine the wall clock measures the neighbours.
  timespec c0, c1;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
  auto t0 = std::chrono::steady_clock::now();
  const bool ran = launch_dot(blocks, da, db, dout, n);
  auto t1 = std::chrono::steady_clock::now();
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
  float got = 0;
  DOT_RT(Memcpy)(&got, dout, sizeof(float), DOT_RT(MemcpyDeviceToHost));
  DOT_RT(Free)(da);
  DOT_RT(Free)(db);
  DOT_RT(Free)(dout);
  if (!ran || got != static_cast<float>(expect)) {
    std::printf("dot product: WRONG result %.1f, expected %.1f\n", got, expect);
    return 1;
  }
  double s = std::chrono::duration<double>(t1 - t0).count();
  std::printf("dot product: %d threads in %.3f s = %.1f M threads/s\n", n, s, n / s / 1e6);
  double cpu = (c1.tv_sec - c0.tv_sec) + (c1.tv_nsec - c0.tv_nsec) * 1e-9;
  const int cores = idle_cores();
  std::printf("  CPU time %.3f s = %.0f ns per thread; with %d idle cores: %.1f M threads/s\n", cpu, cpu / n * 1e9,
              cores, n / (cpu / cores) / 1e6);
  return 0;
}
