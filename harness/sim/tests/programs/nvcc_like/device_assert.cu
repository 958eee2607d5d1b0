// A failed assert in a kernel: CUDA's message per failing thread, then cudaErrorAssert
// from the next synchronising call and every call after it.
#include <cassert>
#include <cstdio>

__global__ void check(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < n);  // line 8
}

int main() {
  check<<<2, 32>>>(60);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  cudaError_t later = cudaMemcpy(nullptr, nullptr, 0, cudaMemcpyHostToHost);
  std::printf("launch %s, sync %s, later %s\n", cudaGetErrorName(launch), cudaGetErrorName(sync),
              cudaGetErrorName(later));
  return sync == cudaErrorAssert ? 0 : 1;
}
