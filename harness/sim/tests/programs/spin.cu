// Thread 0 spins on a flag that a later thread of its block would set: under
// cooperative scheduling (and on some GPUs) that never happens.
#include <cuda_runtime.h>

__global__ void spin(int* out) {
  __shared__ volatile int flag;
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    while (flag == 0) {
    }
  }
  if (threadIdx.x == 1) flag = 1;
  out[threadIdx.x] = 1;
}

int main() {
  int* d;
  cudaMalloc(&d, 2 * sizeof(int));
  spin<<<1, 2>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
