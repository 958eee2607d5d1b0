// Namespace-scope __shared__ arrays are checked like those in a function: one
// kernel per report, and a clean run of many blocks. `namespace_shared <case>`;
// test_shared_checks.cpp names the lines below, so keep them where they are.
#include <cuda_runtime.h>

#include "run_kernel.h"

__shared__ int sums[64];  // line 8
namespace scan {
__shared__ float tile[32], spare[8];  // line 10
}

// The neighbour's slot is read with no barrier after it was written.
__global__ void race_on_namespace_array(int* out) {
  sums[threadIdx.x] = 1;                                    // line 15
  out[threadIdx.x] = sums[(threadIdx.x + 33) % 64];         // line 16
}

// One past the end of a namespace-scope array inside a namespace.
__global__ void past_end_of_namespace_array(int* out) {
  scan::tile[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = static_cast<int>(scan::tile[threadIdx.x + 1]);  // line 23
}

// Block 1 reads what only block 0 wrote: each block starts with it unwritten.
__global__ void uninit_namespace_array(int* out) {
  if (blockIdx.x == 0) scan::spare[threadIdx.x] = 5.0f;
  __syncthreads();
  out[threadIdx.x] = static_cast<int>(scan::spare[7 - threadIdx.x]);  // line 30
}

// A barrier-separated tree over the namespace-scope array, many blocks at once.
__global__ void tree_sum(int* out) {
  sums[threadIdx.x] = static_cast<int>(blockIdx.x + 1);
  __syncthreads();
  for (int stride = 32; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) sums[threadIdx.x] += sums[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, sums[0]);
}

PPLAB_SIM_NAMED_KERNELS(
    {"race", [](int* d) { race_on_namespace_array<<<1, 64>>>(d); }},
    {"past_end", [](int* d) { past_end_of_namespace_array<<<1, 32>>>(d); }},
    {"uninit", [](int* d) { uninit_namespace_array<<<2, 8>>>(d); }},
    {"clean", [](int* d) { tree_sum<<<100, 64>>>(d); }})
