// Red team (timing): a lab 01 file that is right when it is called the first few times
// (the checks, the warm-up) and then skips the work on every other call, so half the
// timed repeats cost nothing. The checker's timer checks a random half of the timed
// repeats, chosen after each has returned, and the last: it must report the
// measurement unverified.
#include <cstddef>

#include "saxpy.cuh"

namespace pplab::lab01 {
namespace {

__global__ void saxpy_kernel(float a, const float* x, float* y, std::size_t n) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

}  // namespace

void saxpy(float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t stream) {
  static int calls = 0;
  ++calls;
  if (calls > 3 && calls % 2 == 1) return;  // a "fast" run that leaves y as it was
  if (n == 0) return;
  const unsigned blocks = unsigned((n + 255) / 256);
  saxpy_kernel<<<blocks, 256, 0, stream>>>(a, d_x, d_y, n);
}

}  // namespace pplab::lab01
