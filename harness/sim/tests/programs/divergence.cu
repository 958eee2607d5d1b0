// Half the block returns before a barrier the other half waits at.
#include "run_kernel.h"

__global__ void early_exit(int* out) {
  if (threadIdx.x >= 16) return;
  __syncthreads();  // line 6
  out[threadIdx.x] = 1;
}

int main() {
  return pplab::sim_programs::run_kernel(64, [](int* d) { early_exit<<<2, 64>>>(d); });
}
