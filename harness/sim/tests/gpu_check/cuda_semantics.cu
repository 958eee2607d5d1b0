// Prints the results of the warp operations and intrinsics whose CUDA semantics
// the sim copies. Build it both ways and compare the outputs line by line:
//   nvcc -arch=sm_90 cuda_semantics.cu -o gpu && ./gpu > gpu.txt
//   build/sim/bin/simcc cuda_semantics.cu -o sim && ./sim > sim.txt && diff gpu.txt sim.txt
#include <cuda_runtime.h>

#include <cstdio>

#include "block_predicates.cuh"

__global__ void shuffles(int* out) {
  int l = threadIdx.x, v = 100 + l;
  out[0 * 32 + l] = __shfl_sync(0xffffffffu, v, 3, 8);
  out[1 * 32 + l] = __shfl_sync(0xffffffffu, v, 35, 32);
  out[2 * 32 + l] = __shfl_up_sync(0xffffffffu, v, 2, 16);
  out[3 * 32 + l] = __shfl_down_sync(0xffffffffu, v, 4, 16);
  out[4 * 32 + l] = __shfl_xor_sync(0xffffffffu, v, 1, 32);
  out[5 * 32 + l] = __shfl_xor_sync(0xffffffffu, v, 8, 8);
  out[6 * 32 + l] = __shfl_down_sync(0xffffffffu, v, 1);
  out[7 * 32 + l] = __shfl_up_sync(0xffffffffu, v, 5);
}

__global__ void votes(unsigned* out) {
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned b = __ballot_sync(__activemask(), lane % 3 == 0);
  int any = __any_sync(__activemask(), lane == 5);
  int all = __all_sync(__activemask(), lane < 40);
  if (lane == 0) {
    out[warp * 3 + 0] = b;
    out[warp * 3 + 1] = any;
    out[warp * 3 + 2] = all;
  }
}

__global__ void active(unsigned* out) {
  if (threadIdx.x >= 20) return;
  unsigned m = __activemask();
  if (threadIdx.x == 0) out[0] = m;
  if (threadIdx.x < 4) {
    unsigned inner = __activemask();
    if (threadIdx.x == 0) out[1] = inner;
  }
}


__global__ void intrinsics(int* out) {
  volatile int zero = 0;
  out[0] = __popc(0xf0f0u);
  out[1] = __popcll(0xffffffffffull);
  out[2] = __clz(zero);
  out[3] = __clz(1);
  out[4] = __clzll(zero);
  out[5] = __ffs(zero);
  out[6] = __ffs(8);
  out[7] = static_cast<int>(__brev(1u));
  out[8] = min(3, 7) + max(3, 7);
  out[9] = static_cast<int>(__float_as_uint(1.0f) >> 23);
  out[10] = static_cast<int>(__brev(0x12345678u));
  out[11] = static_cast<int>(atomicInc(reinterpret_cast<unsigned*>(&out[12]), 0u));
}

int main() {
  int* d;
  cudaMalloc(&d, 8 * 32 * sizeof(int));
  shuffles<<<1, 32>>>(d);
  int h[8 * 32];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  const char* names[8] = {"shfl(3,w8)", "shfl(35)", "up(2,w16)", "down(4,w16)", "xor(1)", "xor(8,w8)", "down(1)", "up(5)"};
  for (int k = 0; k < 8; ++k) {
    std::printf("%s:", names[k]);
    for (int l = 0; l < 32; ++l) std::printf(" %d", h[k * 32 + l]);
    std::printf("\n");
  }
  unsigned* u;
  cudaMalloc(&u, 16 * sizeof(unsigned));
  votes<<<1, 40>>>(u);
  unsigned hv[6];
  cudaMemcpy(hv, u, sizeof hv, cudaMemcpyDeviceToHost);
  std::printf("votes(40 threads): %08x %u %u | %08x %u %u\n", hv[0], hv[1], hv[2], hv[3], hv[4], hv[5]);
  active<<<1, 32>>>(u);
  cudaMemcpy(hv, u, 2 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  std::printf("activemask: %08x %08x\n", hv[0], hv[1]);
  block_predicates_kernel<<<1, 128>>>(d);
  cudaMemcpy(h, d, 4 * sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("syncthreads count/and/or/and: %d %d %d %d\n", h[0], h[1], h[2], h[3]);
  cudaMemset(d, 0, 16 * sizeof(int));
  intrinsics<<<1, 1>>>(d);
  cudaMemcpy(h, d, 13 * sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("intrinsics:");
  for (int k = 0; k < 13; ++k) std::printf(" %d", h[k]);
  std::printf("\n");
  dim3 big(1025);
  shuffles<<<1, big>>>(d);
  cudaError_t e = cudaGetLastError();
  std::printf("launch 1025 threads: %d %s\n", static_cast<int>(e), cudaGetErrorString(e));
  block_predicates_kernel<<<1, 32, 64 * 1024>>>(d);
  e = cudaGetLastError();
  std::printf("launch 64 KiB smem: %d %s\n", static_cast<int>(e), cudaGetErrorString(e));
  block_predicates_kernel<<<0, 32>>>(d);
  e = cudaGetLastError();
  std::printf("launch 0 blocks: %d %s\n", static_cast<int>(e), cudaGetErrorString(e));
  return 0;
}
