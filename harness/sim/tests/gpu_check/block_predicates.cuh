// The block votes __syncthreads_count, _and and _or over 128 threads, with predicates
// whose answers are known (32, 1, 1, 0). One kernel for both places that need it: the
// emulator's test suite (kernels.cu) and the program whose output is compared with a
// GPU's (cuda_semantics.cu), so the two check the same code.
#pragma once

__global__ void block_predicates_kernel(int* out) {
  int c = __syncthreads_count(threadIdx.x % 4 == 0);
  int a = __syncthreads_and(threadIdx.x < 1000);
  int o = __syncthreads_or(threadIdx.x == 77);
  int z = __syncthreads_and(threadIdx.x != 3);
  if (threadIdx.x == 0) {
    out[0] = c;
    out[1] = a;
    out[2] = o;
    out[3] = z;
  }
}
