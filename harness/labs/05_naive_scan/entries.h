// Lab 05's entry points, as the checker calls them in the runner (harness/remote/entries.h).
#include "naive_scan.cuh"
#define PPLAB_LAB_SCAN(FUNCTION, name, T)                                                                   \
  FUNCTION(void, pplab::lab05, name, (const T* d_in, T* d_out, std::size_t n, int block_threads, cudaStream_t stream), \
           (d_in, d_out, n, block_threads, stream))
#define PPLAB_LAB_ENTRIES(FUNCTION, TEMPLATE, INSTANCE)                                      \
  PPLAB_LAB_SCAN(FUNCTION, inclusive_scan, int) PPLAB_LAB_SCAN(FUNCTION, inclusive_scan, float) \
  PPLAB_LAB_SCAN(FUNCTION, exclusive_scan, int) PPLAB_LAB_SCAN(FUNCTION, exclusive_scan, float)
