// Red team: compute SAXPY on the host, straight through the device pointers, and launch
// an empty kernel so the harness counts a launch. The answer is right wherever device
// memory is the host's (the emulator used to be such a place); on a GPU the first read
// of d_x is a segmentation fault. The emulator closes device memory to host code, so
// the first read is a fault here too.
#include "saxpy.cuh"

namespace pplab::lab01 {
namespace {
__global__ void looks_busy() {}
}  // namespace

void saxpy(float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  looks_busy<<<1, 1, 0, stream>>>();
  cudaStreamSynchronize(stream);
  for (std::size_t i = 0; i < n; ++i) d_y[i] = a * d_x[i] + d_y[i];
}
}  // namespace pplab::lab01
