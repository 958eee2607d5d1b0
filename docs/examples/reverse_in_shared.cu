// reverse_in_shared.cu: a block reverses an array through shared memory, once with a
// barrier between the writes and the reads and once without. The student guide shows
// it to explain PPLAB_SIM_SCHEDULE; the docs test builds it with simcc and runs it
// under each schedule.
//   build/docs/bin/simcc reverse_in_shared.cu -o reverse && PPLAB_SIM_SCHEDULE=reverse ./reverse
#include <cstdio>

#include <cuda_runtime.h>

constexpr int kThreads = 8;

//! [with barrier]
__global__ void reverse_kernel(const int* in, int* out) {
  __shared__ int tile[kThreads];
  const int i = threadIdx.x;
  tile[i] = in[i];
  __syncthreads();  // every write lands before anyone reads a neighbour's slot
  out[i] = tile[kThreads - 1 - i];
}
//! [with barrier]

//! [without barrier]
__global__ void reverse_no_barrier_kernel(const int* in, int* out) {
  __shared__ int tile[kThreads];
  const int i = threadIdx.x;
  tile[i] = in[i];
  out[i] = tile[kThreads - 1 - i];  // may read a slot its owner has not written yet
}
//! [without barrier]

static void run(const char* name, bool barrier, const int* d_in, int* d_out) {
  cudaMemset(d_out, 0, kThreads * sizeof(int));
  if (barrier)
    reverse_kernel<<<1, kThreads>>>(d_in, d_out);
  else
    reverse_no_barrier_kernel<<<1, kThreads>>>(d_in, d_out);
  int out[kThreads];
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  std::printf("%-20s", name);
  for (int v : out) std::printf(" %d", v);
  std::printf("\n");
}

int main() {
  int in[kThreads];
  for (int i = 0; i < kThreads; ++i) in[i] = i + 1;
  int *d_in = nullptr, *d_out = nullptr;
  cudaMalloc(&d_in, sizeof in);
  cudaMalloc(&d_out, sizeof in);
  cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
  run("with barrier:", true, d_in, d_out);
  run("without barrier:", false, d_in, d_out);
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}
