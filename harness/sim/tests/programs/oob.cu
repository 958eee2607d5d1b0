// Writes one element past the end: the classic rounded-up grid without `if (i < n)`.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void fill(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 1.0f;  // line 7: no bounds check
}

int main() {
  const int n = 1000;
  float* d;
  cudaMalloc(&d, n * sizeof(float));
  fill<<<(n + 255) / 256, 256>>>(d, n);
  cudaDeviceSynchronize();
  std::printf("not reached\n");
  return 0;
}
