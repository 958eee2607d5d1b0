// Even and odd threads wait at different __syncthreads() calls.
#include "run_kernel.h"

__global__ void split(int* out) {
  if (threadIdx.x % 2 == 0) {
    __syncthreads();  // line 6
  } else {
    __syncthreads();  // line 8
  }
  out[threadIdx.x] = 1;
}

int main() {
  return pplab::sim_programs::run_kernel(32, [](int* d) { split<<<1, 32>>>(d); });
}
