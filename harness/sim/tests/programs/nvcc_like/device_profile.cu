// What a program sees of the GPU the emulator presents itself as (PPLAB_SIM_DEVICE):
// the properties, the dynamic shared memory a block may opt into, the thread limit, and
// __CUDA_ARCH__ in device code. With an argument, one kernel that the GPU refuses.
#include <cstdio>
#include <cstring>

__global__ void arch_of_device_code(int* out) {
  extern __shared__ int scratch[];
  scratch[threadIdx.x] = __CUDA_ARCH__;
  out[threadIdx.x] = scratch[threadIdx.x];
}

// The architecture chooses the warp sum: __reduce_add_sync exists from sm_80.
__global__ void warp_sum(int* out) {
#if __CUDA_ARCH__ >= 800
  out[threadIdx.x] = __reduce_add_sync(0xffffffffu, 1);
#else
  int sum = 1;
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  out[threadIdx.x] = sum;
#endif
}

// 49,156 bytes of static shared memory: more than any kernel may declare.
__global__ void static_too_large(int* out) {
  __shared__ int big[12289];
  big[threadIdx.x] = 1;
  out[threadIdx.x] = big[threadIdx.x];
}

// 40 KiB static: with the dynamic bytes, more than a T4's block may have.
__global__ void static_and_dynamic(int* out) {
  __shared__ int fixed[10240];
  extern __shared__ int rest[];
  fixed[threadIdx.x] = 1;
  rest[threadIdx.x] = 2;
  out[threadIdx.x] = fixed[threadIdx.x] + rest[threadIdx.x];
}

int main(int argc, char** argv) {
  int* d = nullptr;
  cudaMalloc(&d, 1024 * sizeof(int));
  if (argc > 1 && std::strcmp(argv[1], "static") == 0) {
    static_too_large<<<1, 32>>>(d);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
  }
  if (argc > 1 && std::strcmp(argv[1], "static_and_dynamic") == 0) {
    cudaFuncSetAttribute(static_and_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, 48 * 1024);
    static_and_dynamic<<<1, 32, 48 * 1024>>>(d);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
  }
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  int optin = 0, major = 0;
  cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  std::printf("device: %s; %d.%d (attribute %d); opt-in %d, per SM %zu, reserved %zu; L2 %d, bus %d bits\n", p.name,
              p.major, p.minor, major, optin, p.sharedMemPerMultiprocessor, p.reservedSharedMemPerBlock, p.l2CacheSize,
              p.memoryBusWidth);

  const cudaError_t raise_within = cudaFuncSetAttribute(arch_of_device_code, cudaFuncAttributeMaxDynamicSharedMemorySize, optin);
  arch_of_device_code<<<1, 32, optin>>>(d);
  const cudaError_t launch_within = cudaGetLastError();
  cudaDeviceSynchronize();
  int arch = 0;
  cudaMemcpy(&arch, d, sizeof arch, cudaMemcpyDeviceToHost);
  std::printf("opt-in %d bytes: %s, launch %s, __CUDA_ARCH__ %d\n", optin, cudaGetErrorName(raise_within),
              cudaGetErrorName(launch_within), arch);

  const cudaError_t raise_above =
      cudaFuncSetAttribute(arch_of_device_code, cudaFuncAttributeMaxDynamicSharedMemorySize, optin + 1);
  cudaGetLastError();
  arch_of_device_code<<<1, 32, optin + 1>>>(d);
  const cudaError_t launch_above = cudaGetLastError();
  arch_of_device_code<<<1, 1025>>>(d);
  const cudaError_t too_many_threads = cudaGetLastError();
  std::printf("opt-in %d bytes: %s, launch %s; 1025 threads: %s\n", optin + 1, cudaGetErrorName(raise_above),
              cudaGetErrorName(launch_above), cudaGetErrorName(too_many_threads));

  warp_sum<<<1, 32>>>(d);
  int sum = 0;
  cudaMemcpy(&sum, d, sizeof sum, cudaMemcpyDeviceToHost);
  std::printf("warp sum %d\n", sum);
  cudaFree(d);
  return 0;
}
