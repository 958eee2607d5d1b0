// Speed of the sim on the seed's dot product: 256 threads a block, a shared-memory
// tree reduction with __syncthreads() in the loop (9 barriers a thread), one
// atomicAdd a block, 2^24 threads. Prints "dot product: N threads in S s = X M threads/s".
//   build/<preset>/bin/pplab_sim_dot_bench [log2_elements]
#include <cuda_runtime.h>

#define DOT_RT(name) cuda##name
#include "dot_product_case.h"

bool launch_dot(int blocks, const float* a, const float* b, float* out, int n) {
  dot_kernel<<<blocks, TPB>>>(a, b, out, n);
  const cudaError_t err = cudaDeviceSynchronize();
  return err == cudaSuccess && cudaGetLastError() == cudaSuccess;
}

int idle_cores() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  return prop.multiProcessorCount;
}

int main(int argc, char** argv) { return run_dot_benchmark(argc, argv); }
