// A header with a kernel, dynamic shared memory spelled `extern T __shared__`, and a
// launch: the rewriter follows it from header_launch.cu and keeps its lines.
#pragma once

__global__ void reverse_block(float* data) {
  extern float __shared__ smem[];
  smem[threadIdx.x] = data[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  data[blockIdx.x * blockDim.x + threadIdx.x] = smem[blockDim.x - 1 - threadIdx.x];
  if (blockIdx.x == 0 && threadIdx.x == 0) printf("header line %d\n", __LINE__);  // line 10
}

inline void reverse_blocks(float* d, int blocks, int threads) {
  reverse_block<<<blocks, threads, threads * sizeof(float)>>>(d);
}
