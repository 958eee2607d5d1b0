// Lab 08's entry points, as the checker calls them in the runner (harness/remote/entries.h).
#include "gather_scatter.cuh"
#define PPLAB_LAB_MAPS(FUNCTION, T)                                                                         \
  FUNCTION(void, pplab::lab08, gather,                                                                      \
           (const T* d_in, std::size_t in_size, const std::uint32_t* d_map, T* d_out, std::size_t n,        \
            cudaStream_t stream),                                                                           \
           (d_in, in_size, d_map, d_out, n, stream))                                                        \
  FUNCTION(void, pplab::lab08, scatter,                                                                     \
           (const T* d_in, const std::uint32_t* d_map, T* d_out, std::size_t out_size, std::size_t n,       \
            cudaStream_t stream),                                                                           \
           (d_in, d_map, d_out, out_size, n, stream))
// The _unchecked forms: what the benchmark times beside Thrust.
#define PPLAB_LAB_UNCHECKED(FUNCTION, T)                                                                   \
  FUNCTION(void, pplab::lab08, gather_unchecked,                                                           \
           (const T* d_in, const std::uint32_t* d_map, T* d_out, std::size_t n, cudaStream_t stream),     \
           (d_in, d_map, d_out, n, stream))                                                                \
  FUNCTION(void, pplab::lab08, scatter_unchecked,                                                          \
           (const T* d_in, const std::uint32_t* d_map, T* d_out, std::size_t n, cudaStream_t stream),     \
           (d_in, d_map, d_out, n, stream))
#define PPLAB_LAB_ENTRIES(FUNCTION, TEMPLATE, INSTANCE)                                             \
  PPLAB_LAB_MAPS(FUNCTION, int) PPLAB_LAB_MAPS(FUNCTION, float)                                     \
  FUNCTION(void, pplab::lab08, inverse_permutation,                                                 \
           (const std::uint32_t* d_perm, std::uint32_t* d_inv, std::size_t n, cudaStream_t stream), \
           (d_perm, d_inv, n, stream))                                                              \
  PPLAB_LAB_UNCHECKED(FUNCTION, int) PPLAB_LAB_UNCHECKED(FUNCTION, float)                           \
  FUNCTION(void, pplab::lab08, inverse_permutation_unchecked,                                       \
           (const std::uint32_t* d_perm, std::uint32_t* d_inv, std::size_t n, cudaStream_t stream), \
           (d_perm, d_inv, n, stream))
