// Speed of the sim on the seed's dot product: 256 threads a block, a shared-memory
// tree reduction with __syncthreads() in the loop (9 barriers a thread), one
// atomicAdd a block, 2^24 threads. Prints "dot product: N threads in S s = X M threads/s".
//   build/<preset>/bin/pplab_sim_dot_bench [log2_elements]
#include <cuda_runtime.h>

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

int main(int argc, char** argv) {
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
  cudaMalloc(&da, n * sizeof(float));
  cudaMalloc(&db, n * sizeof(float));
  cudaMalloc(&dout, sizeof(float));
  cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(dout, 0, sizeof(float));
  int blocks = (n + TPB - 1) / TPB;
  // CPU time too: on a busy machine the wall clock measures the neighbours.
  timespec c0, c1;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
  auto t0 = std::chrono::steady_clock::now();
  dot_kernel<<<blocks, TPB>>>(da, db, dout, n);
  cudaError_t err = cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
  float got = 0;
  cudaMemcpy(&got, dout, sizeof(float), cudaMemcpyDeviceToHost);
  if (err != cudaSuccess || cudaGetLastError() != cudaSuccess || got != static_cast<float>(expect)) {
    std::printf("dot product: WRONG result %.1f, expected %.1f\n", got, expect);
    return 1;
  }
  double s = std::chrono::duration<double>(t1 - t0).count();
  std::printf("dot product: %d threads in %.3f s = %.1f M threads/s\n", n, s, n / s / 1e6);
  double cpu = (c1.tv_sec - c0.tv_sec) + (c1.tv_nsec - c0.tv_nsec) * 1e-9;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("  CPU time %.3f s = %.0f ns per thread; with %d idle cores: %.1f M threads/s\n", cpu, cpu / n * 1e9,
              prop.multiProcessorCount, n / (cpu / prop.multiProcessorCount) / 1e6);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dout);
  return 0;
}
