// A full-mask shuffle reached only by the lower half of the warp.
#include <cuda_runtime.h>

__global__ void half_warp(int* out) {
  int v = threadIdx.x;
  if (threadIdx.x < 16) v = __shfl_down_sync(0xffffffffu, v, 1);  // line 6
  out[threadIdx.x] = v;
}

int main() {
  int* d;
  cudaMalloc(&d, 32 * sizeof(int));
  half_warp<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
