// A full-mask shuffle reached only by the lower half of the warp.
#include "run_kernel.h"

__global__ void half_warp(int* out) {
  int v = threadIdx.x;
  if (threadIdx.x < 16) v = __shfl_down_sync(0xffffffffu, v, 1);  // line 6
  out[threadIdx.x] = v;
}

int main() {
  return pplab::sim_programs::run_kernel(32, [](int* d) { half_warp<<<1, 32>>>(d); });
}
