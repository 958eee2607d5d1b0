// Red team (memoised speed): a lab 02 file that computes the dot product on its first few
// calls only (the warm-up) and then answers every call with the last value it computed,
// as if the timer always asked the same question. With a fresh draw before every run
// (pplab/fresh_inputs.h) the answer is wrong, so the timer must report it unverified.
#include <cstddef>
#include <vector>

#include "dot_product.cuh"

namespace pplab::lab02 {

void dot_product(const float* d_a, const float* d_b, float* d_result, std::size_t n, int, cudaStream_t stream) {
  static int calls = 0;
  static float kept = 0;
  if (++calls > 3) {
    cudaMemcpyAsync(d_result, &kept, sizeof(float), cudaMemcpyHostToDevice, stream);
    return;
  }
  std::vector<float> a(n), b(n);
  cudaMemcpy(a.data(), d_a, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(b.data(), d_b, n * sizeof(float), cudaMemcpyDeviceToHost);
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += double(a[i]) * b[i];
  kept = float(sum);
  cudaMemcpy(d_result, &kept, sizeof(float), cudaMemcpyHostToDevice);
}

}  // namespace pplab::lab02
