// Lab 10's entry points, as the checker calls them in the runner (harness/remote/entries.h).
#include "merge_sort.cuh"
#define PPLAB_LAB_SORTS(INSTANCE, Key)                                                                       \
  INSTANCE(void, pplab::lab10, sort_keys, (Key),                                                             \
           (const Key*, Key*, std::size_t, cudaStream_t, MergeKernel, SortTile))                             \
  INSTANCE(void, pplab::lab10, sort_pairs, (Key),                                                            \
           (const Key*, const std::uint32_t*, Key*, std::uint32_t*, std::size_t, cudaStream_t, MergeKernel,  \
            SortTile))                                                                                       \
  INSTANCE(void, pplab::lab10, merge_keys, (Key),                                                            \
           (const Key*, std::size_t, const Key*, std::size_t, Key*, cudaStream_t, MergeKernel))
#define PPLAB_LAB_ENTRIES(FUNCTION, TEMPLATE, INSTANCE)                                                   \
  FUNCTION(bool, pplab::lab10, tiled_merge_available, (), ())                                             \
  FUNCTION(int, pplab::lab10, sort_block_threads, (bool pairs, SortTile tile), (pairs, tile))             \
  TEMPLATE(void, pplab::lab10, sort_keys, (class Key),                                                    \
           (const Key* d_keys_in, Key* d_keys_out, std::size_t n, cudaStream_t stream, MergeKernel merge, \
            SortTile tile),                                                                               \
           (d_keys_in, d_keys_out, n, stream, merge, tile))                                               \
  TEMPLATE(void, pplab::lab10, sort_pairs, (class Key),                                                   \
           (const Key* d_keys_in, const std::uint32_t* d_values_in, Key* d_keys_out,                      \
            std::uint32_t* d_values_out, std::size_t n, cudaStream_t stream, MergeKernel merge,           \
            SortTile tile),                                                                               \
           (d_keys_in, d_values_in, d_keys_out, d_values_out, n, stream, merge, tile))                    \
  TEMPLATE(void, pplab::lab10, merge_keys, (class Key),                                                   \
           (const Key* d_a, std::size_t a_count, const Key* d_b, std::size_t b_count, Key* d_out,         \
            cudaStream_t stream, MergeKernel merge),                                                      \
           (d_a, a_count, d_b, b_count, d_out, stream, merge))                                            \
  PPLAB_LAB_SORTS(INSTANCE, int) PPLAB_LAB_SORTS(INSTANCE, unsigned)
