// Lab 01's entry points, as the checker calls them in the runner (harness/remote/entries.h).
#include "saxpy.cuh"
#define PPLAB_LAB_ENTRIES(FUNCTION, TEMPLATE, INSTANCE)                                                  \
  FUNCTION(void, pplab::lab01, saxpy, (float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t stream), \
           (a, d_x, d_y, n, stream))
