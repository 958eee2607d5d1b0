// CUDA's __reduce_*_sync over a partial warp: the lanes of the mask (0-19) each get the
// reduction of the mask's values; min and max compare signed for int, unsigned for
// unsigned. Lane v holds v - 10 (int) and 1 << v (unsigned). Prints lane 0's results.
#include <cstdio>

__global__ void reduce(int* out) {
  const int lane = threadIdx.x;
  if (lane >= 20) return;
  const unsigned mask = 0x000fffffu;
  const int v = lane - 10;
  const unsigned bit = 1u << lane;
  const int sum = __reduce_add_sync(mask, v);
  const int least = __reduce_min_sync(mask, v);
  const int most = __reduce_max_sync(mask, v);
  const unsigned least_unsigned = __reduce_min_sync(mask, static_cast<unsigned>(v));
  const unsigned ored = __reduce_or_sync(mask, bit);
  const unsigned anded = __reduce_and_sync(mask, bit | 1u);
  const unsigned xored = __reduce_xor_sync(mask, bit | 1u);
  if (lane == 0) {
    out[0] = sum;
    out[1] = least;
    out[2] = most;
    out[3] = static_cast<int>(least_unsigned);
    out[4] = static_cast<int>(ored);
    out[5] = static_cast<int>(anded);
    out[6] = static_cast<int>(xored);
  }
}

int main() {
  int* results = nullptr;  // managed: the host reads what the kernel wrote after the sync
  cudaMallocManaged(&results, 7 * sizeof(int));
  reduce<<<1, 32>>>(results);
  cudaDeviceSynchronize();
  std::printf("reduce: add %d, min %d, max %d, min unsigned %d, or 0x%x, and 0x%x, xor 0x%x\n", results[0], results[1],
              results[2], results[3], static_cast<unsigned>(results[4]), static_cast<unsigned>(results[5]),
              static_cast<unsigned>(results[6]));
  cudaFree(results);
  return 0;
}
