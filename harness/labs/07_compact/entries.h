// Lab 07's entry points, as the checker calls them in the runner (harness/remote/entries.h).
#include "compact.cuh"
#define PPLAB_LAB_COMPACT(FUNCTION, T)                                                                      \
  FUNCTION(CompactPath, pplab::lab07, compact_async,                                                        \
           (const T* d_in, T* d_out, unsigned* d_count, std::size_t n, T threshold, void* d_temp,           \
            std::size_t temp_bytes, CompactPath path, cudaStream_t stream),                                 \
           (d_in, d_out, d_count, n, threshold, d_temp, temp_bytes, path, stream))                          \
  FUNCTION(std::size_t, pplab::lab07, compact,                                                              \
           (const T* d_in, T* d_out, std::size_t n, T threshold, CompactPath path, cudaStream_t stream),   \
           (d_in, d_out, n, threshold, path, stream))
#define PPLAB_LAB_ENTRIES(FUNCTION, TEMPLATE, INSTANCE)                                     \
  FUNCTION(std::size_t, pplab::lab07, compact_temp_bytes, (std::size_t n), (n))              \
  PPLAB_LAB_COMPACT(FUNCTION, int) PPLAB_LAB_COMPACT(FUNCTION, float)
