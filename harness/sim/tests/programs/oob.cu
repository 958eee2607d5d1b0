// Writes one element past the end: the classic rounded-up grid without `if (i < n)`.
// As in CUDA, the launch stops and the error is sticky: the next synchronising call
// and every later one return cudaErrorIllegalAddress until cudaDeviceReset.
//   oob           the report, then the sticky error, then a reset and working kernels
//   oob end       pplab::sim::set_faults_end_process(true): the report ends the process
//   oob barrier   the fault hits a thread while the rest of its block waits at a barrier
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>

__global__ void fill(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 1.0f;  // line 13: no bounds check
}

// Thread `bad` of block 1 reads past the end of `in` (1024 elements) while the others wait at the barrier.
__global__ void staged(const float* in, float* out, int bad) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = static_cast<int>(threadIdx.x) == bad && blockIdx.x == 1 ? in[1024] : in[i];  // line 20
  __syncthreads();
  out[i] = tile[255 - threadIdx.x];
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  if (std::strcmp(mode, "end") == 0) pplab::sim::set_faults_end_process(true);
  const int n = 1000;
  float* d;
  const bool barrier = std::strcmp(mode, "barrier") == 0;
  cudaMalloc(&d, (barrier ? 1024 : n) * sizeof(float));
  if (barrier) {
    float* in;
    cudaMalloc(&in, 1024 * sizeof(float));
    staged<<<4, 256>>>(in, d, 200);
  } else {
    fill<<<(n + 255) / 256, 256>>>(d, n);
  }
  cudaError_t sync = cudaDeviceSynchronize();
  std::printf("sync: %s (%s)\n", cudaGetErrorName(sync), cudaGetErrorString(sync));
  float h = 0;
  cudaError_t copy = cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  fill<<<1, 32>>>(d, n);
  cudaError_t launch = cudaGetLastError();
  std::printf("later: copy %s, launch %s\n", cudaGetErrorName(copy), cudaGetErrorName(launch));
  // After a reset the device works again, barriers included (fresh fibers).
  cudaDeviceReset();
  float *in, *out;
  cudaMalloc(&in, 1024 * sizeof(float));
  cudaMalloc(&out, 1024 * sizeof(float));
  cudaMemset(in, 0, 1024 * sizeof(float));
  for (int k = 0; k < 3; ++k) staged<<<4, 256>>>(in, out, -1);
  cudaError_t again = cudaDeviceSynchronize();
  cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("after cudaDeviceReset: %s, out[0] = %g\n", cudaGetErrorName(again), h);
  return sync == cudaErrorIllegalAddress ? 1 : 0;
}
