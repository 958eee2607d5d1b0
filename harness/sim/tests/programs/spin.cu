// Thread 0 spins on a flag that a later thread of its block would set: under
// cooperative scheduling (and on some GPUs) that never happens.
#include "run_kernel.h"

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
  return pplab::sim_programs::run_kernel(2, [](int* d) { spin<<<1, 2>>>(d); });
}
