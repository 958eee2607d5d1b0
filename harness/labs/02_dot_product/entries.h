// Lab 02's entry points, as the checker calls them in the runner (harness/remote/entries.h).
#include "dot_product.cuh"
#define PPLAB_LAB_ENTRIES(FUNCTION, TEMPLATE, INSTANCE)                                              \
  FUNCTION(void, pplab::lab02, dot_product,                                                          \
           (const float* d_a, const float* d_b, float* d_result, std::size_t n, int block_threads, cudaStream_t stream), \
           (d_a, d_b, d_result, n, block_threads, stream))
