// The dot-product benchmark of dot_product_bench.cu, the same kernel and sizes,
// written for AMD's HIP-CPU runtime (header-only; TBB underneath), so that the sim
// can be measured against another CUDA/HIP-on-the-CPU runtime side by side.
// Built by compare_hip_cpu.sh, not by CMake. Prints the same two lines.
#include <hip/hip_runtime.h>

#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
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

int main(int argc, char** argv) {
  int log2n = argc > 1 ? std::atoi(argv[1]) : 24;
  int n = 1 << log2n;
  std::vector<float> a(n), b(n);
  double expect = 0;
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 3);
    b[i] = (i % 5 == 0) ? 1.0f : 0.0f;
    expect += a[i] * b[i];
  }
  float *da, *db, *dout;
  hipMalloc(&da, n * sizeof(float));
  hipMalloc(&db, n * sizeof(float));
  hipMalloc(&dout, sizeof(float));
  hipMemcpy(da, a.data(), n * sizeof(float), hipMemcpyHostToDevice);
  hipMemcpy(db, b.data(), n * sizeof(float), hipMemcpyHostToDevice);
  hipMemset(dout, 0, sizeof(float));
  hipDeviceSynchronize();
  int blocks = (n + TPB - 1) / TPB;
  timespec c0, c1;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
  auto t0 = std::chrono::steady_clock::now();
  hipLaunchKernelGGL(dot_kernel, dim3(blocks), dim3(TPB), 0, nullptr, da, db, dout, n);
  hipError_t err = hipDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
  float got = 0;
  hipMemcpy(&got, dout, sizeof(float), hipMemcpyDeviceToHost);
  if (err != hipSuccess || got != static_cast<float>(expect)) {
    std::printf("dot product: WRONG result %.1f, expected %.1f\n", got, expect);
    return 1;
  }
  double s = std::chrono::duration<double>(t1 - t0).count();
  std::printf("dot product: %d threads in %.3f s = %.1f M threads/s\n", n, s, n / s / 1e6);
  double cpu = (c1.tv_sec - c0.tv_sec) + (c1.tv_nsec - c0.tv_nsec) * 1e-9;
  unsigned cores = std::thread::hardware_concurrency();
  std::printf("  CPU time %.3f s = %.0f ns per thread; with %u idle cores: %.1f M threads/s\n", cpu, cpu / n * 1e9,
              cores, n / (cpu / cores) / 1e6);
  hipFree(da);
  hipFree(db);
  hipFree(dout);
  return 0;
}
