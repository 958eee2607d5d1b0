#include <cstdio>
#include "scale.cuh"

int main() {
  const int blocks = 3, threads = 64, n = blocks * threads;
  float* d;
  cudaMallocManaged(&d, n * sizeof(float));
  for (int i = 0; i < n; ++i) d[i] = static_cast<float>(i);
  reverse_blocks(d, blocks, threads);
  cudaDeviceSynchronize();
  bool ok = true;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t) ok = ok && d[b * threads + t] == static_cast<float>(b * threads + threads - 1 - t);
  std::printf("launch in a header: %s, main line %d\n", ok ? "reversed" : "WRONG", __LINE__);  // line 14
  return ok ? 0 : 1;
}
