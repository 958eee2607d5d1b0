// Lanes of one warp split between a warp op and a block barrier: a deadlock.
#include "run_kernel.h"

__global__ void mixed(int* out) {
  int v = threadIdx.x;
  if (threadIdx.x < 8)
    v = __shfl_sync(0xffffffffu, v, 0);  // line 7
  else
    __syncthreads();  // line 9
  out[threadIdx.x] = v;
}

int main() {
  return pplab::sim_programs::run_kernel(32, [](int* d) { mixed<<<1, 32>>>(d); });
}
