// threadIdx, blockIdx, blockDim, gridDim, warpSize.
//
// They are plain thread_local variables (not macros, not objects with conversion
// operators) so `auto i = threadIdx.x` is an unsigned int and printf("%u") works.
// The scheduler rewrites threadIdx each time it switches fibers; a read costs one
// TLS load. Every rendezvous is an opaque call, so the compiler re-reads them after it.
#pragma once
#include "pplab/sim/types.h"

inline thread_local uint3 threadIdx{0, 0, 0};
inline thread_local uint3 blockIdx{0, 0, 0};
inline thread_local dim3 blockDim{1, 1, 1};
inline thread_local dim3 gridDim{1, 1, 1};
constexpr int warpSize = 32;
