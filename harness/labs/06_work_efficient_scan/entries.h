// Lab 06's entry points, as the checker calls them in the runner (harness/remote/entries.h).
#include "work_efficient_scan.cuh"
#define PPLAB_LAB_SCAN(FUNCTION, name, T)                                                                   \
  FUNCTION(void, pplab::lab06, name,                                                                        \
           (const T* d_in, T* d_out, std::size_t n, Algorithm algorithm, int block_threads, cudaStream_t stream), \
           (d_in, d_out, n, algorithm, block_threads, stream))
#define PPLAB_LAB_ENTRIES(FUNCTION, TEMPLATE, INSTANCE)                                          \
  PPLAB_LAB_SCAN(FUNCTION, exclusive_scan, int) PPLAB_LAB_SCAN(FUNCTION, exclusive_scan, float)     \
  PPLAB_LAB_SCAN(FUNCTION, inclusive_scan, int) PPLAB_LAB_SCAN(FUNCTION, inclusive_scan, float)     \
  FUNCTION(bool, pplab::lab06, single_pass_available, (), ())                                      \
  FUNCTION(int, pplab::lab06, shared_slot, (int i), (i))
