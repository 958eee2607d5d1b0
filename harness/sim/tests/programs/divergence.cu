// Half the block returns before a barrier the other half waits at.
#include <cuda_runtime.h>

__global__ void early_exit(int* out) {
  if (threadIdx.x >= 16) return;
  __syncthreads();  // line 6
  out[threadIdx.x] = 1;
}

int main() {
  int* d;
  cudaMalloc(&d, 64 * sizeof(int));
  early_exit<<<2, 64>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
