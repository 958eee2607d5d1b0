/// \file
/// \brief The harness's own entry points in every runner, beside the lab's
/// (define_entries.h): what a checker's timer asks the runner's device to do that is
/// not the lab's work: filling a benchmark's fresh input, and gathering the positions a
/// sampled check looks at (pplab/fresh_inputs.h).
#pragma once
#include "pplab/fresh_inputs.h"

#define PPLAB_FILL_FRESH(FUNCTION, T)                                                                       \
  FUNCTION(void, pplab, fill_fresh, (T * d_out, std::size_t n, Spread spread, std::uint64_t seed,           \
                                     cudaStream_t stream),                                                  \
           (d_out, n, spread, seed, stream))
#define PPLAB_GATHER_AT(FUNCTION, T)                                                                        \
  FUNCTION(void, pplab, gather_at, (const T* d_src, const std::uint64_t* d_positions, std::size_t count,       \
                                    T* d_out, cudaStream_t stream),                                            \
           (d_src, d_positions, count, d_out, stream))
#define PPLAB_HARNESS_ENTRIES(FUNCTION)                                                                  \
  PPLAB_FILL_FRESH(FUNCTION, int) PPLAB_FILL_FRESH(FUNCTION, unsigned) PPLAB_FILL_FRESH(FUNCTION, float) \
  PPLAB_GATHER_AT(FUNCTION, int) PPLAB_GATHER_AT(FUNCTION, unsigned) PPLAB_GATHER_AT(FUNCTION, float)
