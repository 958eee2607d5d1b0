// Launches run on the device while the host goes on: a kernel waits for a flag the
// host sets in mapped memory after the launch (a deadlock if launches were
// synchronous); work on a stream runs in order; events and queries follow it.
#include <cstdio>

__global__ void wait_for_host(volatile int* flag, int* out) {
  while (*flag == 0) {
  }
  *out = 42;
}

__global__ void add(int* p, int v) { *p += v; }

void CUDART_CB host_step(void* arg) { *static_cast<int*>(arg) *= 10; }

int main() {
  int *flag, *out;
  cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped);
  cudaMallocManaged(&out, sizeof(int));
  *flag = 0;
  *out = 0;
  cudaEvent_t done;
  cudaEventCreate(&done);
  wait_for_host<<<1, 1>>>(flag, out);
  cudaEventRecord(done, 0);
  cudaError_t before = cudaEventQuery(done);  // the kernel cannot have finished: the flag is still 0
  *flag = 1;
  cudaEventSynchronize(done);
  std::printf("while waiting: %s; after the flag: out = %d, %s\n", cudaGetErrorName(before), *out,
              cudaGetErrorName(cudaEventQuery(done)));

  cudaStream_t s;
  cudaStreamCreate(&s);
  int* acc;
  cudaMallocManaged(&acc, sizeof(int));
  *acc = 1;
  add<<<1, 1, 0, s>>>(acc, 2);             // 3
  cudaLaunchHostFunc(s, host_step, acc);   // 30
  add<<<1, 1, 0, s>>>(acc, 4);             // 34
  cudaStreamSynchronize(s);
  std::printf("in stream order: %d, stream %s\n", *acc, cudaGetErrorName(cudaStreamQuery(s)));
  cudaStreamDestroy(s);
  return 0;
}
