// Device printf, a schedule check, and runtime queries, for the subprocess tests.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void hello(int base) {
  printf("hello from block %d thread %d value %d\n", blockIdx.x, threadIdx.x, base + threadIdx.x);
}

int main() {
  hello<<<2, 2>>>(10);
  cudaDeviceSynchronize();
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  std::printf("device: %s, warp %d\n", p.name, p.warpSize);
  std::printf("schedule: %d\n", static_cast<int>(pplab::sim::schedule()));
  return 0;
}
