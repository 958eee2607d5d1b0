// Even and odd threads wait at different __syncthreads() calls.
#include <cuda_runtime.h>

__global__ void split(int* out) {
  if (threadIdx.x % 2 == 0) {
    __syncthreads();  // line 6
  } else {
    __syncthreads();  // line 8
  }
  out[threadIdx.x] = 1;
}

int main() {
  int* d;
  cudaMalloc(&d, 32 * sizeof(int));
  split<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
