// Red team: let a library do the lab. Thrust computes the saxpy (on the emulator device
// memory is the host's, so its host back end gives the right answer); no kernel of the
// student's own is written. The library policy refuses the file: it includes Thrust.
#include <thrust/execution_policy.h>
#include <thrust/transform.h>

#include "saxpy.cuh"

namespace pplab::lab01 {
namespace {
struct Saxpy {
  float a;
  float operator()(float x, float y) const { return a * x + y; }
};
}  // namespace

void saxpy(float a, const float* x, float* y, std::size_t n, cudaStream_t) {
  thrust::transform(thrust::host, x, x + n, y, y, Saxpy{a});
}
}  // namespace pplab::lab01
