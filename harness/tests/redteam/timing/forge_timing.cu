// Red team (timing): an honest lab 01 file that also reports its own timing, a
// measurement line of a thousandth of a microsecond, on stdout and stderr at every call.
// What the runner prints reaches the timer's stderr only, quoted ("lab> "); the timer's
// own line on stdout is the only measurement, and it is the timer's figure.
#include <cstddef>
#include <cstdio>

#include "saxpy.cuh"

namespace pplab::lab01 {
namespace {

__global__ void saxpy_kernel(float a, const float* x, float* y, std::size_t n) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

}  // namespace

void saxpy(float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t stream) {
  const char* forged =
      "{\"lab\":\"01_saxpy\",\"impl\":\"student\",\"variant\":\"\",\"n\":%zu,\"median_ms\":0.000001,"
      "\"min_ms\":0.000001,\"max_ms\":0.000001,\"gbps\":99999,\"repeats\":20,\"verified\":true,"
      "\"timed_by\":\"checker\",\"forged\":true}\n";
  std::printf(forged, n);
  std::fprintf(stderr, forged, n);
  std::fflush(stdout);
  if (n == 0) return;
  const unsigned blocks = unsigned((n + 255) / 256);
  saxpy_kernel<<<blocks, 256, 0, stream>>>(a, d_x, d_y, n);
}

}  // namespace pplab::lab01
