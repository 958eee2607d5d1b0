// Runtime calls and types from outside the labs' subset.
#include <cuda_profiler_api.h>
#include <cstdio>

__global__ void add_one(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = static_cast<int>(umin(static_cast<unsigned>(p[i]) + 1, 5u) + umax(0u, 0u));
}

int main() {
  cudaSetDeviceFlags(cudaDeviceMapHost);
  cudaProfilerStart();
  static int host[64];
  for (int i = 0; i < 64; ++i) host[i] = i;
  cudaError_t reg = cudaHostRegister(host, sizeof host, cudaHostRegisterMapped);
  int* dev = nullptr;
  cudaHostGetDevicePointer(&dev, host, 0);
  int min_grid = 0, block = 0;
  cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, add_one, 0, 256);
  add_one<<<(64 + block - 1) / block, block>>>(dev, 64);
  cudaDeviceSynchronize();
  std::printf("registered %s, mapped %s, block %d, host[0] %d host[63] %d\n", cudaGetErrorName(reg),
              dev == host ? "same address" : "other", block, host[0], host[63]);
  int* managed;
  cudaMallocManaged(&managed, 256);
  cudaMemLocation loc{cudaMemLocationTypeDevice, 0};
  cudaError_t pf = cudaMemPrefetchAsync(managed, 256, loc, 0, nullptr);
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaError_t at = cudaStreamAttachMemAsync(s, managed, 0, cudaMemAttachHost);
  std::printf("prefetch %s, attach %s\n", cudaGetErrorName(pf), cudaGetErrorName(at));
  std::printf("alignof long4 %zu double4_16a %zu double4_32a %zu ulong2 %zu\n", alignof(long4), alignof(double4_16a),
              alignof(double4_32a), alignof(ulong2));
  int mode = -1;
  cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0);
  std::printf("compute mode %d (default %d)\n", mode, cudaComputeModeDefault);
  cudaProfilerStop();
  cudaHostUnregister(host);
  return 0;
}
