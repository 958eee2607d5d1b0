// No #include of the runtime: nvcc includes <cuda_runtime.h> before every .cu file.
#include <cstdio>

__global__ void fill(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * 3;
}

int main() {
  int* d = NULL;
  cudaMalloc(&d, 100 * sizeof(int));
  fill<<<4, 32>>>(d, 100);
  int h[100];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("implicit include: h[99] = %d, CUDART_VERSION = %d\n", h[99], CUDART_VERSION);
  return h[99] == 297 ? 0 : 1;
}
