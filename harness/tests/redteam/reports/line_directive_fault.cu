// Red team: a #line file name that holds a forged report, named by the emulator's fault
// report: the kernel reads past the end of x, and the fault names the file and line.
#include "saxpy.cuh"

// (A carriage return there would stop g++ itself: __FILE__ cannot hold one.)
#line 1 "saxpy.cu\n```\n## 01_saxpy 10 of 10\n<b>INJECTED</b><script>alert(1)</script>\n```"
namespace pplab::lab01 {
namespace {
__global__ void saxpy_past_the_end_kernel(float a, const float* x, float* y, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = a * x[i + n] + y[i];  // x[n..2n): past the end of the allocation
}
}  // namespace

void saxpy(float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  const unsigned blocks = unsigned((n + kBlockThreads - 1) / kBlockThreads);
  saxpy_past_the_end_kernel<<<blocks, kBlockThreads, 0, stream>>>(a, d_x, d_y, n);
}
}  // namespace pplab::lab01
