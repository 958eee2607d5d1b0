// Lab 11's entry points, as the checker calls them in the runner (harness/remote/entries.h).
// temp_storage_bytes is taken by reference: the runner sends back what the sort wrote.
#include "radix_sort.cuh"
#define PPLAB_LAB_SORTS(FUNCTION, Key)                                                                     \
  FUNCTION(void, pplab::lab11, radix_sort_keys,                                                            \
           (void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in, Key* d_keys_out,  \
            std::size_t n, int begin_bit, int end_bit, cudaStream_t stream, Algorithm algorithm),          \
           (d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, n, begin_bit, end_bit, stream,      \
            algorithm))                                                                                    \
  FUNCTION(void, pplab::lab11, radix_sort_pairs,                                                           \
           (void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in, Key* d_keys_out,  \
            const unsigned* d_values_in, unsigned* d_values_out, std::size_t n, int begin_bit, int end_bit, \
            cudaStream_t stream, Algorithm algorithm),                                                     \
           (d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,       \
            begin_bit, end_bit, stream, algorithm))
#define PPLAB_LAB_ENTRIES(FUNCTION, TEMPLATE, INSTANCE)                                                   \
  FUNCTION(void, pplab::lab11, split_sort,                                                                \
           (const unsigned* d_in, unsigned* d_out, unsigned* d_positions, std::size_t n, int begin_bit,   \
            int end_bit, cudaStream_t stream),                                                            \
           (d_in, d_out, d_positions, n, begin_bit, end_bit, stream))                                     \
  PPLAB_LAB_SORTS(FUNCTION, unsigned) PPLAB_LAB_SORTS(FUNCTION, int) PPLAB_LAB_SORTS(FUNCTION, float)  \
  FUNCTION(bool, pplab::lab11, onesweep_available, (), ())
