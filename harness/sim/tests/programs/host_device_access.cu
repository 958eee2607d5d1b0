// Host code that dereferences device memory faults, as on a GPU; memory the host may
// touch on a GPU stays open to it.
//   host_device_access write     the host writes a cudaMalloc buffer (line 29)
//   host_device_access read      the host reads one after cudaDeviceSynchronize (line 37)
//   host_device_access library   the host copies one with std::memcpy (line 44)
//   host_device_access async     the host writes a cudaMallocAsync buffer (line 50)
//   host_device_access callback  a host callback (cudaLaunchHostFunc) reads one (line 14)
//   host_device_access open      managed and pinned memory from the host, and the
//                                runtime's copies of device memory, all work
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>

void CUDART_CB peek(void* p) { std::printf("callback read %d\n", *static_cast<int*>(p)); }  // line 14

__device__ int symbol[4];

__global__ void fill(int* out, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value + i;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  const int n = 1000;
  int* d = nullptr;
  if (std::strcmp(mode, "write") == 0) {
    cudaMalloc(&d, n * sizeof(int));
    d[3] = 7;  // line 29
    std::printf("the host wrote device memory unnoticed\n");
    return 0;
  }
  if (std::strcmp(mode, "read") == 0) {
    cudaMalloc(&d, n * sizeof(int));
    fill<<<4, 256>>>(d, n, 100);
    cudaDeviceSynchronize();
    std::printf("the host read device memory unnoticed: %d\n", d[5]);  // line 37
    return 0;
  }
  if (std::strcmp(mode, "library") == 0) {
    cudaMalloc(&d, n * sizeof(int));
    static int host[1000];
    volatile size_t bytes = sizeof host;  // not known at compile time: a call to memcpy
    std::memcpy(host, d, bytes);          // line 44
    std::printf("the host copied device memory unnoticed: %d\n", host[0]);
    return 0;
  }
  if (std::strcmp(mode, "async") == 0) {
    cudaMallocAsync(&d, n * sizeof(int), nullptr);
    d[0] = 1;  // line 50
    std::printf("the host wrote cudaMallocAsync memory unnoticed\n");
    return 0;
  }
  if (std::strcmp(mode, "callback") == 0) {
    cudaMalloc(&d, n * sizeof(int));
    fill<<<4, 256>>>(d, n, 100);
    cudaLaunchHostFunc(nullptr, peek, d);
    cudaDeviceSynchronize();
    return 0;
  }

  // open: what the host may touch on a GPU, and what the runtime does with device memory.
  int *managed = nullptr, *pinned = nullptr, *mapped = nullptr;
  cudaMallocManaged(&managed, n * sizeof(int));
  cudaMallocHost(&pinned, n * sizeof(int));
  cudaHostAlloc(&mapped, n * sizeof(int), cudaHostAllocMapped);
  for (int i = 0; i < n; ++i) managed[i] = pinned[i] = mapped[i] = -i;
  fill<<<4, 256>>>(managed, n, 1000);
  fill<<<4, 256>>>(pinned, n, 2000);
  fill<<<4, 256>>>(mapped, n, 3000);
  cudaDeviceSynchronize();
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && managed[i] == 1000 + i && pinned[i] == 2000 + i && mapped[i] == 3000 + i;
  std::printf("managed and pinned memory from the host: %s\n", ok ? "ok" : "WRONG");

  // Copies, memsets and symbol copies of device memory; a buffer allocated while a
  // kernel runs (it takes the open state, and closes with the rest).
  int *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n * sizeof(int));
  fill<<<4, 256>>>(a, n, 5);
  cudaMalloc(&b, n * sizeof(int));
  cudaMemcpy(b, a, n * sizeof(int), cudaMemcpyDeviceToDevice);
  cudaMemcpy(pinned, b, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpyAsync(managed, b, n * sizeof(int), cudaMemcpyDefault);
  cudaMemsetAsync(a, 0, n * sizeof(int));
  cudaStreamSynchronize(nullptr);
  bool copies = true;
  for (int i = 0; i < n; ++i) copies = copies && pinned[i] == 5 + i && managed[i] == 5 + i;
  cudaMemcpyToSymbol(symbol, b + 10, sizeof symbol, 0, cudaMemcpyDeviceToDevice);
  cudaMemcpyFromSymbol(a + 100, symbol, sizeof symbol, 0, cudaMemcpyDeviceToDevice);
  int from_symbol[4] = {};
  cudaMemcpy(from_symbol, a + 100, sizeof from_symbol, cudaMemcpyDeviceToHost);
  for (int k = 0; k < 4; ++k) copies = copies && from_symbol[k] == 15 + k;
  int zero = -1;
  cudaMemcpy(&zero, a + 7, sizeof zero, cudaMemcpyDeviceToHost);
  std::printf("copies of device memory: %s, memset %d, %s\n", copies ? "ok" : "WRONG", zero,
              cudaGetErrorName(cudaGetLastError()));
  cudaFree(a);
  cudaFree(b);
  cudaFree(managed);
  cudaFreeHost(pinned);
  cudaFreeHost(mapped);
  return ok && copies && zero == 0 ? 0 : 1;
}
