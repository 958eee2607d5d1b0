// Red team (memoised speed): a lab 01 file that computes saxpy once per (x, y, n) and
// answers every later call on the same buffers with the answer it kept, a device copy.
// Timed repeats on one unchanging input would all be right and nearly free; with a fresh
// draw before every run (pplab/fresh_inputs.h) the kept answer is wrong, so the timer
// must report the measurement unverified.
#include <cstddef>
#include <vector>

#include "honest_saxpy.cuh"

namespace pplab::lab01 {

void saxpy(float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t stream) {
  static const float* kept_x = nullptr;
  static float* kept_y = nullptr;
  static std::size_t kept_n = 0;
  static std::vector<float> kept;
  if (d_x == kept_x && d_y == kept_y && n == kept_n) {
    cudaMemcpyAsync(d_y, kept.data(), n * sizeof(float), cudaMemcpyHostToDevice, stream);
    return;
  }
  honest_saxpy(a, d_x, d_y, n, stream);
  kept.resize(n);
  cudaMemcpy(kept.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost);
  kept_x = d_x, kept_y = d_y, kept_n = n;
}

}  // namespace pplab::lab01
